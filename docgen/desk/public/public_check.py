"""The public check: ``GET /v/NUMBER?code=CODE``, the address every issued document
prints (with its QR code), open to anyone without signing in.

With the right access code the page says the document is genuine and what it is: kind,
number, issue date, whether it is current, superseded (by which number) or, for a stop-work
order, lifted (by which notice, as of which day), whether its
PDF was signed; a visitor may upload a file (``POST``) to compare it byte for byte with
the issued one and to check its signature. With a wrong or missing code the page is the
same for every number, issued or not, and costs the same (one Argon2id check, whatever
the code): it reveals nothing. Each address may ask :data:`LIMIT` times in :data:`WINDOW`,
counted in the register so the limit holds across server processes; more gets 429
(guessing codes is hopeless anyway: about 2^59 of them). The address is the
connection's, or the one the proxy names (X-Forwarded-For is believed only from
`docgen serve --proxy-address`).

An upload is bounded: 4 MB in 30 s (docgen.desk.server.limits), one in flight per address and
:data:`UPLOADS_IN_FLIGHT` on the whole desk (else 429 or 503, try again), its PDF parsed
and its signature checked in a rendering process under its memory limit and
:data:`COMPARE_SECONDS`, refused past :data:`renderers.MAX_PAGES` pages or
:data:`renderers.MAX_OBJECTS` objects.

The work (Argon2id, the database) runs in a worker thread, never on the event loop.
Pages are ``templates/public/``; nothing of the case beyond the above is shown.
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from docgen.desk.base.database import PublicCheck, now
from docgen.desk.base.web import checked_field, client_of, pages
from docgen.desk.server import renderers
from docgen.desk.server.limits import PUBLIC_UPLOAD as MAX_UPLOAD
from docgen.documents import get_kind
from docgen.law.packs import load_pack
from docgen.render.processes import RendererLost

LIMIT = 20  # checks per address (uploads included) in WINDOW, across every server process
WINDOW = timedelta(minutes=10)
UPLOADS_PER_ADDRESS = 1  # compare uploads in flight at once from one address
UPLOADS_IN_FLIGHT = 2 * renderers.RENDERERS  # and from everyone, on the whole desk
STALE = timedelta(minutes=5)  # an upload not finished by then no longer counts as in flight
COMPARE_SECONDS = 30.0  # a signature check's time, in its rendering process
BUSY_RETRY = 30  # seconds

LIMITED = "limited"
UPLOADING = "uploading"
BUSY = "busy"


def admit(db: Any, client: str, upload: bool) -> tuple[int | None, str | None]:
    """Record an ask of the public check from ``client``: (its id, None), or (None, why it
    is refused: LIMITED, UPLOADING or BUSY). Kept in the register, so the limit holds
    across `docgen serve --workers`; an upload counts as an ask and, until finished, as
    one in flight."""
    moment = now()
    with db.begin() as s:
        s.execute(delete(PublicCheck).where(PublicCheck.at < moment - WINDOW - STALE))
        asked = s.scalar(
            select(func.count(PublicCheck.id)).where(
                PublicCheck.client == client, PublicCheck.at >= moment - WINDOW
            )
        )
        if asked >= LIMIT:
            return None, LIMITED
        if upload:
            flying = (
                PublicCheck.upload.is_(True),
                PublicCheck.finished.is_(None),
                PublicCheck.at >= moment - STALE,
            )
            count = select(func.count(PublicCheck.id)).where(*flying)
            if s.scalar(count.where(PublicCheck.client == client)) >= UPLOADS_PER_ADDRESS:
                return None, UPLOADING
            if s.scalar(count) >= UPLOADS_IN_FLIGHT:
                return None, BUSY
        check = PublicCheck(client=client, upload=upload)
        s.add(check)
        s.flush()
        return check.id, None


def finish(db: Any, check: int) -> None:
    with db.begin() as s:
        s.execute(update(PublicCheck).where(PublicCheck.id == check).values(finished=now()))


def _page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = pages().get_template(f"public/{template}").render(context)
    return HTMLResponse(html, status_code=status)


def _facts(record: Any) -> dict[str, Any]:
    """What the page may say: from the register's public record, nothing more."""
    return {
        "number": record.number,
        "kind": get_kind(record.kind).title,
        "municipality": load_pack(record.jurisdiction).name.value,
        "issued": record.issued,
        "superseded_by": record.superseded_by,
        "in_effect": record.in_effect,
        "lifted_by": record.lifted_by,
        "lifted_on": record.lifted_on,
        "signed": record.signed,
        "certified": record.certified,
    }


def _compare(engine: Any, record: Any, blob: bytes) -> dict[str, Any]:
    """The byte comparison (a hash looked up) here; the PDF's parsing and signature check
    in a rendering process, under its limits (docgen.desk.server.renderers.signature)."""
    # register.matter.checks loads cryptography (+84 ms): loaded on first use
    from docgen.register.matter.checks import same_file, set_holding

    compared: dict[str, Any] = {"format": same_file(engine, record, blob), "signature": None}
    if compared["format"] is None:  # the SWPPP's set that holds this certification?
        compared["set"] = set_holding(engine, record, blob)
    if blob.startswith(b"%PDF"):
        try:
            tag, result = renderers.run_within(
                COMPARE_SECONDS, renderers.signature, blob, record.jurisdiction
            )
        except RendererLost as err:
            tag, result = "refused", err.why
        compared["signature" if tag == "signature" else "refused"] = result
    return compared


REFUSALS = {
    LIMITED: (429, "Too many checks", "Too many checks came from your address."),
    UPLOADING: (
        429,
        "One file at a time",
        "A file from your address is still being compared: wait for its result.",
    ),
    BUSY: (503, "Busy", "The check is comparing other files just now."),
}


def _refused(why: str) -> Response:
    status, title, message = REFUSALS[why]
    wait = int(WINDOW.total_seconds()) if why == LIMITED else BUSY_RETRY
    response = _page("limited.html.j2", status, title=title, message=message, minutes=wait // 60)
    response.headers["retry-after"] = str(wait)
    return response


async def check(request: Request) -> Response:
    number = request.path_params["number"]
    db = request.app.state.db
    uploading = request.method == "POST"
    asked, why = await run_in_threadpool(admit, db, client_of(request), uploading)
    if why is not None:
        return _refused(why)
    try:
        return await _answer(request, number)
    finally:
        if uploading and asked is not None:  # admitted: refused asks returned above
            await run_in_threadpool(finish, db, asked)


async def _answer(request: Request, number: str) -> Response:
    upload: bytes | None = None
    if request.method == "POST":
        form = await request.form(max_files=1, max_fields=4)
        code = str(form.get("code") or "")
        sent = form.get("file")
        if sent is not None and hasattr(sent, "read"):
            upload = await sent.read(MAX_UPLOAD + 1)
    else:
        code = request.query_params.get("code", "")
    checked_field("Number", number)  # a NUL is a 400 (PostgreSQL would refuse the query)
    checked_field("Access code", code)
    # register.matter.checks loads cryptography (+84 ms): loaded on first use
    from docgen.register.matter.checks import public_record

    engine = request.app.state.register().engine
    record = await run_in_threadpool(public_record, engine, number, code) if code else None
    if record is None:
        return _page(
            "ask.html.j2",
            status=404 if code else 200,
            number=number,
            wrong=bool(code),
        )
    facts = await run_in_threadpool(_facts, record)
    compared = None
    if upload is not None:
        if len(upload) > MAX_UPLOAD or not upload:
            compared = {"format": None, "signature": None, "empty": not upload}
        else:
            compared = await run_in_threadpool(_compare, engine, record, upload)
    return _page("check.html.j2", code=code, compared=compared, **facts)


class RedactCodes(logging.Filter):
    """An access code in a logged address (the QR code's ``?code=...``), and a calendar
    feed's secret, become ``****``:
    the server's log never holds a code that opens a document's record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _FEED.sub(r"\1****", _CODE.sub(r"\1****", a)) if isinstance(a, str) else a
                for a in record.args
            )
        return True


_CODE = re.compile(r"([?&]code=)[^&\s]*", re.IGNORECASE)
_FEED = re.compile(r"(/calendar/)[^/\s?]+")  # a calendar feed's secret (docgen.desk.day.due)


def redact_access_log() -> None:
    """Keep access codes out of uvicorn's access log (once per process)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactCodes) for f in access.filters):
        access.addFilter(RedactCodes())


routes = [Route("/v/{number:path}", check, methods=["GET", "POST"])]
