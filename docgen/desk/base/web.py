"""What every desk page shares: the signed-in visitor, CSRF checks, templates, headers.

Pages are Jinja templates under ``templates/desk/`` rendered by docgen's own environment
(autoescape, StrictUndefined, bidi closed after every value). Every route declares the
permission it needs (:func:`guarded`; none named: :data:`auth.STAFF`, which a site's
developer lacks); a request without a live session is sent to /login, one whose role lacks
the permission gets 403.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import cache, wraps
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from docgen import __version__
from docgen.cases.labels import choice
from docgen.desk.base import auth, clock
from docgen.desk.base.database import Sessions, Submission, now
from docgen.desk.base.forms import MAX_DEPTH, MAX_ROW
from docgen.documents import get_kind
from docgen.documents.photos import MAX_PHOTOS
from docgen.law.taglines import language_name

if TYPE_CHECKING:
    from docgen.register import Register

SESSION_COOKIE = "docgen_session"
LOGIN_CSRF_COOKIE = "docgen_login_csrf"
CSRF_FIELD = "csrf_token"
MAX_FORM_FIELDS = 2000  # the largest form (every kind's, rows and all) has a few hundred
# The most files one form sends: an inspection's photos chosen at once, one past what an
# inspection keeps, so that the page (not the parser) says how many it keeps; the body's
# size is bounded apart (docgen.desk.server.limits).
MAX_FILES = MAX_PHOTOS + 1
MAX_NAME = 200  # characters of a field's name
MAX_ID = 9  # digits of a draft's or respondent's id

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
    line-break points or bidi closers a printed document adds. Compiled pages are kept
    (docgen.render.compiled), found by these options too, never taken for a document's."""
    # jinja2 takes 18 ms to import: loaded on first use
    import jinja2

    # render.environment and others load num2words, jinja2, babel (+49 ms): loaded on first use
    from docgen.render.compiled import COMPILED
    from docgen.render.environment import templates_dir
    from docgen.render.filters import FILTERS

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=COMPILED,  # the pages compiled once, not at each start
    )
    env.filters.update(FILTERS)
    env.filters["local_time"] = clock.local_time
    env.filters["wall_time"] = clock.wall_time
    env.globals["zone"] = clock.zone
    env.globals["version"] = __version__  # the running docgen's, in every page's footer
    env.filters.update(choice=choice, kind_title=lambda kind: get_kind(kind).title)
    env.filters["language_name"] = language_name
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
            "once": new_once,
            "once_field": ONCE_FIELD,
            "doc_url": lambda number, jurisdiction=None, tail="": document_url(
                request, number, jurisdiction, tail
            ),
            **context,
        }
    )
    return HTMLResponse(html, status_code=status)


def denied(request: Request, why: str) -> HTMLResponse:
    return render(request, "denied.html.j2", status=403, why=why)


class BadInput(Exception):
    """A request no form of the desk sends: a control character, a path too deep, a row
    index out of range. Answered 400 with a page naming the field."""

    def __init__(self, field: str, why: str):
        super().__init__(f"{field[:MAX_NAME]!r}: {why}")
        self.field = field[:MAX_NAME]
        self.why = why


_INDEX = re.compile(r"\[([^\]]*)\]")


def line_breaks(text: str) -> str:
    """A text area's CRLF and CR (what browsers send for Enter) as plain line breaks."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def checked_field(name: str, value: str) -> str:
    """``value`` with its line breaks normalized, or BadInput naming the field: a control
    character other than a line break or tab, a name too long or too deep, a row index
    that is not 1 to 2 ASCII digits."""
    if name.count(".") + name.count("[") >= MAX_DEPTH:
        raise BadInput(name, f"nested more than {MAX_DEPTH} levels deep; no form goes that deep")
    if len(name) > MAX_NAME or any(unicodedata.category(c) == "Cc" for c in name):
        raise BadInput(name, f"not a field of this form (names are at most {MAX_NAME} characters)")
    for index in _INDEX.findall(name):
        if not (index.isascii() and index.isdigit() and int(index) <= MAX_ROW):
            raise BadInput(name, f"row index {index!r}: a group holds rows 0 to {MAX_ROW}")
    value = line_breaks(value)
    for ch in value:
        if ch not in "\n\t" and unicodedata.category(ch) == "Cc":
            raise BadInput(
                name,
                f"contains the control character U+{ord(ch):04X}; remove it (what is typed "
                "here is printed as text)",
            )
    return value


async def form_of(request: Request) -> FormData:
    """The posted form, every text value checked (:func:`checked_field`)."""
    form = await request.form(max_fields=MAX_FORM_FIELDS, max_files=MAX_FILES)
    items: list[tuple[str, str | UploadFile]] = []
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            checked_field(name, "")
            items.append((name, value))
        else:
            items.append((name, checked_field(name, value)))
    return FormData(items)


def attachment(name: str) -> str:
    """A Content-Disposition for a download named ``name`` (RFC 6266): an ASCII fallback
    of letters, digits and ``-._`` in ``filename``, the name itself in ``filename*``."""
    plain = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "download"
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def id_of(text: str) -> int | None:
    """A draft's or respondent's id from a path: ASCII digits of sane length, else None."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_ID:
        return int(text)
    return None


Handler = Callable[[Request], Awaitable[Response]]
Page = Callable[[Request], Response]  # a route's own work: blocking, run in a thread


def guarded(permission: str | None, saves_when_expired: bool = False) -> Callable[[Page], Handler]:
    """A route that needs a live session (and ``permission``; None: any of the desk's own
    staff, :data:`auth.STAFF`: a site's developer reaches only its certification pages).

    POSTs must carry the session's CSRF token (or that of another session of the same
    user: a page left open in a tab before signing in again in another). A route that
    ``saves_when_expired`` gets a post whose token is out of date with
    ``scope["stale"]`` True, to show what was typed back, unsaved, on a page whose token
    is current. A POST arriving after the session expired
    is refused; but a route that ``saves_when_expired`` still gets a post carrying the
    expired session's cookie and CSRF token (``scope["expired"]`` is then True), so a
    draft is saved before the visitor is sent to sign in again.

    The route's work (database, hashing, files) runs in a worker thread, never on the
    event loop: one clerk's request does not hold up another's.
    """

    def wrap(page: Page) -> Handler:
        @wraps(page)
        async def route(request: Request) -> Response:
            if request.method == "POST":
                db, token = request.app.state.db, request.cookies.get(SESSION_COOKIE)
                if token is None or await run_in_threadpool(auth.visitor, db, token) is None:
                    # a stranger: its body is never read (nor waited for, docgen.desk.server.limits)
                    return RedirectResponse("/login", status_code=303)
                request.scope["form"] = await form_of(request)
            return await run_in_threadpool(admitted, request, page)

        def admitted(request: Request, page: Page) -> Response:
            db = request.app.state.db
            visitor = auth.visitor(db, request.cookies.get(SESSION_COOKIE))
            posting = request.method == "POST"
            given = posted(request).get(CSRF_FIELD) if posting else None
            request.scope["stale"] = False
            if posting and visitor and not auth.same_token(visitor.csrf, given):
                if auth.token_of_user(db, visitor.user_id, given):
                    pass  # a page of the same user's other session (signed in again elsewhere)
                elif saves_when_expired:
                    request.scope["stale"] = True  # shown back with what was typed, not saved
                else:
                    return denied(request, "this form is out of date; reload the page")
            keep = posting and saves_when_expired
            if visitor is None or not (visitor.live or keep):
                return RedirectResponse("/login", status_code=303)
            request.scope["visitor"] = visitor
            request.scope["expired"] = not visitor.live
            if not visitor.may(permission or auth.STAFF):
                return denied(request, f"the {visitor.role} role may not do this")
            return page(request)

        return route

    return wrap


ONCE_FIELD = "_once"  # a state-changing form's one-time submission token
KEEP_SUBMISSIONS = timedelta(days=1)
WAIT_FOR_FIRST = 180.0  # seconds a repeated post waits for the first one's result


def new_once() -> str:
    return secrets.token_urlsafe(24)


def once(request: Request, act: Page) -> Response:
    """``act`` once per submission token: a repeated post of the same form (a double
    click, a resend) is sent where the first one led, after waiting for it to finish. A
    first post that was refused leaves the token free, so the corrected form goes through."""
    token = str(posted(request).get(ONCE_FIELD) or "")
    if not token:
        return act(request)
    if len(token) > 64:
        raise BadInput(ONCE_FIELD, "not a submission token of this desk")
    db, user = request.app.state.db, request.scope["visitor"].user_id
    try:
        with db.begin() as s:
            s.execute(delete(Submission).where(Submission.at < now() - KEEP_SUBMISSIONS))
            s.add(Submission(token=token, user_id=user))
    except IntegrityError:
        return _first_result(request, token, act)
    try:
        response = act(request)
    except BaseException:
        _forget(db, token)
        raise
    if response.status_code == 303:
        with db.begin() as s:
            s.get(Submission, token).result = response.headers["location"]
    else:
        _forget(db, token)
    return response


def _forget(db: Any, token: str) -> None:
    with db.begin() as s:
        row = s.get(Submission, token)
        if row is not None:
            s.delete(row)


def _first_result(request: Request, token: str, act: Page) -> Response:
    db, user = request.app.state.db, request.scope["visitor"].user_id
    deadline = time.monotonic() + WAIT_FOR_FIRST
    while time.monotonic() < deadline:
        with db() as s:
            row = s.get(Submission, token)
        if row is None:  # the first was refused: this one is a new try
            return once(request, act)
        if row.user_id != user:
            return denied(request, "this form was sent by someone else")
        if row.result is not None:
            return RedirectResponse(row.result, status_code=303)
        time.sleep(0.2)
    return render(request, "error.html.j2", status=503, message=STILL_WORKING)


STILL_WORKING = "The first time this form was sent is still being worked on; reload in a minute."


def posted(request: Request) -> FormData:
    form: FormData = request.scope["form"]  # read by the route before the page ran
    return form


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


FORMAT_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "html": "text/html; charset=utf-8",
    "png": "image/png",  # a paper-signed certification's scan
    "jpg": "image/jpeg",
}


def register(request: Request) -> Register:
    """The register the desk serves (a new handle on its database)."""
    served: Register = request.app.state.register()  # docgen.desk.app sets it
    return served


# The query parameter naming a document's municipality in its address: a register may hold
# two municipalities, and each numbers its own series (two may number their letters alike).
JURISDICTION = "jurisdiction"


def chosen(request: Request) -> str | None:
    """The municipality the address of a document names, if it names one."""
    return request.query_params.get(JURISDICTION) or None


def shared_numbers(request: Request) -> frozenset[str]:
    """The numbers more than one municipality of the register holds (read once a request)."""
    known: frozenset[str] | None = getattr(request.state, "shared_numbers", None)
    if known is None:
        known = request.state.shared_numbers = register(request).shared_numbers()
    return known


def document_url(
    request: Request, number: str, jurisdiction: str | None = None, tail: str = "", **query: str
) -> str:
    """The address of document ``number`` of ``jurisdiction`` (its page; ``tail``: one of its
    files or the form posted from it, ``/file.pdf``, ``/service``), with ``query``. The
    municipality is named only where two municipalities share the number: the address of a
    number only one holds is the number alone, as it always was."""
    if jurisdiction and number in shared_numbers(request):
        query = {JURISDICTION: jurisdiction, **query}
    address = f"/documents/{number}{tail}"
    return f"{address}?{urlencode(query)}" if query else address


def database(request: Request) -> Sessions:
    """The desk's sessions on the register's database."""
    sessions: Sessions = request.app.state.db  # docgen.desk.app sets it
    return sessions


def typed(value: Any) -> str | None:
    """A posted field's text, stripped (None: left empty)."""
    return str(value or "").strip() or None
