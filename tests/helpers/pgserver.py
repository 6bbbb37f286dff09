"""A throwaway PostgreSQL server for tests and benchmarks: initdb and pg_ctl (as the
``postgres`` user when run as root: both refuse root) on a temporary folder and a free
loopback port; stopped and deleted on exit, and by a watcher of its own when the process
that started it ends without stopping it (killed, or a run stopped by a time-out); and, where
the watcher was killed with it, by the next server started (``sweep``)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PG_BIN = Path(os.environ.get("DOCGEN_PG_BIN", "/usr/lib/postgresql/15/bin"))


_MEMORY = Path("/dev/shm")
_ROOM = 2 * 1024**3  # a test module's server holds about 300 MB at most

_DATA: dict[str, Path] = {}  # server URL -> its data folder, for restart()
_OPTIONS: dict[str, str] = {}  # server URL -> its start options, for start()


# pg_ctl starts the server in a session of its own, so it outlives the process that started
# it: a test run killed halfway (a time-out's SIGKILL to the run's process group) left its
# servers running. Each server has this watcher, in a session of its own too, which waits
# on the starting process's pidfd (woken by its end, however it ends: no polling), then
# stops the server and deletes its files. A server stopped as usual ends its watcher first.
_WATCHER = """
import os, select, shutil, subprocess, sys
pid, base, *stop = sys.argv[1:]
try:
    select.select([os.pidfd_open(int(pid))], [], [])
except ProcessLookupError:
    pass
subprocess.run(stop, check=False, capture_output=True)
shutil.rmtree(base, ignore_errors=True)
"""


def _watcher(base: Path, stop: list[str]) -> subprocess.Popen:
    watcher = subprocess.Popen(
        [sys.executable, "-c", _WATCHER, str(os.getpid()), str(base), *stop],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    (base / WATCHED_BY).write_text(str(watcher.pid), encoding="ascii")
    return watcher


# What a watcher cannot answer for: everything killed at once (its own process with the
# run's, as when a machine's session is torn down), the server's files are left in memory
# (/dev/shm), a gigabyte and more each. A new server first deletes every server folder whose
# watcher is gone, stopping its server if one still runs. A folder without a watcher's
# file is someone's still being made, unless it is older than STALE_SECONDS.
WATCHED_BY = "watcher"
STALE_SECONDS = 3600


def _watched(base: Path) -> bool:
    """A live watcher answers for ``base`` (its command line names the folder: a pid used
    again by another process does not count)."""
    try:
        pid = int((base / WATCHED_BY).read_text(encoding="ascii"))
        return str(base).encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return False


def sweep(folder: Path) -> None:
    """Delete the server folders in ``folder`` left by a run whose watcher is gone, each
    one's server stopped first (what the watcher would have done)."""
    for base in folder.glob("docgen-pg-*"):
        try:
            if _watched(base):
                continue
            being_made = time.time() - base.stat().st_mtime < STALE_SECONDS
            if being_made and not (base / WATCHED_BY).exists():
                continue
        except OSError:
            continue  # deleted meanwhile by its own run
        data = base / "data"
        if (data / "postmaster.pid").exists():
            stop = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
            subprocess.run(_as_postgres(stop), check=False, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def available() -> bool:
    return (PG_BIN / "initdb").exists()


def require() -> None:
    """Skip the calling test on a workstation without the server binaries; fail it in CI
    (the environment variable CI is set), where both backends must run."""
    from tests.helpers.tools import unavailable

    if not available():
        unavailable(f"PostgreSQL server binaries not found in {PG_BIN} (setup.sh --test)")


def _in_memory() -> Path | None:
    """Where a server's files go: memory (/dev/shm) where the system offers it with room,
    else the temp folder (None). A test server's thousands of files, a database for each
    test, were written to disk and deleted again: half a minute of the processor per run
    in deleting alone."""
    try:
        roomy = shutil.disk_usage(_MEMORY).free >= _ROOM
    except OSError:
        return None
    return _MEMORY if roomy and os.access(_MEMORY, os.W_OK) else None


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def postgres() -> Iterator[str]:
    """The URL of a new server (superuser ``postgres``, trust on loopback), e.g.
    ``postgresql://postgres@127.0.0.1:54321``; append ``/dbname``."""
    memory = _in_memory()
    sweep(memory or Path(tempfile.gettempdir()))
    base = Path(tempfile.mkdtemp(prefix="docgen-pg-", dir=memory))
    data, port = base / "data", _free_port()
    stop = _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"])
    watcher = _watcher(base, stop)  # before initdb: from here on, someone answers for base
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(base, user.pw_uid, user.pw_gid)
    initdb = [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
    subprocess.run(
        _as_postgres([*initdb, "-E", "UTF8", "--no-sync"]), check=True, capture_output=True
    )
    # Shared memory segments as files of the data folder: a server stopped with
    # ``immediate`` leaves its POSIX ones in /dev/shm for good, and deleting the folder
    # deletes these.
    options = (
        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
        " -c dynamic_shared_memory_type=mmap"
    )
    start = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w"]
    subprocess.run(_as_postgres([*start, "-o", options, "start"]), check=True, capture_output=True)
    url = f"postgresql://postgres@127.0.0.1:{port}"
    _DATA[url], _OPTIONS[url] = data, options
    try:
        yield url
    finally:
        _DATA.pop(url, None)
        _OPTIONS.pop(url, None)
        watcher.kill()
        watcher.wait()
        subprocess.run(stop, check=False, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def restart(server: str) -> None:
    """Stop the server at once (its clients' connections are cut) and start it again,
    with the options it was started with."""
    data = _DATA[server]
    restart = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(data.parent / "log"), "-w"]
    subprocess.run(
        _as_postgres([*restart, "-m", "immediate", "restart"]), check=True, capture_output=True
    )


def create_database(server: str, name: str, template: str | None = None) -> str:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    return f"{server}/{name}"


def stop(server: str, mode: str = "fast") -> None:
    """Stop the server (``fast``: its clients' transactions are rolled back and their
    connections closed, as an administrator's ``pg_ctl stop`` does)."""
    data = _DATA[server]
    stop = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", mode, "-w", "stop"]
    subprocess.run(_as_postgres(stop), check=True, capture_output=True)


def start(server: str) -> None:
    """Start a stopped server again, as it was started."""
    data = _DATA[server]
    start = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(data.parent / "log"), "-w"]
    subprocess.run(
        _as_postgres([*start, "-o", _OPTIONS[server], "start"]), check=True, capture_output=True
    )


def socket_folder(server: str) -> Path:
    """The folder holding the server's Unix socket (``-k``), for clients that connect as a
    local service does (``postgresql://docgen@/docgen?host=FOLDER``, PGPORT its port)."""
    return _DATA[server].parent


def port_of(server: str) -> int:
    return int(server.rsplit(":", 1)[1].split("/", 1)[0])
