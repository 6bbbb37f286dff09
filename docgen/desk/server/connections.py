"""uvicorn's HTTP/1.1 connection with a time limit on the request's head, a bound on
connections per address, and no waiting for the rest of a body already answered.

uvicorn closes a connection left idle between requests (``timeout_keep_alive``) but
waits for ever on one that opened and sends nothing, or sends a request line and then a
header a byte at a time: a few hundred of those ("slowloris") hold every connection
``limit_concurrency`` allows. Here a connection whose request line and headers are not
all in within ``DOCGEN_SERVE_HEADER_TIMEOUT`` seconds (``docgen serve --header-timeout``)
of its first byte, or of its opening, is closed, as Caddy's ``read_header`` timeout does
in the documented deployment (docs/deploy/Caddyfile). A request whose head is in is
bounded by its body's budget (docgen.desk.server.limits), never cut short here.

One address may hold at most ``DOCGEN_SERVE_PER_ADDRESS`` x 2 connections (a browser keeps
a few idle ones open between pages); more are answered 429 and closed as they open. The
proxy's own address (``DOCGEN_SERVE_PROXY``, `docgen serve --behind-proxy`) is not
counted here: it speaks for every visitor, and limits.Limits counts each of them by the
address it names. A response sent before its request's body was all in (a refusal, a
redirect to sign in) ends the connection: uvicorn would otherwise read the rest for as
long as the client dribbles it. It ends with a lingering close: the answer and the end of
the stream, then what still comes is dropped for LINGER seconds, so the client reads the
answer instead of a reset. A head that could be read two ways (folded header
lines, both Content-Length and Transfer-Encoding) is answered 400 and closed.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from docgen.desk.server import limits

ENV = "DOCGEN_SERVE_HEADER_TIMEOUT"
DEFAULT = 10.0  # seconds: a browser sends its whole head in one packet
PROXY_ENV = "DOCGEN_SERVE_PROXY"
TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"retry-after: %d\r\nconnection: close\r\n\r\n%s"
    % (limits.RETRY_AFTER, limits.TOO_MANY.encode())
)

LINGER = 2.0  # seconds a connection answered mid-body reads and drops what still comes

_open: dict[str, int] = {}  # connections per address (one event loop per process)


class _Lingering:
    """A connection's transport whose ``close`` lingers while the client is still sending
    the body its answer did not wait for: the answer goes out, then the end of the stream,
    and what the client still sends is read and dropped for up to LINGER seconds before
    the connection closes. Closed with bytes unread, the system would reset the connection,
    and the client's system may drop the answer it had not read yet (a 408's words lost
    to "connection reset")."""

    def __init__(self, transport: asyncio.Transport, protocol: HeadTimeout) -> None:
        self._transport = transport
        self._protocol = protocol

    def close(self) -> None:
        if self._protocol.conn.their_state is h11.SEND_BODY:
            self._protocol.linger()
        else:
            self._transport.close()

    def is_closing(self) -> bool:
        return self._protocol.lingering or self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class HeadTimeout(H11Protocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout = float(os.environ.get(ENV) or DEFAULT)
        self.head_timer: asyncio.TimerHandle | None = None
        self.address: str | None = None
        self.raw: asyncio.Transport | None = None  # the transport itself, under _Lingering
        self.lingering = False

    # uvicorn's own H11Protocol narrows asyncio's BaseTransport to a Transport; so does this
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.raw = transport
        # A proxy, not a subclass (whose methods would hide the transport's): typed apart
        super().connection_made(_Lingering(transport, self))  # type: ignore[arg-type]
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else None
        if address is not None and address != os.environ.get(PROXY_ENV):
            if _open.get(address, 0) >= 2 * _per_address():
                transport.write(TOO_MANY)
                transport.close()
                return
            self.address = address
            _open[address] = _open.get(address, 0) + 1
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.lingering:
            return  # the rest of a body already answered: dropped
        if self.conn.their_state is h11.IDLE:
            if not self.conn.trailing_data[0]:
                self._arm()  # a new head begins (on a kept connection too): its own time
            why = ambiguous(bytes(self.conn.trailing_data[0]) + data)
            if why is not None:
                self.transport.write(_bad_request(why))
                self.transport.close()
                return
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        if self.address is not None:
            _open[self.address] -= 1
            if not _open[self.address]:
                del _open[self.address]
            self.address = None
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            self.transport.close()  # answered before its body was in: not waited for

    def linger(self) -> None:
        """The answer, then the end of the stream; the rest read and dropped for a moment
        (or until the client ends its side), then the connection closed."""
        if self.lingering or self.raw is None or self.raw.is_closing():
            return
        self.lingering = True
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        self.raw.resume_reading()
        if self.raw.can_write_eof():
            self.raw.write_eof()
        self.loop.call_later(LINGER, self.raw.close)

    def _arm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        self.head_timer = self.loop.call_later(self.head_timeout, self._head_due)

    def _head_due(self) -> None:
        self.head_timer = None
        waiting = self.conn.their_state is h11.IDLE
        partial = bool(self.conn.trailing_data[0])
        never_asked = self.cycle is None
        if waiting and (partial or never_asked) and not self.transport.is_closing():
            self.transport.close()  # the head did not come in time: nothing to answer


def ambiguous(head: bytes) -> str | None:
    """Why a request head (or its beginning) may be read two ways, which h11 lets through
    and a proxy in front may read the other way (request smuggling): a header line folded
    onto the next (obsolete line folding, RFC 9112 5.2), or both Content-Length and
    Transfer-Encoding (RFC 9112 6.1). None when neither."""
    end = head.find(b"\r\n\r\n")
    lines = re.split(rb"\r?\n", head if end < 0 else head[:end])[1:]
    if any(line[:1] in (b" ", b"\t") for line in lines):
        return "a header line is folded onto the next line (obsolete line folding)"
    names = {line.split(b":", 1)[0].strip().lower() for line in lines}
    if end >= 0 and {b"content-length", b"transfer-encoding"} <= names:
        return "it has both Content-Length and Transfer-Encoding"
    return None


def _bad_request(why: str) -> bytes:
    words = f"Bad request: {why}. Nothing was done.".encode()
    return (
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(words), words)
    )


def _per_address() -> int:
    return int(os.environ.get(limits.PER_ADDRESS_ENV) or limits.PER_ADDRESS)
