"""The public check: ``GET /v/NUMBER?code=CODE``, the address every issued document
prints (with its QR code), open to anyone without signing in.

With the right access code the page says the document is genuine and what it is: kind,
number, issue date, whether it is current, superseded (by which number) or, for a stop-work
order, lifted (by which notice), whether its
PDF was signed; a visitor may upload a file (``POST``) to compare it byte for byte with
the issued one and to check its signature. With a wrong or missing code the page is the
same for every number, issued or not: it reveals nothing. Each address may ask
:data:`LIMIT` times in :data:`WINDOW` seconds; more gets 429 (guessing codes is
hopeless anyway: about 2^59 of them).

The work (Argon2id, the database, pyHanko) runs in a worker thread, never on the event
loop. Pages are ``templates/public/``; nothing of the case beyond the above is shown.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import deque
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from docgen.desk.limits import PUBLIC_UPLOAD as MAX_UPLOAD
from docgen.desk.web import client_of, pages

LIMIT = 20  # checks per address
WINDOW = 600.0  # seconds


class RateLimit:
    """At most ``limit`` requests per ``window`` seconds from one address."""

    def __init__(self, limit: int = LIMIT, window: float = WINDOW):
        self.limit = limit
        self.window = window
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._seen) > 10_000:  # forget quiet addresses
                since = now - self.window
                self._seen = {a: q for a, q in self._seen.items() if q and q[-1] > since}
            times = self._seen.setdefault(address, deque())
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                return False
            times.append(now)
            return True


def _limit(request: Request) -> RateLimit:
    state = request.app.state
    if not hasattr(state, "public_check_limit"):
        state.public_check_limit = RateLimit()
    return state.public_check_limit


def _page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = pages().get_template(f"public/{template}").render(context)
    return HTMLResponse(html, status_code=status)


def _facts(record: Any) -> dict[str, Any]:
    """What the page may say: from the register's public record, nothing more."""
    from docgen.documents import get_kind
    from docgen.law.packs import load_pack

    return {
        "number": record.number,
        "kind": get_kind(record.kind).title,
        "municipality": load_pack(record.jurisdiction).name.value,
        "issued": record.issued,
        "superseded_by": record.superseded_by,
        "in_effect": record.in_effect,
        "lifted_by": record.lifted_by,
        "signed": record.signed,
    }


def _compare(engine: Any, record: Any, blob: bytes) -> dict[str, Any]:
    from docgen.register.checks import same_file, signature_of

    fmt = same_file(engine, record, blob)
    report = signature_of(blob, record.jurisdiction) if blob.startswith(b"%PDF") else None
    return {"format": fmt, "signature": report}


async def check(request: Request) -> Response:
    number = request.path_params["number"]
    if not _limit(request).allow(client_of(request)):
        response = _page("limited.html.j2", status=429, minutes=int(WINDOW // 60))
        response.headers["retry-after"] = str(int(WINDOW))
        return response
    upload: bytes | None = None
    if request.method == "POST":
        form = await request.form(max_files=1, max_fields=4)
        code = str(form.get("code") or "")
        sent = form.get("file")
        if sent is not None and hasattr(sent, "read"):
            upload = await sent.read(MAX_UPLOAD + 1)
    else:
        code = request.query_params.get("code", "")
    from docgen.register.checks import public_record

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
    """An access code in a logged address (the QR code's ``?code=...``) becomes ``****``:
    the server's log never holds a code that opens a document's record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _CODE.sub(r"\1****", a) if isinstance(a, str) else a for a in record.args
            )
        return True


_CODE = re.compile(r"([?&]code=)[^&\s]*", re.IGNORECASE)


def redact_access_log() -> None:
    """Keep access codes out of uvicorn's access log (once per process)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactCodes) for f in access.filters):
        access.addFilter(RedactCodes())


routes = [Route("/v/{number:path}", check, methods=["GET", "POST"])]
