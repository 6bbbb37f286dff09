"""Keeping the register: consistent backups while in use (history from before the
register is imported by docgen.register.people.imports)."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select

from docgen.register.keeping.restores import given_twice, restore_lines
from docgen.register.rules.numbering import gaps
from docgen.register.storage import db
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import Document, DocumentFile
from docgen.register.storage.pgclient import libpq, postgres_client
from docgen.render.output import staging_file
from docgen.settings import is_loopback


@dataclass
class Checked:
    """What ``check`` found: files read, the altered ones, the database's own answer."""

    files: int = 0
    altered: list[str] = field(default_factory=list)
    database: list[str] = field(default_factory=list)  # problems; empty when sound
    # Issued documents whose verification line points to a loopback address: genuine, but
    # the public cannot check them there (a desk issuing before its settings gave one).
    loopback: list[tuple[str, str]] = field(default_factory=list)
    restores: list[str] = field(default_factory=list)  # gaps left by restores, and a waiting one
    gaps: list[tuple[str, bool]] = field(default_factory=list)  # (said, reason recorded)
    twice: list[str] = field(default_factory=list)  # numbers on two documents (restores)

    @property
    def sound(self) -> bool:
        """No file altered, the database sound, every gap in the numbers explained, no
        number given twice."""
        return (
            not self.altered
            and not self.database
            and all(ok for _, ok in self.gaps)
            and not self.twice
        )

    def lines(self) -> list[str]:
        said = [f"{self.files} stored file(s) checked against their SHA-256"]
        said += [f"altered: {a}" for a in self.altered]
        said += [f"database: {d}" for d in self.database] or ["database: integrity ok"]
        said += [f"gap: {g}" for g, _ in self.gaps] or ["numbers: no gap in any series"]
        said += [f"given twice: {t}" for t in self.twice]
        said += [
            f"warning: {number} tells the public to check it at {address}, which only this "
            "machine can reach (settings: verification.address)"
            for number, address in self.loopback
        ]
        return said + self.restores


def check(reg: Any) -> Checked:
    """Every stored file against its recorded SHA-256 (one at a time), and the database's
    own integrity (SQLite: ``PRAGMA integrity_check``; PostgreSQL keeps its own checksums,
    so every table is read through)."""
    found = Checked()
    with guarded(reg.url), db.read_session(reg.engine) as session:
        ids = session.execute(
            select(DocumentFile.id, Document.number, DocumentFile.format, DocumentFile.sha256)
            .join(Document, DocumentFile.document_id == Document.id)
            .order_by(DocumentFile.id)
        ).all()
        for file_id, number, fmt, recorded in ids:
            blob = session.scalar(select(DocumentFile.content).where(DocumentFile.id == file_id))
            found.files += 1
            if blob is None or hashlib.sha256(blob).hexdigest() != recorded:
                found.altered.append(f"{number} {fmt.upper()} does not match its SHA-256")
            elif fmt == "html":
                found.loopback += [(number, a) for a in _check_addresses(blob) if is_loopback(a)]
        found.restores = restore_lines(session)
        found.gaps = gaps(session)
        found.twice = given_twice(session)
        conn = session.connection()
        if conn.dialect.name == "sqlite":
            answer = [row[0] for row in conn.exec_driver_sql("PRAGMA integrity_check")]
            found.database = [] if answer == ["ok"] else answer[:20]
        else:
            for table in Document.metadata.sorted_tables:
                conn.exec_driver_sql(f'SELECT count(*) FROM "{table.name}"')
    return found


# The verification line's address as the HTML prints it: ADDRESS/v/NUMBER (signing.codes).
_CHECK_ADDRESS = re.compile(rb"(https?://[^/\s\"'<>]+(?:/[^\s\"'<>]*?)?)/v/")


def _check_addresses(html: bytes) -> set[str]:
    return {m.decode("ascii", "replace") for m in _CHECK_ADDRESS.findall(html)}


def backup(reg: Any, target: Path) -> Path:
    """A consistent copy of the register at ``target`` (never over an existing file), made
    only after ``check`` finds it sound: a damaged register is never copied over a good
    backup's place, and the damage is named.

    SQLite: the online backup API (pages copied under a read lock, so writers may carry
    on between steps). PostgreSQL: ``pg_dump`` in custom format (one snapshot).
    """
    target = Path(target)
    if target.exists():
        raise RegisterError(f"{target} exists; a backup never replaces a file, choose a new name")
    found = check(reg)
    if not found.sound:
        raise RegisterError(
            "the register is damaged; no backup was made:\n  "
            + "\n  ".join(found.lines()[1:])
            + "\nrestore it from the last good backup"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = staging_file(target)
    except OSError as err:
        raise _not_written(target, err.strerror or str(err)) from None
    os.close(fd)
    try:
        if reg.engine.dialect.name == "sqlite":
            with guarded(reg.url):
                source = reg.engine.raw_connection()
                try:
                    copy = sqlite3.connect(tmp)
                    with copy:
                        source.driver_connection.backup(copy)
                    copy.close()
                except sqlite3.Error as err:  # the register was just checked: the copy failed
                    raise _not_written(target, str(err)) from None
                finally:
                    source.close()
        else:
            failed = _pg_dump(reg.url, Path(tmp))
            if failed is not None:
                raise _not_written(target, failed.replace(tmp, str(target)))
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise _not_written(target, err.strerror or str(err)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _not_written(target: Path, cause: str) -> RegisterError:
    """A backup that could not be written (a full disk, a size limit): one line, naming the
    file and the cause; nothing is left at ``target`` and the register is unchanged."""
    return RegisterError(
        f"{target}: the backup could not be written ({cause}); nothing was written there and "
        "the register is unchanged: free some space or choose another disk"
    )


def _pg_dump(url: str, target: Path) -> str | None:
    """``pg_dump`` of the database at ``url`` into ``target``: None, or what went wrong."""
    done = subprocess.run(
        [postgres_client("pg_dump"), "--format=custom", f"--file={target}", "--dbname", libpq(url)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        return f"pg_dump: {said[-1] if said else done.returncode}"
    return None
