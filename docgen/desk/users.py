"""User management in the browser (admins only): list, add, remove."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk import auth
from docgen.desk.web import guarded, posted, render
from docgen.errors import DocgenError


def _page(request: Request, error: str = "", status: int = 200) -> Response:
    return render(
        request,
        "users.html.j2",
        status=status,
        users=auth.list_users(request.app.state.db),
        roles=auth.ROLES,
        error=error,
        min_password=auth.MIN_PASSWORD,
    )


@guarded("users")
def users_page(request: Request) -> Response:
    return _page(request)


@guarded("users")
def add(request: Request) -> Response:
    form = posted(request)
    try:
        auth.add_user(
            request.app.state.db,
            str(form.get("name") or ""),
            str(form.get("role") or ""),
            str(form.get("password") or ""),
        )
    except DocgenError as err:
        return _page(request, str(err), 400)
    return RedirectResponse("/users", status_code=303)


@guarded("users")
def remove(request: Request) -> Response:
    name = str(posted(request).get("name") or "")
    if name == request.scope["visitor"].name:
        return _page(request, "you cannot remove yourself", 400)
    try:
        auth.remove_user(request.app.state.db, name)
    except DocgenError as err:
        return _page(request, str(err), 400)
    return RedirectResponse("/users", status_code=303)


routes = [
    Route("/users", users_page, methods=["GET"]),
    Route("/users", add, methods=["POST"]),
    Route("/users/remove", remove, methods=["POST"]),
]
