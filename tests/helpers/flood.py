"""Hostile and normal clients on loopback, for the desk's limits (tests and benchmarks).

``SlowBodies`` opens ``sockets`` connections from one address (127.0.0.2: another client
than the normal one on 127.0.0.1) and on each sends a request's head, then its body one
byte every ``interval`` seconds, opening a new connection whenever one is answered or
closed, until stopped: the attack that held every connection of the desk. ``pages``
times a normal client's page, again and again, meanwhile.
"""

from __future__ import annotations

import re
import socket
import ssl
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ATTACKER = "127.0.0.2"  # any 127/8 address reaches a loopback server on Linux


@dataclass
class SlowBodies:
    port: int
    host_name: str = "127.0.0.1"
    path: str = "/login"
    sockets: int = 100
    interval: float = 1.0
    tls: ssl.SSLContext | None = None
    seen: Counter = field(default_factory=Counter)  # status (or "closed") -> count
    stopping: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)
    heads: int = 0  # requests' heads sent so far (a connection's first bytes)
    in_place: threading.Event = field(default_factory=threading.Event)  # every socket's sent
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> SlowBodies:
        for _ in range(self.sockets):
            thread = threading.Thread(target=self._one, daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def _head(self) -> bytes:
        return (
            f"POST {self.path} HTTP/1.1\r\nHost: {self.host_name}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
        ).encode()

    def _one(self) -> None:
        while not self.stopping.is_set():
            try:
                sock = socket.create_connection(
                    ("127.0.0.1", self.port), timeout=10, source_address=(ATTACKER, 0)
                )
            except OSError:
                self.seen["refused"] += 1
                self.stopping.wait(self.interval)
                continue
            if self.tls is not None:
                try:
                    sock = self.tls.wrap_socket(sock, server_hostname=self.host_name)
                except OSError:
                    self.seen["closed"] += 1
                    sock.close()
                    continue
            self.seen[self._dribble(sock)] += 1
            sock.close()
            self.stopping.wait(self.interval)  # bounded: at most one attempt a second each

    def _dribble(self, sock: socket.socket) -> str:
        try:
            sock.sendall(self._head())
            with self._lock:
                self.heads += 1
                if self.heads >= self.sockets:
                    self.in_place.set()
            sock.settimeout(self.interval)
            while not self.stopping.is_set():
                try:
                    answer = sock.recv(4096)
                except TimeoutError:
                    sock.sendall(b"a")
                    continue
                return status_of(answer)
        except (OSError, ssl.SSLError):
            return "closed"
        return "stopped"


def status_of(answer: bytes) -> str:
    found = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return found.group(1).decode() if found else "closed"


@dataclass
class Timings:
    seconds: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0

    def summary(self) -> str:
        return (
            f"{len(self.seconds)} pages, p50 {1000 * statistics.median(self.seconds):.0f} ms, "
            f"p95 {1000 * self.percentile(95):.0f} ms, statuses {dict(self.statuses)}"
        )


def pages(
    client: httpx.Client,
    path: str,
    seconds: float,
    pause: float = 0.1,
    done: Callable[[], bool] = lambda: False,
) -> Timings:
    """GET ``path`` for ``seconds`` (or until ``done()`` says the watched event came), a
    request every ``pause`` s: each time and status."""
    timings = Timings()
    until = time.monotonic() + seconds
    while time.monotonic() < until and not done():
        started = time.perf_counter()
        try:
            status = client.get(path).status_code
        except httpx.HTTPError as err:
            status = type(err).__name__
        timings.seconds.append(time.perf_counter() - started)
        timings.statuses[status] += 1
        time.sleep(pause)
    return timings


def connections_to(port: int) -> int:
    """Established TCP connections to loopback ``port`` now (from /proc/net/tcp)."""
    wanted = f":{port:04X}"
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(wanted) and fields[3] == "01":  # local address, ESTABLISHED
            count += 1
    return count


class Watch:
    """Connections to ``port``, sampled every 0.2 s while in the block: ``held``, the
    median (what stays held; the most seen also counts ones opening and being refused)."""

    def __init__(self, port: int):
        self.port, self.samples = port, [0]
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Watch:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        self.thread.join()

    def _sample(self) -> None:
        while not self.stopping.wait(0.2):
            self.samples.append(connections_to(self.port))

    @property
    def held(self) -> int:
        return int(statistics.median(self.samples))
