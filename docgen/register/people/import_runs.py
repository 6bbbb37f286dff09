"""History imports as runs: one at a time in a register, and none counted half-done.

An import holds the register's *import lock* from before it reads the register until its
last row is committed: on PostgreSQL a session advisory lock (``IMPORT_LOCK``, beside
the write lock every write transaction takes); on SQLite an exclusive ``flock`` on the
file ``<register>-import.lock`` beside the database (the write lock's companion: SQLite's
own lock is held only for one transaction). A second import, of the same file or
another, is refused while one runs, naming it; a process killed outright lets the lock
go with it (the kernel closes its file and its connection).

A run that did not finish (killed, or stopped by a database failure) keeps its rows, but
they count for nothing: a prior is read only from a finished import (:func:`counted`).
It is listed by ``docgen register imports`` and reported by ``docgen register check``
until it is finished (the same file imported again takes up where it stopped) or
withdrawn (``import-history --undo ID``); no other import starts meanwhile.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, or_, select, text
from sqlalchemy.orm import Session

from docgen.register.storage import db
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import ImportBatch, Offense

IMPORT_LOCK = 4242013  # PostgreSQL advisory lock held by a running import (db.WRITE_LOCK + 1
# is the migration's)


@dataclass(frozen=True)
class Run:
    """One import as ``docgen register imports`` lists it."""

    id: int
    source: str
    by: str
    started: datetime
    rows: int
    duplicates: int
    state: str  # finished | withdrawn | running | stopped

    def line(self) -> str:
        said = {
            "finished": "finished",
            "withdrawn": "withdrawn",
            "running": "running now",
            "stopped": "STOPPED unfinished: its rows count for nothing until it is finished "
            f"(import {self.source} again) or withdrawn (--undo {self.id})",
        }[self.state]
        return (
            f"import {self.id}: {self.source}, {self.started:%Y-%m-%d %H:%M} UTC by {self.by}, "
            f"{self.rows} row(s), {self.duplicates} duplicate(s); {said}"
        )


def counted() -> ColumnElement[bool]:
    """Where an offense counts: issued here, or imported by a finished import (join
    ``ImportBatch`` on ``Offense.import_batch_id`` with an outer join)."""
    return or_(Offense.import_batch_id.is_(None), ImportBatch.finished_at.is_not(None))


def _open_runs() -> tuple[ColumnElement[bool], ...]:
    return (ImportBatch.finished_at.is_(None), ImportBatch.undone_at.is_(None))


class ImportRunning(RegisterError):
    """Another import holds the register's import lock."""


@contextmanager
def import_lock(reg: Any) -> Iterator[None]:
    """Hold the register's import lock (see the module docstring), or raise ImportRunning."""
    path = db.sqlite_path(reg.url)
    if reg.engine.dialect.name == "postgresql":
        with guarded(reg.url), reg.engine.connect() as conn:
            taken = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": IMPORT_LOCK})
            if not taken.scalar():
                raise _running(reg)
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": IMPORT_LOCK})
                conn.commit()
    elif path is not None:
        fd = os.open(path.with_name(path.name + "-import.lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise _running(reg) from None
            yield
        finally:
            os.close(fd)  # the lock goes with the descriptor
    else:
        yield  # an in-memory register: one process, one import


def _running(reg: Any) -> ImportRunning:
    with guarded(reg.url), db.read_session(reg.engine) as session:
        batch = session.scalar(
            select(ImportBatch).where(*_open_runs()).order_by(ImportBatch.id.desc())
        )
    which = (
        f"import {batch.id} of {batch.source}, started {batch.started_at:%Y-%m-%d %H:%M} UTC by "
        f"{batch.by}"
        if batch is not None
        else "one is reading the register before it writes"
    )
    return ImportRunning(
        f"another history import is running in this register ({which}); nothing was "
        "imported: import this file once it has finished (rows it brought in are then left "
        "out as duplicates)"
    )


def running(reg: Any) -> bool:
    """Whether an import holds the lock now."""
    try:
        with import_lock(reg):
            return False
    except ImportRunning:
        return True


def runs(reg: Any) -> list[Run]:
    """Every import, oldest first, with its state."""
    busy = running(reg)
    with guarded(reg.url), db.read_session(reg.engine) as session:
        batches = session.scalars(select(ImportBatch).order_by(ImportBatch.id)).all()
    out = []
    for b in batches:
        if b.undone_at is not None:
            state = "withdrawn"
        elif b.finished_at is not None:
            state = "finished"
        else:
            state = "running" if busy else "stopped"
        out.append(Run(b.id, b.source, b.by, b.started_at, b.rows, b.duplicates, state))
    return out


def stopped(reg: Any) -> list[Run]:
    """The imports that stopped unfinished (none while one is running)."""
    return [run for run in runs(reg) if run.state == "stopped"]


def history_incomplete(session: Session) -> list[str]:
    """What a document whose penalty reads the offense history says while an import has
    not finished (running, or stopped): its convictions count only once it has (a prior is
    read only from a finished import), so the priors read may be missing some. Said, not
    waited for: an import of many rows takes minutes, and an issue waits for one chunk."""
    batch = session.scalar(select(ImportBatch).where(*_open_runs()).order_by(ImportBatch.id))
    if batch is None:
        return []
    return [
        f"the prior offenses may be incomplete: history import {batch.id} of {batch.source} "
        f"(started {batch.started_at:%Y-%m-%d %H:%M} UTC by {batch.by}) has not finished, "
        "and the convictions it brings count only once it has; check the prior offenses "
        "when it has finished, and issue a corrected document if one is missing"
    ]


def unfinished(session: Session, sha256: str, source: str) -> int | None:
    """The unfinished import of this same file (its id: this import finishes it), or None;
    an unfinished import of another file is refused (it must be finished or withdrawn)."""
    batch = session.scalar(
        select(ImportBatch).where(
            ImportBatch.finished_at.is_(None), ImportBatch.undone_at.is_(None)
        )
    )
    if batch is None:
        return None
    if batch.sha256 == sha256:
        return batch.id
    raise RegisterError(
        f"{source}: nothing imported: import {batch.id} of {batch.source} stopped unfinished; "
        f"finish it (import {batch.source} again) or withdraw it "
        f"(`docgen register import-history --undo {batch.id}`) first"
    )
