"""PostgreSQL's own client programs, for backups (pg_dump) and restores (pg_restore)."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy.engine import make_url

from docgen.register.storage import db
from docgen.register.storage.db import RegisterError


def libpq(url: str) -> str:
    """The register's URL as PostgreSQL's own clients take it (``postgresql://...``)."""
    parsed = make_url(db.driver_url(url))
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def postgres_client(name: str) -> str:
    """The PostgreSQL client program ``name`` (pg_dump, pg_restore): on the PATH, else the
    newest of Debian's versioned folders; an error saying what to install when neither."""
    folders = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)
    found = shutil.which(name) or next((str(p) for p in folders), None)
    if found is None:
        raise RegisterError(f"{name} not found; install the PostgreSQL client (postgresql-client)")
    return found
