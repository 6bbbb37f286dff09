"""systemd's watchdog for `docgen serve` (docs/deploy/docgen.service, ``Type=notify`` with
``WatchdogSec=``): a thread of the serving process asks the desk's own health check
(``GET /healthz``: the rendering processes answer) and tells systemd READY=1 once it first
answers, then WATCHDOG=1 each time it answers again. A desk that stops answering, or
cannot render, stops the pings, and systemd restarts it (``Restart=on-failure``): the
process being up is not enough.

The notification is one datagram to the socket systemd names in ``NOTIFY_SOCKET`` (the
sd_notify protocol); without that variable (not under systemd) nothing runs.
"""

from __future__ import annotations

import http.client
import logging
import os
import socket
import threading
import time

log = logging.getLogger("docgen.desk")

PATH = "/healthz"


def start(host: str, port: int, host_name: str) -> None:
    """Watch the desk listening on ``host``:``port`` (asked for as ``host_name``, a name
    it answers to), when systemd asked for notifications."""
    if not os.environ.get("NOTIFY_SOCKET"):
        return
    usec = int(os.environ.get("WATCHDOG_USEC") or 0)
    every = usec / 2_000_000 if usec else 30.0  # twice within the watchdog's time
    thread = threading.Thread(
        target=_watch, args=(_reach(host), port, host_name, every), name="watchdog", daemon=True
    )
    thread.start()


def _reach(host: str) -> str:
    """The address to ask: the listening one, or loopback when it listens on all."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)


def healthy(address: str, port: int, host_name: str, timeout: float) -> bool:
    """The desk's health check answered 200 within ``timeout`` seconds."""
    connection = http.client.HTTPConnection(address, port, timeout=timeout)
    try:
        connection.request("GET", PATH, headers={"Host": host_name})
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def notify(message: str) -> None:
    """One sd_notify datagram (READY=1, WATCHDOG=1, STATUS=...)."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.sendto(message.encode(), address)


def _watch(address: str, port: int, host_name: str, every: float) -> None:
    ready = False
    while True:
        started = time.monotonic()
        if healthy(address, port, host_name, timeout=every):
            notify("WATCHDOG=1" if ready else "READY=1\nSTATUS=answering")
            ready = True
        elif ready:
            log.warning("the desk's health check failed; systemd restarts it if it goes on")
        time.sleep(max(0.0, every - (time.monotonic() - started)))
