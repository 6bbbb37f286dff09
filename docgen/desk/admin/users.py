"""User management in the browser (admins only): add, change role, full name and title or
password, a developer's sites, unlock, remove (after asking; their drafts are kept and can
be handed on), and the audit of these changes and of every sign-in."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.cases import labels
from docgen.desk.admin import accounts
from docgen.desk.base import auth
from docgen.desk.base.web import guarded, once, posted, render
from docgen.errors import DocgenError


def said(err: DocgenError) -> list[str]:
    """A refusal, every problem a line, each starting with the field's label."""
    return [labels.capital(line) for line in str(err).splitlines() if line.strip()]


def _page(
    request: Request, error: list[str] | None = None, status: int = 200, done: str = ""
) -> Response:
    db = request.app.state.db
    return render(
        request,
        "users.html.j2",
        status=status,
        users=accounts.list_users(db),
        sites=accounts.bound_sites(db),
        removed=accounts.removed_with_drafts(db),
        audit=accounts.audit_rows(db, 50),
        roles=auth.ROLES,
        error=error or [],
        done=done,
        typed=dict(posted(request)) if error else {},
        min_password=auth.MIN_PASSWORD,
    )


@guarded("users")
def users_page(request: Request) -> Response:
    return _page(request, done=DONE.get(request.query_params.get("done", ""), ""))


def _field(request: Request, name: str) -> str:
    return str(posted(request).get(name) or "")


def _add(request: Request, by: str) -> str:
    accounts.add_user(
        request.app.state.db,
        _field(request, "name"),
        _field(request, "role"),
        _field(request, "password"),
        full_name=_field(request, "full_name"),
        title=_field(request, "title"),
        sites=[_field(request, "sites")],
        by=by,
    )
    return "added"


def _sites(request: Request, by: str) -> str:
    """A developer's sites as typed: the list replaces the one before."""
    db, name = request.app.state.db, _field(request, "name")
    wanted = accounts.site_numbers([_field(request, "sites")])
    had = accounts.bound_sites(db).get(name, [])
    accounts.set_sites(db, name, wanted, set(had) - set(wanted), by=by)
    return "sites"


def _role(request: Request, by: str) -> str:
    accounts.set_role(request.app.state.db, _field(request, "name"), _field(request, "role"), by=by)
    return "role"


def _details(request: Request, by: str) -> str:
    db, name = request.app.state.db, _field(request, "name")
    accounts.set_details(db, name, _field(request, "full_name"), _field(request, "title"), by=by)
    return "details"


def _password(request: Request, by: str) -> str:
    name = _field(request, "name")
    accounts.set_password(request.app.state.db, name, _field(request, "password"), by=by)
    return "password"


def _unlock(request: Request, by: str) -> str:
    accounts.unlock(request.app.state.db, _field(request, "name"), by=by)
    return "unlocked"


def _remove(request: Request, by: str) -> str:
    name = _field(request, "name")
    if name == request.scope["visitor"].name:
        raise DocgenError("you cannot remove yourself")
    accounts.remove_user(request.app.state.db, name, by=by)
    return "removed"


def _transfer(request: Request, by: str) -> str:
    db = request.app.state.db
    accounts.transfer_drafts(db, _field(request, "name"), _field(request, "to"), by=by)
    return "transferred"


DONE = {
    "added": "User added.",
    "role": "Role changed; that user signs in again.",
    "sites": "Sites saved.",
    "details": "Full name and title saved.",
    "password": "Password changed; that user signs in again.",
    "unlocked": "Failed sign-ins forgotten.",
    "removed": "User removed and signed out; their calendar address and the invitation links "
    "they made as a developer no longer work. Their drafts are kept below until handed on.",
    "transferred": "Drafts handed on.",
}
CHANGES: dict[str, Callable[[Request, str], str]] = {
    "add": _add,
    "role": _role,
    "sites": _sites,
    "details": _details,
    "password": _password,
    "unlock": _unlock,
    "remove": _remove,
    "transfer": _transfer,
}


@guarded("users")
def change(request: Request) -> Response:
    """One change to the users; a refusal comes back on the page with what was typed."""
    what = request.path_params["what"]
    if what not in CHANGES:
        return render(request, "missing.html.j2", status=404, what="page")

    def act(request: Request) -> Response:
        by = request.scope["visitor"].name
        try:
            done = CHANGES[what](request, by)
        except DocgenError as err:
            return _page(request, said(err), 400)
        return RedirectResponse(f"/users?done={done}", status_code=303)

    return once(request, act)


@guarded("users")
def confirm_remove(request: Request) -> Response:
    """Asks before a user is removed."""
    name = request.query_params.get("name", "")
    if name not in {u.name for u in accounts.list_users(request.app.state.db)}:
        return render(request, "missing.html.j2", status=404, what="user")
    return render(request, "remove_user.html.j2", name=name)


routes = [
    Route("/users", users_page, methods=["GET"]),
    Route("/users/remove", confirm_remove, methods=["GET"]),
    Route("/users/{what}", change, methods=["POST"]),
]
