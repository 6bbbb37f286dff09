"""The clerk's desk: a Starlette app over docgen's library and register.

Routes that tools outside the project rely on: ``GET/POST /login`` (fields ``username``,
``password`` and the hidden ``csrf_token``), ``GET /documents`` (the register; without a
session it redirects to /login) and ``POST /logout``.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docgen.desk import auth, drafts, register_pages, users
from docgen.desk.database import sessions
from docgen.desk.web import (
    CSP,
    CSRF_FIELD,
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    client_of,
    form_of,
    guarded,
    render,
)
from docgen.errors import DocgenError
from docgen.register import Register

log = logging.getLogger("docgen.desk")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 20 * 1024 * 1024  # the largest request accepted (a PDF to verify)


SAVED = "Your session had expired. What you typed was saved; sign in to go on with it."


async def login_page(request: Request) -> Response:
    token = request.cookies.get(LOGIN_CSRF_COOKIE) or auth.new_csrf()
    saved = request.query_params.get("saved") == "1"
    return _login(request, token, SAVED if saved else "", 200)


def _cookie(request: Request, response: Response, name: str, value: str, **kw) -> None:
    """An HttpOnly cookie, Secure behind an HTTPS proxy (`docgen serve --behind-proxy`)."""
    secure = request.app.state.secure_cookies
    response.set_cookie(name, value, httponly=True, secure=secure, **kw)


def _login(request: Request, token: str, error: str, status: int, name: str = "") -> Response:
    response = render(
        request, "login.html.j2", status=status, login_csrf=token, error=error, username=name
    )
    _cookie(request, response, LOGIN_CSRF_COOKIE, token, samesite="strict")
    return response


async def login(request: Request) -> Response:
    """Sign in: the double-submitted CSRF token, the rate limit, then the password."""
    form = await form_of(request)
    cookie = request.cookies.get(LOGIN_CSRF_COOKIE)
    name = str(form.get("username") or "").strip()
    if not auth.same_token(cookie, form.get(CSRF_FIELD)):
        return _login(request, auth.new_csrf(), "This form is out of date; try again.", 400, name)
    try:
        found = auth.sign_in(
            request.app.state.db, name, str(form.get("password") or ""), client_of(request)
        )
    except auth.TooManyAttempts as err:
        log.warning("sign-in refused after repeated failures from %s", client_of(request))
        return _login(request, cookie, f"{str(err)[:1].upper()}{str(err)[1:]}.", 429, name)
    if found is None:
        return _login(request, cookie, "Wrong user name or password.", 401, name)
    _, token = found
    response = RedirectResponse("/documents", status_code=303)
    lifetime = int(auth.LIFETIME.total_seconds())
    _cookie(request, response, SESSION_COOKIE, token, samesite="lax", max_age=lifetime)
    response.delete_cookie(LOGIN_CSRF_COOKIE)
    return response


@guarded(None)
async def logout(request: Request) -> Response:
    auth.sign_out(request.app.state.db, request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    return response


async def home(request: Request) -> Response:
    return RedirectResponse("/documents", status_code=303)


class Guard:
    """Security headers on every response; request bodies over ``limit`` bytes refused."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise TooLarge
            return message

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])]
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"SAMEORIGIN"),
                ]
                if not scope["path"].startswith("/static/"):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, counted, headed)
        except TooLarge:
            await _too_large(send)


class TooLarge(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = f"Request too large: the limit is {MAX_BODY // (1024 * 1024)} MB.".encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-security-policy", CSP.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def refused(request: Request, err: Exception) -> Response:
    """A refusal from docgen or the register (a locked or unreachable database, say): the
    message, on a page, never a traceback."""
    log.warning("%s: %s", request.url.path, type(err).__name__)
    return render(request, "error.html.j2", status=503, message=str(err))


def create_app(database_url: str | None = None, secure_cookies: bool = False) -> ASGIApp:
    """The desk over the database at ``database_url`` (default: the register's)."""
    routes = [
        Route("/", home),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        *drafts.routes,
        *register_pages.routes,
        *users.routes,
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={DocgenError: refused})
    app.state.db = sessions(database_url)
    app.state.register = cache(lambda: Register.open(database_url))
    app.state.secure_cookies = secure_cookies
    return Guard(app)
