"""What every desk page shares: the signed-in visitor, CSRF checks, templates, headers.

Pages are Jinja templates under ``templates/desk/`` rendered by docgen's own environment
(autoescape, StrictUndefined, bidi closed after every value). Every route declares the
permission it needs (:func:`guarded`); a request without a live session is sent to
/login, one whose role lacks the permission gets 403.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cache, wraps
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from docgen.desk import auth

SESSION_COOKIE = "docgen_session"
LOGIN_CSRF_COOKIE = "docgen_login_csrf"
CSRF_FIELD = "csrf_token"
MAX_FORM_FIELDS = 5000

# No inline script or style anywhere: scripts and styles come from /static only.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'; "
    "object-src 'none'"
)
# A document preview: its own inline stylesheet, and nothing that runs.
PREVIEW_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
    "frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
)


@cache
def pages() -> Any:
    """The desk's Jinja environment: docgen's conventions (autoescape, StrictUndefined, its
    filters, templates from templates/desk/) without the documents' printing rules: a value
    is shown exactly as typed (an input's value, a CSRF token, a SHA-256), never with the
    line-break points or bidi closers a printed document adds."""
    import jinja2

    from docgen.render.environment import templates_dir
    from docgen.render.filters import FILTERS

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    return env


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    page = pages().get_template(f"desk/{template}")
    visitor = request.scope.get("visitor")
    html = page.render(
        {
            "visitor": visitor,
            "csrf": visitor.csrf if visitor else "",
            "csrf_field": CSRF_FIELD,
            "path": request.url.path,
            "notice": request.scope.get("notice", ""),
            **context,
        }
    )
    return HTMLResponse(html, status_code=status)


def denied(request: Request, why: str) -> HTMLResponse:
    return render(request, "denied.html.j2", status=403, why=why)


async def form_of(request: Request) -> FormData:
    return await request.form(max_fields=MAX_FORM_FIELDS, max_files=1)


Handler = Callable[[Request], Awaitable[Response]]


def guarded(
    permission: str | None, saves_when_expired: bool = False
) -> Callable[[Handler], Handler]:
    """A route that needs a live session (and ``permission``; None: any signed-in user).

    POSTs must carry the session's CSRF token. A POST arriving after the session expired
    is refused; but a route that ``saves_when_expired`` still gets a post carrying the
    expired session's cookie and CSRF token (``scope["expired"]`` is then True), so a
    draft is saved before the visitor is sent to sign in again.
    """

    def wrap(handler: Handler) -> Handler:
        @wraps(handler)
        async def route(request: Request) -> Response:
            db = request.app.state.db
            visitor = auth.visitor(db, request.cookies.get(SESSION_COOKIE))
            posting = request.method == "POST"
            if posting:
                form = await form_of(request)
                request.scope["form"] = form
                if visitor is not None and not auth.same_token(visitor.csrf, form.get(CSRF_FIELD)):
                    return denied(request, "this form is out of date; reload the page")
            keep = posting and saves_when_expired
            if visitor is None or not (visitor.live or keep):
                return RedirectResponse("/login", status_code=303)
            request.scope["visitor"] = visitor
            request.scope["expired"] = not visitor.live
            if permission is not None and not visitor.may(permission):
                return denied(request, f"the {visitor.role} role may not do this")
            return await handler(request)

        return route

    return wrap


def posted(request: Request) -> FormData:
    return request.scope["form"]


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"
