"""The desk's own tables: users (and the sites a developer's account acts for), their
sessions, login attempts, saved drafts, the audit, the public check's asks.

They live in the register's database (docgen.register.db: SQLite at
``$DOCGEN_HOME/docgen.sqlite`` by default, ``DOCGEN_DATABASE_URL`` for a shared
PostgreSQL server), in tables of their own (``desk_*``), created on first use.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.orm import Session as DbSession

from docgen.register.models import UtcDateTime


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "desk_users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(UtcDateTime, default=now)
    full_name: Mapped[str] = mapped_column(String(200), default="")  # as documents print it
    title: Mapped[str] = mapped_column(String(200), default="")
    removed: Mapped[datetime | None] = mapped_column(UtcDateTime, default=None)  # drafts kept


class UserSite(Base):
    """A site a developer's account acts for (the register's certification_sites.id): the
    only sites whose certifications it sees and whose firms it invites (docgen.desk.auth)."""

    __tablename__ = "desk_user_sites"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("desk_users.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[int] = mapped_column(Integer, primary_key=True)


class Session(Base):
    """A signed-in browser: the cookie holds a random token, the table only its SHA-256."""

    __tablename__ = "desk_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("desk_users.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(UtcDateTime, default=now)
    last_seen: Mapped[datetime] = mapped_column(UtcDateTime, default=now)


class LoginAttempt(Base):
    """A failed sign-in, by user name and client address (the rate limit counts these)."""

    __tablename__ = "desk_login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=now, index=True)


class AuditEntry(Base):
    """One change to who may sign in, or one sign-in (succeeded, failed or held back)."""

    __tablename__ = "desk_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=now, index=True)
    actor: Mapped[str] = mapped_column(String(100))  # who did it ("cli": the command line)
    action: Mapped[str] = mapped_column(String(40))
    subject: Mapped[str] = mapped_column(String(100))  # the user name it is about
    client: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[str] = mapped_column(String(200), default="")


def audit(
    s: DbSession, actor: str, action: str, subject: str, client: str = "", detail: str = ""
) -> None:
    """One audit row, in the caller's transaction (never a password, never case data)."""
    s.add(
        AuditEntry(
            actor=actor[:100],
            action=action,
            subject=subject[:100],
            client=client[:64],
            detail=detail[:200],
        )
    )


class PublicCheck(Base):
    """One ask of the public check from a client address (docgen.desk.public_check counts
    them across every server process); an upload to compare is in flight until
    ``finished``."""

    __tablename__ = "desk_public_checks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=now, index=True)
    upload: Mapped[bool] = mapped_column(default=False)
    finished: Mapped[datetime | None] = mapped_column(UtcDateTime, default=None)


class Submission(Base):
    """A state-changing form's one-time token, and where its first post led (a repeated
    post, a double click, is sent there instead of acting twice)."""

    __tablename__ = "desk_submissions"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=now, index=True)
    result: Mapped[str | None] = mapped_column(String(300), default=None)


class Draft(Base):
    """A case being filled in: exactly what was typed, as (field, value) pairs."""

    __tablename__ = "desk_drafts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("desk_users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    jurisdiction: Mapped[str] = mapped_column(String(40))
    fields: Mapped[list] = mapped_column(JSON, default=list)
    created: Mapped[datetime] = mapped_column(UtcDateTime, default=now)
    updated: Mapped[datetime] = mapped_column(UtcDateTime, default=now)
    issued_as: Mapped[str | None] = mapped_column(String(100), default=None)


@cache
def engine(url: str | None = None) -> Engine:
    """The register's database (``url``, by default the register's own), desk tables made.
    Its errors never carry the statement's values (case data stays out of logs)."""
    from docgen.register.db import default_url, guarded, make_engine

    url = url or default_url()
    made = make_engine(url)
    made.hide_parameters = True
    with guarded(url):
        Base.metadata.create_all(made)
        _add_columns(made)
    return made


def _add_columns(made: Engine) -> None:
    """Columns added to the desk's tables since a register was made (no data moves)."""
    from sqlalchemy import inspect, text

    have = {c["name"] for c in inspect(made).get_columns(User.__tablename__)}
    added = {
        "full_name": "VARCHAR(200) NOT NULL DEFAULT ''",
        "title": "VARCHAR(200) NOT NULL DEFAULT ''",
        "removed": "TIMESTAMP" if made.dialect.name == "sqlite" else "TIMESTAMP WITH TIME ZONE",
    }
    with made.begin() as conn:
        for name, kind in added.items():
            if name not in have:
                conn.execute(text(f"ALTER TABLE {User.__tablename__} ADD COLUMN {name} {kind}"))


class Sessions(sessionmaker):
    """``db()`` a session for reading; ``db.begin()`` a write transaction that takes
    SQLite's write lock at once (BEGIN IMMEDIATE, waited for up to the busy timeout), so
    a read never has to become a write while another process writes."""

    def __init__(self, bind: Engine):
        from docgen.register.db import WRITE

        super().__init__(bind, expire_on_commit=False)
        writing = bind.execution_options(**{WRITE: True})
        writing.hide_parameters = True
        self.writer = sessionmaker(writing, expire_on_commit=False)

    def begin(self):  # type: ignore[override]
        return self.writer.begin()


def sessions(url: str | None = None) -> Sessions:
    return Sessions(engine(url))
