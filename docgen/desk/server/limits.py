"""What one client may hold of the desk: requests in flight per address, and the size and
the total time of a request's body, by the page it is sent to.

A client that opens many requests and sends their bodies a byte at a time holds a
connection each for as long as the desk waits (with per-byte timeouts, for ever). Here:

- one address may have at most ``DOCGEN_SERVE_PER_ADDRESS`` requests in flight (``docgen
  serve --per-address``); more are refused at once with 429 and Retry-After, before their
  bodies are read. The address is the connection's, or behind the proxy the one it names
  in X-Forwarded-For (uvicorn believes that header only from ``--proxy-address``);
- a body must be all in within its page's time from the request's head, and be no larger
  than its page takes: the sign-in and sign-out forms are small and quick (16 KB, 10 s),
  the public check's upload bounded (docgen.desk.public.public_check.MAX_UPLOAD, 30 s), a
  firm's certification with its signed scan (open to anyone with a link: its own budget,
  docgen.register.sites.certifying.MAX_SCAN and the form's fields, 60 s), any other page
  (signed in: the pages refuse a stranger before reading a body, web.guarded) 20 MB in
  2 minutes. Past its time a request is answered 408, past its size 413, and the
  connection is closed (docgen.desk.server.connections).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PER_ADDRESS_ENV = "DOCGEN_SERVE_PER_ADDRESS"
PER_ADDRESS = 16  # requests in flight from one address: a browser opens at most 6
MAX_BODY = 20 * 1024 * 1024  # the largest request accepted (a PDF to verify, a final)
PUBLIC_UPLOAD = 4 * 1024 * 1024  # the public check's compare upload (an issued PDF)
SCAN_UPLOAD = 10 * 1024 * 1024  # a firm's signed scan: docgen.register.sites.certifying.MAX_SCAN
RETRY_AFTER = 5  # seconds


@dataclass(frozen=True)
class Budget:
    size: int  # bytes
    seconds: float  # for the whole body, counted from the request's head
    what: str  # as the refusal names it


SMALL = Budget(16 * 1024, 10.0, "a sign-in form")
PUBLIC = Budget(PUBLIC_UPLOAD + 16 * 1024, 30.0, "a file to compare")
CERTIFY = Budget(SCAN_UPLOAD + 64 * 1024, 60.0, "a certification with its signed scan")
SIGNED_IN = Budget(MAX_BODY, 120.0, "a request")


def budget(path: str) -> Budget:
    if path in ("/login", "/logout"):
        return SMALL
    if path.startswith("/v/"):
        return PUBLIC
    if path.startswith("/certify/"):
        return CERTIFY
    return SIGNED_IN


class Limits:
    """ASGI middleware: the per-address bound, then the body's budget."""

    def __init__(self, app: ASGIApp, per_address: int | None = None):
        self.app = app
        self.per_address = per_address or int(os.environ.get(PER_ADDRESS_ENV) or PER_ADDRESS)
        self.in_flight: dict[str, int] = {}  # one event loop per process: no lock needed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = scope["client"][0] if scope.get("client") else "unknown"
        if self.in_flight.get(address, 0) >= self.per_address:
            await refuse(send, 429, TOO_MANY, retry_after=True)
            return
        allowed = budget(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > allowed.size):
            await drain(receive, allowed.seconds)
            await refuse(send, 413, too_large(allowed))
            return
        self.in_flight[address] = self.in_flight.get(address, 0) + 1
        try:
            await self.app(scope, bounded(receive, allowed), send)
        finally:
            self.in_flight[address] -= 1
            if not self.in_flight[address]:
                del self.in_flight[address]


def bounded(receive: Receive, allowed: Budget) -> Receive:
    """``receive`` raising HTTPException 413 past the body's size and 408 past its time."""
    loop = asyncio.get_running_loop()
    due = loop.time() + allowed.seconds
    seen = 0
    complete = False

    async def counted() -> Message:
        nonlocal seen, complete
        if complete:  # the body is in: waiting for a disconnect has no deadline
            return await receive()
        try:
            message = await asyncio.wait_for(receive(), max(0.0, due - loop.time()))
        except TimeoutError:
            raise HTTPException(408, too_slow(allowed)) from None
        seen += len(message.get("body", b""))
        if seen > allowed.size:
            raise HTTPException(413, too_large(allowed))
        complete = message["type"] != "http.request" or not message.get("more_body", False)
        return message

    return counted


TOO_MANY = (
    "Too many requests at once from your address. Wait a few seconds and try again; "
    "nothing was done."
)


def too_large(allowed: Budget) -> str:
    size = allowed.size
    limit = f"{size // (1024 * 1024)} MB" if size >= 1024 * 1024 else f"{size // 1024} KB"
    return f"Request too large: {allowed.what} may be at most {limit}. Nothing was done."


def too_slow(allowed: Budget) -> str:
    return (
        f"The request took too long to arrive: {allowed.what} must be sent within "
        f"{allowed.seconds:g} seconds. Nothing was done; send it again."
    )


# What a refused body may still send before the refusal goes out: a client still sending
# when the connection closes gets a reset, and its system may drop the answer unread (a
# browser then shows "connection reset", not the 413's words).
DRAIN_MOST = 32 * 1024 * 1024


async def drain(receive: Receive, seconds: float) -> None:
    """Read and drop a refused request's body: up to DRAIN_MOST bytes within ``seconds``
    (never longer than the body's own budget), so its client reads the refusal."""
    loop = asyncio.get_running_loop()
    due, seen = loop.time() + min(seconds, 10.0), 0
    while seen <= DRAIN_MOST:
        try:
            message = await asyncio.wait_for(receive(), max(0.0, due - loop.time()))
        except TimeoutError:
            return
        seen += len(message.get("body", b""))
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


async def refuse(send: Send, status: int, message: str, retry_after: bool = False) -> None:
    """A plain-text refusal sent before the app saw the request (with its length: a
    complete answer even when the connection closes after it)."""
    body = message.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if retry_after:
        headers.append((b"retry-after", str(RETRY_AFTER).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RateLimit:
    """At most ``limit`` requests per ``window`` seconds from one address, in this server
    process (the certification form's guessing limit; the public check's is kept in the
    database, across processes)."""

    def __init__(self, limit: int, window: float):
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
