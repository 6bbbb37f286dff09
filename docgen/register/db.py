"""Where the register lives and how it is opened: the URL, the engine, the schema's version.

SQLite by default, at ``$DOCGEN_HOME/docgen.sqlite`` (``DOCGEN_HOME`` defaults to the
platform's user data folder); PostgreSQL when ``DOCGEN_DATABASE_URL`` says
``postgresql://...`` (driven by psycopg 3). The schema is migrated by Alembic on first
use and by ``docgen register upgrade``.

Writes that take a number must be serialized: on SQLite a write transaction starts with
``BEGIN IMMEDIATE`` (the write lock is taken before the counter is read, so two clerks
never read the same last number); on PostgreSQL the counter row is locked with
``SELECT ... FOR UPDATE`` in the transaction that inserts the document.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session

from docgen.errors import DocgenError

# The newest migration in docgen/register/migrations/versions (a test keeps them equal),
# so opening an up-to-date register does not load Alembic at all.
HEAD = "0004"
WRITE = "docgen_write"  # execution option: this transaction takes the write lock at once
WRITE_LOCK = 4242012  # PostgreSQL advisory lock taken by every write transaction


class RegisterError(DocgenError):
    """The register cannot be opened or written, or refuses a request (exit code 1)."""


def default_url() -> str:
    """``DOCGEN_DATABASE_URL``, or the SQLite file in ``DOCGEN_HOME`` (the user data folder)."""
    url = os.environ.get("DOCGEN_DATABASE_URL", "").strip()
    if url:
        return url
    from docgen.settings import home

    return f"sqlite:///{home().resolve() / 'docgen.sqlite'}"


def driver_url(url: str) -> str:
    """A plain ``postgresql://`` URL means psycopg 3 (SQLAlchemy would pick psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str, timeout: float = 30.0) -> Engine:
    """An engine for ``url``; a locked SQLite file is waited for up to ``timeout`` seconds."""
    url = driver_url(url)
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            folder = Path(path).parent
            try:
                # Password hashes and case data: the folder and the file are the owner's.
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not path.startswith("file:") and not os.path.exists(path):
                    with suppress(FileExistsError):  # made by another process meanwhile
                        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except OSError as err:
                raise RegisterError(
                    f"cannot create the register's folder {folder}: {err}"
                ) from None
        engine = create_engine(url, connect_args={"timeout": timeout})
        _sqlite_transactions(engine)
        return engine
    if url.startswith("postgresql"):
        # A lock held too long (a stuck clerk's transaction) is an error, not a hang.
        options = f"-c lock_timeout={int(timeout * 1000)}"
        return create_engine(
            url, connect_args={"connect_timeout": 10, "options": options}, pool_pre_ping=True
        )
    raise RegisterError(
        f"DOCGEN_DATABASE_URL: {url.split(':', 1)[0]!r} is not supported; use "
        "postgresql://USER@HOST/DB, or leave it unset for the SQLite file in DOCGEN_HOME"
    )


def _sqlite_transactions(engine: Engine) -> None:
    """Let docgen emit BEGIN itself (pysqlite's own BEGIN is deferred and untimed)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        # WAL: readers (history, verify) are never blocked by a clerk issuing a notice.
        # The mode stays with the file; switching needs a moment alone with it, so a
        # process that finds another one busy leaves the switch to that one.
        if cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            with suppress(sqlite3.OperationalError):
                cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        immediate = conn.get_execution_options().get(WRITE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def explain(err: Exception, url: str) -> RegisterError:
    """A database failure as one line a clerk can act on."""
    message = str(getattr(err, "orig", err)).strip().splitlines()[0]
    where = safe_url(url)
    lowered = message.lower()
    if "locked" in lowered or "lock timeout" in lowered:
        return RegisterError(
            f"the register {where} is locked by another process (still locked after waiting); "
            "try again when the other issue or backup has finished"
        )
    if "readonly" in lowered or "read-only" in lowered or "read only" in lowered:
        return RegisterError(
            f"the register {where} is read-only; nothing was recorded. Open it with write "
            "access (check the file's and folder's permissions) or set DOCGEN_HOME"
        )
    if "unable to open" in lowered:
        return RegisterError(f"cannot open the register {where}: {message}")
    return RegisterError(f"register {where}: {message}")


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(driver_url(url)).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL: say so without echoing it whole
        return "(unparsable URL)"


@contextmanager
def guarded(url: str) -> Iterator[None]:
    """Database errors become RegisterError; refusals raised inside pass through."""
    try:
        yield
    except (OperationalError, DBAPIError) as err:
        raise explain(err, url) from None


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        has_table = engine.dialect.has_table(conn, "alembic_version")
        if not has_table:
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Migrate to the newest schema; (revision before, revision after)."""
    from alembic import command
    from alembic.config import Config

    before = current_revision(engine)
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            # Two first uses at once: one migrates, the other waits, then finds it done.
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": WRITE_LOCK + 1})
        else:
            conn = conn.execution_options(**{WRITE: True})
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
        conn.commit()
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": WRITE_LOCK + 1})
            conn.commit()
    return before, current_revision(engine) or ""


@contextmanager
def write_session(engine: Engine) -> Iterator[Session]:
    """One write transaction, committed on success, serialized with every other writer:
    SQLite begins it IMMEDIATE; PostgreSQL takes a transaction-scoped advisory lock, so
    two clerks never both decide that a respondent is new, nor read the same history."""
    with engine.connect() as conn:
        conn = conn.execution_options(**{WRITE: True})
        with conn.begin(), Session(bind=conn, expire_on_commit=False) as session:
            if conn.dialect.name == "postgresql":
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK})
            yield session
            session.flush()


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session:
        yield session
