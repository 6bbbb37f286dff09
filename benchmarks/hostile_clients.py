"""Hostile clients benchmark (not a test): a normal client's sign-in page times (p50/p95,
goal p95 under 250 ms) and the desk's peak memory (server and rendering processes,
resident) under each attack, on loopback only.

    .venv/bin/python -m benchmarks.hostile_clients [--sockets 520] [--seconds 20]

Attacks, each against a fresh `docgen serve` over a fresh SQLite register:

- none: the page alone, for the baseline;
- slow bodies, bare: ``--sockets`` connections from 127.0.0.2 each sending POST /login's
  body a byte a second (reopened when answered), the server on its own; the normal client
  opens a new connection for each page, as a new visitor does;
- slow bodies, through Caddy: the same through the documented Caddyfile (skipped without
  caddy on PATH);
- a killed renderer: both rendering processes SIGKILLed, then the next preview's status;
- compare uploads: four addresses each uploading, again and again, a 4 MB PDF of 42,000
  objects to the public check of an issued notice.

To compare with an older checkout, put its source first on the path:
``PYTHONPATH=/path/to/old python -m benchmarks.hostile_clients`` (the clients here are
the same; the desk is the old one). Figures taken while other work runs on the machine
are noisy: the load is printed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from desk_server import start_desk, start_draft, stop_desk, typed_sample  # noqa: E402

from tests.helpers.caddy import start_caddy  # noqa: E402
from tests.helpers.flood import SlowBodies, Timings, pages  # noqa: E402
from tests.helpers.procs import peak_memory_kb, renderer_pids  # noqa: E402


def report(name: str, timings: Timings, peak_kb: int, extra: str = "") -> None:
    print(f"{name:<28} {timings.summary()}; desk peak {peak_kb / 1024:.0f} MB {extra}")


def under_flood(port: int, client: httpx.Client, seconds: float, sockets: int, **tls) -> tuple:
    with SlowBodies(port, sockets=sockets, interval=1.0, **tls) as flood:
        time.sleep(3)
        timings = pages(client, "/login", seconds=seconds, pause=0.2)
    return timings, dict(flood.seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=520)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    import docgen

    print(f"desk from {Path(docgen.__file__).parent}; load {os.getloadavg()[0]:.2f}")
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    try:
        for name in ("bare", "public"):
            (folder / name).mkdir()  # start_desk copies its register into an existing home
        desk = start_desk(folder / "bare")
        try:
            client = desk.client()
            report("none", pages(client, "/login", args.seconds, 0.2), peak(desk))
            port = int(desk.url.rsplit(":", 1)[1])
            fresh = httpx.Client(  # a new visitor each time: a new connection per page
                base_url=desk.url, timeout=30, limits=httpx.Limits(max_keepalive_connections=0)
            )
            desk.clients.append(fresh)
            timings, seen = under_flood(port, fresh, args.seconds, args.sockets)
            report("slow bodies, bare", timings, peak(desk), f"flood answered {seen}")
            report("killed renderer", *killed_renderer(desk))
        finally:
            stop_desk(desk)
        desk = start_desk(folder / "public", options=())  # a fresh register: an issued notice
        try:
            timings, seen = under_uploads(desk, args.seconds)
            report("compare uploads", timings, peak(desk), f"uploads answered {seen}")
        finally:
            stop_desk(desk)
        caddy = shutil.which("caddy")
        if caddy:
            (folder / "proxied").mkdir()
            options = ("--behind-proxy", "--host-name", "localhost")
            desk = start_desk(folder / "proxied", options=options)
            proxy = start_caddy(caddy, folder / "proxied", int(desk.url.rsplit(":", 1)[1]))
            try:
                with httpx.Client(base_url=proxy.site, verify=proxy.trusted, timeout=30) as web:
                    timings, seen = under_flood(
                        proxy.https_port,
                        web,
                        args.seconds,
                        args.sockets,
                        host_name="localhost",
                        tls=proxy.trusted,
                    )
                report("slow bodies, via Caddy", timings, peak(desk), f"flood answered {seen}")
            finally:
                proxy.stop()
                stop_desk(desk)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def heavy_pdf(objects: int = 42_000) -> bytes:
    """A PDF of ``objects`` small objects (about 4 MB), all listed in its xref table."""
    parts = [b"%PDF-1.7\n"]
    offsets = []
    bodies = [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[]/Count 0>>"]
    padding = b"(padding padding padding padding padding padding)"
    bodies += [b"[%d %s]" % (n, padding) for n in range(objects)]
    for number, body in enumerate(bodies, 1):
        offsets.append(sum(map(len, parts)))
        parts.append(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    start = sum(map(len, parts))
    table = b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    table += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer = b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n"
    return b"".join(parts) + table + trailer % (len(bodies) + 1, start)


def under_uploads(desk, seconds: float) -> tuple[Timings, dict]:
    """Four addresses uploading a heavy PDF to an issued notice's check, for ``seconds``."""
    import threading
    from collections import Counter

    from docgen.register import Register
    from tests.helpers.register_cases import notice

    with Register.open(desk.database) as register:
        done = register.issue("notice-of-violation", notice(), formats=("pdf",))
    blob = heavy_pdf()
    seen: Counter = Counter()
    stopping = threading.Event()

    def upload(address: str) -> None:
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(base_url=desk.url, transport=transport, timeout=120) as client:
            while not stopping.is_set():
                files = {"file": ("copy.pdf", blob)}
                answer = client.post(
                    f"/v/{done.number}", data={"code": done.access_code}, files=files
                )
                seen[answer.status_code] += 1

    addresses = [f"127.0.0.{n}" for n in (11, 12, 13, 14)]
    uploaders = [threading.Thread(target=upload, args=(a,), daemon=True) for a in addresses]
    for uploader in uploaders:
        uploader.start()
    time.sleep(2)
    timings = pages(desk.client(), "/login", seconds=seconds, pause=0.2)
    stopping.set()
    for uploader in uploaders:
        uploader.join(timeout=120)
    return timings, dict(seen)


def peak(desk) -> int:
    return peak_memory_kb(desk.process.pid)


def killed_renderer(desk) -> tuple[Timings, int, str]:
    """Both rendering processes killed; then previews for a while: their statuses."""
    clerk = desk.signed_in("ann")
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    where, token = start_draft(clerk, "notice-of-violation")
    clerk.post(where, data={**typed, "csrf_token": token})
    clerk.get(f"{where}/preview")
    for renderer in renderer_pids(desk.process.pid):
        os.kill(renderer, signal.SIGKILL)
    time.sleep(0.5)
    timings = pages(clerk, f"{where}/preview", seconds=10, pause=0.5)
    return timings, peak(desk), "(previews after the kill)"


if __name__ == "__main__":
    main()
