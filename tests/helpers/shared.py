"""What the test processes of one run make once and share: a file made by the first process
that asks for it, while the others wait on its lock (flock: let go if its holder dies), then
read by each."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from docgen.render.output import atomic_write


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this run's, shared by its test processes: pytest-xdist gives each worker
    a base folder inside the run's own; a process alone has the run to itself."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(path: Path, make: Callable[[], bytes]) -> bytes:
    """The bytes at ``path``, which ``make`` makes if no process of the run has yet."""
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return path.read_bytes()
        made = make()
        atomic_write(path, made)
        return made
