"""uvicorn's HTTP/1.1 connection with a time limit on the request's head.

uvicorn closes a connection left idle between requests (``timeout_keep_alive``) but
waits for ever on one that opened and sends nothing, or sends a request line and then a
header a byte at a time: a few hundred of those ("slowloris") hold every connection
``limit_concurrency`` allows. Here a connection whose request line and headers are not
all in within ``DOCGEN_SERVE_HEADER_TIMEOUT`` seconds (``docgen serve --header-timeout``)
of its first byte, or of its opening, is closed, as Caddy's ``read_header`` timeout does
in the documented deployment (docs/deploy/Caddyfile). A request whose head is in is never
cut short, however long its body or its answer takes.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

ENV = "DOCGEN_SERVE_HEADER_TIMEOUT"
DEFAULT = 10.0  # seconds: a browser sends its whole head in one packet


class HeadTimeout(H11Protocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout = float(os.environ.get(ENV) or DEFAULT)
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]:
            self._arm()  # a new head begins (on a kept connection too): its own time
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        super().connection_lost(exc)

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
