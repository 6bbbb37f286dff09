"""Keeping the register: consistent backups while in use (history from before the
register is imported by docgen.register.imports)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from docgen.register import db
from docgen.register.db import RegisterError, guarded


def backup(reg: Any, target: Path) -> Path:
    """A consistent copy of the register at ``target`` (never over an existing file).

    SQLite: the online backup API (pages copied under a read lock, so writers may carry
    on between steps). PostgreSQL: ``pg_dump`` in custom format (one snapshot).
    """
    target = Path(target)
    if target.exists():
        raise RegisterError(f"{target} exists; a backup never replaces a file, choose a new name")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
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
                finally:
                    source.close()
        else:
            _pg_dump(reg.url, Path(tmp))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _pg_dump(url: str, target: Path) -> None:
    from sqlalchemy.engine import make_url

    parsed = make_url(db.driver_url(url))
    libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    found = shutil.which("pg_dump") or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_dump"), reverse=True)),
        None,
    )
    if found is None:
        raise RegisterError("pg_dump not found; install the PostgreSQL client (postgresql-client)")
    done = subprocess.run(
        [found, "--format=custom", f"--file={target}", f"--dbname={libpq}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RegisterError(f"pg_dump failed: {done.stderr.strip().splitlines()[-1:]}")
