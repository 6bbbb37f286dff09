"""The clerk's desk: a Starlette app over docgen's library and register.

Routes that tools outside the project rely on: ``GET/POST /login`` (fields ``username``,
``password`` and the hidden ``csrf_token``), ``GET /documents`` (the register; without a
session it redirects to /login) and ``POST /logout``.
"""

from __future__ import annotations

import logging
import multiprocessing.util
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docgen import __version__, library_warnings
from docgen.desk.admin import users
from docgen.desk.base import auth
from docgen.desk.base.database import sessions
from docgen.desk.base.web import (
    CSP,
    CSRF_FIELD,
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    BadInput,
    client_of,
    form_of,
    render,
)
from docgen.desk.day import due, mailing, year_page
from docgen.desk.documents import actions, appeal_forms, document_page, register_list, verify_page
from docgen.desk.drafting import drafts, photos, uploads
from docgen.desk.issuing import issue_page
from docgen.desk.people import history_import, respondent_pages
from docgen.desk.public import certify_public, public_check
from docgen.desk.server import limits, renderers
from docgen.desk.sites import certify, fees_pages, logbook, swppp_pages
from docgen.errors import DocgenError
from docgen.register import Register
from docgen.render.processes import RendererLost, RenderTooBig

log = logging.getLogger("docgen.desk")

STATIC = Path(__file__).parent / "static"


SAVED = "Your session had expired. What you typed was saved; sign in to go on with it."


async def login_page(request: Request) -> Response:
    token = request.cookies.get(LOGIN_CSRF_COOKIE) or auth.new_csrf()
    saved = request.query_params.get("saved") == "1"
    return _login(request, token, SAVED if saved else "", 200)


def _cookie(request: Request, response: Response, name: str, value: str, **kw: Any) -> None:
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
    if cookie is None or not auth.same_token(cookie, form.get(CSRF_FIELD)):
        return _login(request, auth.new_csrf(), "This form is out of date; try again.", 400, name)
    try:
        found = await run_in_threadpool(
            auth.sign_in,
            request.app.state.db,
            name,
            str(form.get("password") or ""),
            client_of(request),
        )
    except auth.TooManyAttempts as err:
        log.warning("sign-in refused after repeated failures from %s", client_of(request))
        return _login(request, cookie, f"{str(err)[:1].upper()}{str(err)[1:]}.", 429, name)
    if found is None:
        return _login(request, cookie, "Wrong user name or password.", 401, name)
    user, token = found
    response = RedirectResponse(auth.landing(user.role), status_code=303)
    lifetime = int(auth.LIFETIME.total_seconds())
    _cookie(request, response, SESSION_COOKIE, token, samesite="lax", max_age=lifetime)
    response.delete_cookie(LOGIN_CSRF_COOKIE)
    return response


async def logout(request: Request) -> Response:
    """Sign out: the session is deleted, live or expired (a live one needs its CSRF token,
    so no other site can sign a clerk out)."""
    form = await form_of(request)
    token = request.cookies.get(SESSION_COOKIE)
    db = request.app.state.db
    visitor = await run_in_threadpool(auth.visitor, db, token)
    if (
        visitor is not None
        and visitor.live
        and not auth.same_token(visitor.csrf, form.get(CSRF_FIELD))
    ):
        return render(request, "denied.html.j2", status=403, why="this form is out of date")
    await run_in_threadpool(auth.sign_out, db, token)
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    return response


async def home(request: Request) -> Response:
    """What is due first (LAW.md § 12); a developer's sites for a developer's account."""
    token = request.cookies.get(SESSION_COOKIE)
    visitor = await run_in_threadpool(auth.visitor, request.app.state.db, token)
    if visitor is not None and not visitor.may(auth.STAFF):
        return RedirectResponse(auth.landing(visitor.role), status_code=303)
    return RedirectResponse("/due", status_code=303)


class Guard:
    """Security headers on every response (limits.Limits, inside it, bounds the bodies)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

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
            await self.app(scope, receive, headed)
        except Exception as err:  # answered 500 already; logged without its message,
            # which may quote case data (a statement's values, a field's text)
            log.error("%s %s failed: %s", scope.get("method"), scope["path"], type(err).__name__)


async def refused(request: Request, err: Exception) -> Response:
    """A refusal from docgen or the register (a locked or unreachable database, say): the
    message, on a page, never a traceback."""
    log.warning("%s: %s", request.url.path, type(err).__name__)
    return render(request, "error.html.j2", status=503, message=str(err))


BUSY = (
    "The register is busy or out of reach just now; try again in a moment. Nothing was "
    "recorded: go back, and what you typed is still in the form."
)


async def unavailable(request: Request, err: Exception) -> Response:
    """The database failed (locked past the busy timeout, unreachable): 503, try again;
    the log names the error's type only, never the statement's values."""
    log.warning("%s: database %s", request.url.path, type(err).__name__)
    response = render(request, "error.html.j2", status=503, message=BUSY)
    response.headers["retry-after"] = "5"
    return response


async def render_lost(request: Request, err: Exception) -> Response:
    """A render that did not finish (its process died or ran out of time, and was
    replaced): 503, try again; only this request failed."""
    log.warning("%s: render lost: %s", request.url.path, getattr(err, "why", ""))
    if isinstance(err, RenderTooBig):  # the same again would fail the same way
        return render(request, "error.html.j2", status=413, message=str(err))
    response = render(request, "error.html.j2", status=503, message=str(err))
    response.headers["retry-after"] = "5"
    return response


async def health(request: Request) -> Response:
    """200 when the rendering processes answer (a dead one is replaced first), else 503:
    the probe of the service's watchdog (docgen.desk.server.watchdog, docs/deploy.md)."""
    if await run_in_threadpool(renderers.healthy):
        # "ok" first (what a probe reads), then which docgen answers
        return PlainTextResponse(f"ok\nversion: {__version__}\n")
    return PlainTextResponse("the rendering processes do not answer", status_code=503)


async def bad_input(request: Request, err: Exception) -> Response:
    """A field no form of the desk sends (a control character, a path too deep): 400."""
    assert isinstance(err, BadInput)
    message = f"The field {err.field} was refused: {err.why}."
    return render(request, "error.html.j2", status=400, message=message)


async def body_refused(request: Request, err: Exception) -> Response:
    """A body too large (413) or too slow to arrive (408) for its page (docgen.desk.server.limits):
    the words on a page; the connection is closed (the rest of the body is not read)."""
    assert isinstance(err, HTTPException)
    response = render(request, "error.html.j2", status=err.status_code, message=err.detail)
    response.headers["connection"] = "close"
    return response


async def not_found(request: Request, err: Exception) -> Response:
    """An address the desk does not have: the desk's own not-found page (404), or the
    method's refusal (405) on the same page."""
    status = err.status_code if isinstance(err, HTTPException) else 404
    return render(request, "missing.html.j2", status=status, what="page")


def create_app(
    database_url: str | None = None,
    secure_cookies: bool = False,
    host_names: tuple[str, ...] = (),
) -> ASGIApp:
    """The desk over the database at ``database_url`` (default: the register's), answering
    only requests for ``host_names`` (default: loopback names only)."""
    routes = [
        Route("/", home),
        Route("/healthz", health, methods=["GET"]),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        *actions.routes,  # before the register's /documents/{number}/{what}
        *appeal_forms.routes,
        *drafts.routes,
        *due.routes,
        *history_import.routes,
        *logbook.routes,
        *mailing.routes,
        *photos.routes,
        *uploads.routes,
        *register_list.routes,
        *document_page.routes,
        *respondent_pages.routes,
        *verify_page.routes,
        *issue_page.routes,
        *users.routes,
        *certify.routes,
        *swppp_pages.routes,
        *fees_pages.routes,
        *year_page.routes,
        *public_check.routes,  # the public check: no sign-in
        *certify_public.routes,  # a firm's own certification: no sign-in
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {
        DocgenError: refused,
        RendererLost: render_lost,
        DBAPIError: unavailable,
        BadInput: bad_input,
        404: not_found,
        408: body_refused,
        413: body_refused,
        405: not_found,
    }
    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        lifespan=_lifespan,
    )
    app.state.db = sessions(database_url)
    app.state.database_url = database_url
    app.state.register = cache(lambda: _register(database_url))
    app.state.secure_cookies = secure_cookies
    public_check.redact_access_log()
    certify_public.redact_logs()
    allowed = list(host_names or LOOPBACK)
    hosts = TrustedHostMiddleware(app, allowed_hosts=allowed, www_redirect=False)
    return Guard(limits.Limits(hosts))


LOOPBACK = ("127.0.0.1", "localhost", "[::1]", "::1")


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    renderers.warm()  # the rendering processes start with the server, not at a first Issue
    yield
    renderers.stop()
    # The server's process ends next, by the signal that stopped it (uvicorn raises it
    # again after its graceful shutdown), so Python's exit handlers never run: the folder
    # of the fork server's socket (/tmp/pymp-*) is removed here, or each stop of the desk
    # left one behind. The fork server ends with this process.
    shutil.rmtree(multiprocessing.util.get_temp_dir(), ignore_errors=True)


def _register(database_url: str | None) -> Register:
    opened = Register.open(database_url)
    opened.engine.hide_parameters = True  # no case data in a logged error
    return opened


def from_environment() -> ASGIApp:
    """The app of `docgen serve --workers N` (each server process builds its own; what
    they share lives in the database): options from DOCGEN_SERVE_* variables."""
    names = tuple(filter(None, os.environ.get("DOCGEN_SERVE_HOSTS", "").split(",")))
    secure = os.environ.get("DOCGEN_SERVE_SECURE") == "1"
    library_warnings.route(logging.WARNING)  # in the desk's log, once: the deputy's to act on
    return create_app(secure_cookies=secure, host_names=names)
