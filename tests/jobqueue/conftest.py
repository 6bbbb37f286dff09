"""Queue tests run against a real PostgreSQL server these tests start
(tests/helpers/pgserver.py), with real `docgen worker` processes started the way a
machine would start them: each with its own DOCGEN_HOME and working directory, sharing
nothing but the database on loopback. Heartbeats every half second and no backoff keep
the faults quick to show.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import pgserver
from tests.helpers.reaping import die_with_this_process

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
NOTICES = sorted((FIXTURES / "notice-of-violation").glob("*.yaml"))
FAST = {"DOCGEN_QUEUE_HEARTBEAT": "0.5", "DOCGEN_QUEUE_BACKOFF": "0"}
_numbers = itertools.count(1)


def migrated(server: str, name: str) -> str:
    from docgen.register import Register

    url = pgserver.create_database(server, name)
    Register.open(url).close()
    return url


@pytest.fixture(scope="session")
def queue_server() -> Iterator[str]:
    """A server for the session with a migrated register (the queue included) to copy."""
    pgserver.require()
    with pgserver.postgres() as server:
        migrated(server, "queue_template")
        yield server


@pytest.fixture
def queue_url(queue_server, monkeypatch) -> str:
    """A fresh register with the queue; set for the batch run in this process."""
    name = f"queue_{os.getpid()}_{next(_numbers)}"
    url = pgserver.create_database(queue_server, name, template="queue_template")
    monkeypatch.setenv("DOCGEN_DATABASE_URL", url)
    for key, value in FAST.items():
        monkeypatch.setenv(key, value)
    return url


class Machine:
    """`docgen worker` in a process group of its own, as on another machine."""

    def __init__(self, url: str, root: Path, name: str, env: dict[str, str] | None = None):
        self.home, self.cwd = root / f"{name}-home", root / f"{name}-cwd"
        self.home.mkdir(parents=True)
        self.cwd.mkdir(parents=True)
        self.log = root / f"{name}.log"
        environment = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEN_")}
        # Its own home and cache of compiled templates (docgen.render.compiled), as another
        # machine's: never the user's.
        cache = str(root / f"{name}-cache")
        environment.update(
            DOCGEN_DATABASE_URL=url,
            DOCGEN_HOME=str(self.home),
            DOCGEN_CACHE=cache,
            **FAST,
            **(env or {}),
        )
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "docgen.cli", "worker", "-c", "1"],
                cwd=self.cwd,
                env=environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        # Out of reach of a kill of the run's process group: it goes when this process does.
        self.watcher = die_with_this_process(self.process.pid)

    def signal(self, signum: int) -> None:
        os.killpg(self.process.pid, signum)

    def stop(self, timeout: float = 60) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.signal(signal.SIGKILL)
                self.process.wait()
            self.watcher.wait(timeout)  # it saw the worker end, and leaves

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def machines(tmp_path) -> Iterator[Callable[..., Machine]]:
    started: list[Machine] = []

    def start(url: str, name: str, env: dict[str, str] | None = None) -> Machine:
        machine = Machine(url, tmp_path / "machines", name, env)
        started.append(machine)
        return machine

    yield start
    for machine in started:
        if machine.process.poll() is None:
            machine.signal(signal.SIGKILL)
            machine.process.wait()
        machine.watcher.wait(60)  # it saw the worker end, and leaves


def sql(url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url, options="-c search_path=docgen_queue", autocommit=True) as conn:
        cursor = conn.execute(query, params or None)
        return cursor.fetchall() if cursor.description else []


def stored_formats(url: str, number: str) -> set[str]:
    """The formats the register keeps for document ``number`` (final, redline, pdf, ...)."""
    query = (
        "SELECT f.format FROM public.document_files f JOIN public.documents d "
        "ON f.document_id = d.id WHERE d.number = %s"
    )
    return {fmt for (fmt,) in sql(url, query, number)}


def wait_for(check: Callable[[], Any], timeout: float = 90, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or check}")


def workers_ready(url: str, count: int) -> None:
    wait_for(
        lambda: sql(url, "SELECT count(*) FROM procrastinate_workers")[0][0] >= count,
        what=f"{count} worker(s) registered",
    )


def copy_cases(folder: Path, cases: list[Path] = NOTICES) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for case in cases:
        shutil.copy(case, folder / case.name)
    return folder


def batch_process(url: str, *args: object, cwd: Path, env: dict[str, str] | None = None):
    """`docgen batch ... --queue` as a process of its own (the client machine)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEN_")}
    environment.update(DOCGEN_DATABASE_URL=url, DOCGEN_HOME=str(cwd / "home"), **FAST)
    environment.update(env or {})
    return subprocess.Popen(
        [sys.executable, "-m", "docgen.cli", "batch", *map(str, args), "--queue"],
        cwd=cwd,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
