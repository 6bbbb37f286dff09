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

import gc
import os
import re
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event, insert, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session

from docgen import __version__
from docgen.environ import number
from docgen.errors import DocgenError, Problem, cited, without_notes
from docgen.register.storage.models import RegisterUpgrade

if TYPE_CHECKING:
    from alembic.config import Config

# The newest migration in docgen/register/migrations/versions (a test keeps them equal),
# so opening an up-to-date register does not load Alembic at all.
HEAD = "0024"
WRITE = "docgen_write"  # execution option: this transaction takes the write lock at once
WRITE_LOCK = 4242012  # PostgreSQL advisory lock taken by every write transaction


class RegisterError(DocgenError):
    """The register cannot be opened or written, or refuses a request (exit code 1)."""


def option(field: str) -> str:
    """The command line's name of a request's field: ``received_by`` -> ``--received-by``;
    a numbered one, given as ``N=VALUE`` to a repeatable option: ``remedy_2`` ->
    ``--remedy 2=`` (its value follows it)."""
    numbered = re.fullmatch(r"([a-z_]+?)_(\d+)", field)
    if numbered:
        return f"--{numbered[1].replace('_', '-')} {numbered[2]}="
    return "--" + field.replace("_", "-")


class Refused(RegisterError):
    """A request refused for what it was given: every problem at once, each about a field
    of the request (``Problem.field``: ``received``, ``date``; "" for the whole request).
    The caller names the fields: the command line by its options (``--received``, the
    message), the desk by its form's labels (``said``). ``{field}`` in a message names
    another field the same way. A provision is cited as a person reads it
    (docgen.errors.cited): the law's, never the design notes."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(self.said(option, " ")))

    def said(self, name: Callable[[str], str], after: str = ": ") -> list[str]:
        """Each problem with its field named by ``name``: "--received 2026-11-03 is ..."
        (``after`` " ") or "Date received: 2026-11-03 is ..." (``after`` ": ")."""
        out = []
        for p in self.problems:
            text = re.sub(r"\{([a-z_]+)\}", lambda m: name(m.group(1)), without_notes(p.message))
            label = name(p.field) if p.field else ""
            text = f"{label}{'' if label.endswith('=') else after}{text}" if p.field else text
            provision = cited(p.provision)  # the law's provision, never the design notes
            out.append(f"{text} ({provision})" if provision else text)
        return out


def default_url() -> str:
    """``DOCGEN_DATABASE_URL``, or the SQLite file in ``DOCGEN_HOME`` (the user data folder).

    ``DOCGEN_HOME`` is a path, never part of a URL: ``/x/reg?a`` is a folder of that
    name and ``%41`` stays three characters (the path is quoted into the URL)."""
    url = os.environ.get("DOCGEN_DATABASE_URL", "").strip()
    if url:
        return url
    # settings loads pydantic, yaml, annotated_types (+89 ms): loaded on first use
    from docgen.settings import home

    return sqlite_url(home().resolve() / "docgen.sqlite")


def sqlite_url(path: str | Path) -> str:
    """The URL of the SQLite file at ``path``, whatever characters its name holds."""
    return URL.create("sqlite", database=str(path)).render_as_string()


def sqlite_path(url: str) -> Path | None:
    """The file a ``sqlite:`` URL names (None for another database or an in-memory one)."""
    parsed = make_url(driver_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.database.startswith("file:"):
        return None  # a URI filename: the caller chose its own mode
    return Path(parsed.database)


def driver_url(url: str) -> str:
    """A plain ``postgresql://`` URL means psycopg 3 (SQLAlchemy would pick psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def check_existing_file(path: Path) -> bool:
    """Whether a register file is already at ``path``; an empty file there is an error
    (never re-created: numbering would start again at 0001), and a file that is not
    SQLite is refused by SQLite itself (``explain``). Only ``stat`` looks at the file:
    opening and closing it here would drop the locks SQLite holds on it in this process
    (POSIX record locks belong to the process, not to the descriptor)."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return False
    except OSError as err:
        raise RegisterError(f"cannot read the register {path}: {err.strerror}") from None
    if stat.S_ISDIR(found.st_mode):
        raise RegisterError(f"the register {path} is a directory, not a database file")
    if found.st_size == 0:
        raise RegisterError(
            f"the register {path} is an empty file (0 bytes), not a register; restore it from "
            "a backup (docgen register backup), or move it away to start a new register"
        )
    return True


LOCK_TIMEOUT_ENV = "DOCGEN_LOCK_TIMEOUT"
LOCK_TIMEOUT = 30.0  # seconds a register locked by another writer is waited for


def lock_timeout() -> float:
    """``DOCGEN_LOCK_TIMEOUT``: how long a writer waits for a register another holds (a
    clerk issuing, a backup) before it gives up; then the desk answers "try again" (503)
    and a command says the register is busy. 30 s unless set; 0.1 to 3600."""
    return number(LOCK_TIMEOUT_ENV, LOCK_TIMEOUT, 0.1, 3600, unit="seconds", error=RegisterError)


def make_engine(url: str, timeout: float | None = None, readonly: bool = False) -> Engine:
    """An engine for ``url``; a register locked by another writer is waited for up to
    ``timeout`` seconds (default: :func:`lock_timeout`).

    ``readonly``: the register is only read (verify, history, export), so a register in a
    folder without write access opens too, and nothing is created when there is none."""
    url = driver_url(url)
    timeout = lock_timeout() if timeout is None else timeout
    if url.startswith("sqlite"):
        path = sqlite_path(url)
        if path is not None:
            exists = check_existing_file(path)
            if readonly:
                if not exists:
                    raise RegisterError(f"no register at {path}: nothing has been issued there")
                return _read_only_sqlite(path, timeout)
            try:
                # Password hashes and case data: the folder and the file are the owner's.
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not exists:
                    _new_sqlite_file(path)
            except OSError as err:
                raise RegisterError(
                    f"cannot create the register's folder {path.parent}: {err}"
                ) from None
        engine = create_engine(url, connect_args={"timeout": timeout})
        _sqlite_transactions(engine)
        return engine
    if url.startswith("postgresql"):
        # A lock held too long (a stuck clerk's transaction) is an error, not a hang.
        options = f"-c lock_timeout={int(timeout * 1000)}"
        if readonly:
            options += " -c default_transaction_read_only=on"
        return create_engine(
            url, connect_args={"connect_timeout": 10, "options": options}, pool_pre_ping=True
        )
    raise RegisterError(
        f"DOCGEN_DATABASE_URL: {url.split(':', 1)[0]!r} is not supported; use "
        "postgresql://USER@HOST/DB, or leave it unset for the SQLite file in DOCGEN_HOME"
    )


def _new_sqlite_file(path: Path) -> None:
    """A new register file, readable by its owner only, put in place whole (an SQLite
    header written first, then linked to its name): an empty file at the path is never
    a register being made, always damage. Another process making it meanwhile wins."""
    fd, made = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    os.close(fd)  # mkstemp: mode 0600
    try:
        conn = sqlite3.connect(made)
        conn.execute("PRAGMA journal_mode = WAL")  # writes the header page
        conn.close()
        with suppress(FileExistsError):
            os.link(made, path)
    finally:
        os.unlink(made)


def _read_only_sqlite(path: Path, timeout: float) -> Engine:
    """SQLite opened with ``mode=ro``. In a folder without write access and with no
    ``-shm`` file beside it (no writer has it open), the file is opened ``immutable``:
    SQLite could not create the shared-memory file a WAL register needs to be read."""
    uri = f"file:{quote(str(path))}?mode=ro"
    shm = path.with_name(path.name + "-shm")
    if not os.access(path.parent, os.W_OK) and not shm.exists():
        uri += "&immutable=1"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False)

    engine = create_engine("sqlite://", creator=connect)
    _sqlite_transactions(engine)
    return engine


def _sqlite_transactions(engine: Engine) -> None:
    """Let docgen emit BEGIN itself (pysqlite's own BEGIN is deferred and untimed)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
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


class DatabaseFailure(RegisterError):
    """The database failed or went away (not a refusal of the register's own rules)."""


class Damaged(DatabaseFailure):
    """The database file is damaged: a restore from a backup helps, a retry never does."""


def explain(err: Exception, url: str) -> RegisterError:
    """A database failure as one line a clerk can act on."""
    message = str(getattr(err, "orig", err)).strip().splitlines()[0]
    where = safe_url(url)
    lowered = message.lower()
    if "locked" in lowered or "lock timeout" in lowered:
        return DatabaseFailure(
            f"the register {where} is locked by another process (still locked after waiting); "
            "try again when the other issue or backup has finished"
        )
    if "readonly" in lowered or "read-only" in lowered or "read only" in lowered:
        return DatabaseFailure(
            f"the register {where} is read-only; nothing was recorded. Open it with write "
            "access (check the file's and folder's permissions) or set DOCGEN_HOME"
        )
    if "malformed" in lowered or "disk i/o error" in lowered:
        # damage on disk: trying again reads the same damaged pages; a backup is the cure
        path = sqlite_path(url)
        file = str(path) if path is not None else "REGISTER"
        return Damaged(
            f"the register {where} is damaged ({message}); nothing was recorded and trying "
            f"again cannot help: restore the last backup (`docgen register backup` made it) "
            f"in its place: `mv {file} {file}.damaged && rm -f {file}-wal {file}-shm && cp "
            f"BACKUP {file} && docgen register upgrade && docgen register check` (docs/deploy.md, "
            '"Restoring a backup")'
        )
    if "not a database" in lowered:
        return DatabaseFailure(
            f"the register {where} is not a SQLite database (or is damaged); restore the "
            "register from a backup, or set DOCGEN_HOME to the folder that holds it"
        )
    if "unable to open" in lowered:
        return DatabaseFailure(f"cannot open the register {where}: {message}")
    return DatabaseFailure(f"register {where}: {message}")


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
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


def _revision(conn: Connection) -> str | None:
    if not conn.dialect.has_table(conn, "alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return _revision(conn)


def schema_said(url: str) -> str:
    """The register at ``url`` and its schema revision, in one line for ``docgen
    --version``; opened read-only, so asking never creates a register."""
    where = safe_url(url)
    path = sqlite_path(driver_url(url))
    if path is not None and not path.exists():
        return f"register {where}: none yet (this docgen makes schema revision {HEAD})"
    try:
        engine = make_engine(url, timeout=5, readonly=True)
        try:
            with guarded(url):
                revision = current_revision(engine)
        finally:
            engine.dispose()
    except RegisterError as err:
        return f"register {where}: not read ({err})"
    return f"register {where}: schema revision {revision or 'empty'} (this docgen reads {HEAD})"


def _migrations() -> Config:
    # alembic, sqlalchemy, pygments take 130 ms to import: loaded on first use
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent.parent / "migrations"))
    return config


def check_revision(engine: Engine, url: str, migrate: bool, readonly: bool = False) -> None:
    """The database is a register this docgen can use, migrated now when ``migrate``.

    A database with tables of its own and no revision is not a register; a revision this
    docgen does not ship was made by a newer one (never downgraded, never guessed at); a
    register opened read-only must already be at the newest revision."""
    revision = current_revision(engine)
    if revision == HEAD:
        return
    where = safe_url(url)
    if revision is None:
        # Migrating, the check is made under the migration's lock (upgrade): another first
        # upgrade at the same moment has tables half made, and no revision yet.
        if not migrate:
            with engine.connect() as conn:
                _refuse_foreign(conn, where)
    else:
        # sqlalchemy, alembic, pygments take 130 ms to import: loaded on first use
        from alembic.script import ScriptDirectory

        known = {s.revision for s in ScriptDirectory.from_config(_migrations()).walk_revisions()}
        if revision not in known:
            needed = _upgraded_by(engine, revision)
            raise RegisterError(
                f"this register was upgraded by a newer docgen (revision {revision}); upgrade "
                f"docgen (this one, {__version__}, knows revisions up to {HEAD})"
                + (f": install docgen {needed} or newer, which made it" if needed else "")
            )
    if readonly:
        raise RegisterError(
            f"the register {where} is at revision {revision or 'empty'} and this docgen reads "
            f"{HEAD}; run `docgen register upgrade` first"
        )
    if migrate:
        upgrade(engine)


def _upgraded_by(engine: Engine, revision: str) -> str | None:
    """The docgen version whose upgrade brought the register to ``revision``, where the
    register recorded it (docgen 0.4 and later record every upgrade)."""
    with engine.connect() as conn:
        if not conn.dialect.has_table(conn, "register_upgrades"):
            return None
        return conn.execute(
            text(
                "SELECT version FROM register_upgrades WHERE revision_to = :revision "
                "ORDER BY id DESC LIMIT 1"
            ),
            {"revision": revision},
        ).scalar()


def _refuse_foreign(conn: Connection, where: str) -> None:
    """A database with tables of its own and no register revision is not a register.

    The tables are listed before the revision is read: a first upgrade commits both at
    once, so tables seen mean its revision is seen too, even where each statement reads
    the newest commit (PostgreSQL) and an upgrade beside this one finished in between."""
    tables = [t for t in inspect(conn).get_table_names() if not t.startswith("desk_")]
    if tables and _revision(conn) is None:
        raise RegisterError(
            f"{where} is not a docgen register (it has tables, but no register revision); "
            "restore the register from a backup, or point DOCGEN_HOME or "
            "DOCGEN_DATABASE_URL at the register"
        )


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Migrate to the newest schema; (revision before, revision after).

    The revision before is read under the lock the migration holds, so of two first
    upgrades at once one migrates from empty and the other finds it done."""
    # sqlalchemy, alembic, pygments take 130 ms to import: loaded on first use
    from alembic import command

    config = _migrations()
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            # Two first uses at once: one migrates, the other waits, then finds it done.
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": WRITE_LOCK + 1})
            conn.commit()
        else:
            conn = conn.execution_options(**{WRITE: True})  # BEGIN IMMEDIATE: the write lock
        before = _revision(conn)
        if before is None:  # under the lock: a first upgrade beside this one has finished
            _refuse_foreign(conn, safe_url(engine.url.render_as_string(hide_password=True)))
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
        after = _revision(conn) or ""
        if after != before:
            conn.execute(
                insert(RegisterUpgrade).values(
                    at=datetime.now(UTC),
                    revision_from=before,
                    revision_to=after,
                    version=__version__,
                )
            )
        conn.commit()
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": WRITE_LOCK + 1})
            conn.commit()
    return before, after


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


@contextmanager
def uncollected() -> Iterator[None]:
    """The cyclic garbage collector paused for a pass over a town's rows in memory (a
    history import, the Due list), and restarted after as it was. What such a pass makes
    (rows, sets, tuples: in no cycle) is all the collector would find, and walking it and
    the process's other objects again at each of its passes took nearly a third of the
    pass's time; reference counting frees everything as before, and cycles made meanwhile
    anywhere are collected after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
