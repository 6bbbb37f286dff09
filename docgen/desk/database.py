"""The desk's own tables: users, their sessions, login attempts and saved drafts.

They live in the same database as the register (SQLite at ``$DOCGEN_HOME/docgen.sqlite``
by default, ``DOCGEN_DATABASE_URL`` for a shared PostgreSQL server), in tables of their
own, created on first use.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker
from sqlalchemy.types import TypeDecorator


def now() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator):
    """Timestamps stored in UTC and always read back timezone-aware (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "desk_users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(UtcDateTime, default=now)


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


def docgen_home() -> Path:
    """``$DOCGEN_HOME``, or the platform's user data folder (XDG on Linux)."""
    if os.environ.get("DOCGEN_HOME"):
        return Path(os.environ["DOCGEN_HOME"])
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "docgen"


def database_url() -> str:
    if os.environ.get("DOCGEN_DATABASE_URL"):
        return os.environ["DOCGEN_DATABASE_URL"]
    home = docgen_home()
    home.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{home / 'docgen.sqlite'}"


@cache
def engine(url: str | None = None) -> Engine:
    """The engine for ``url`` (default: the register's database), its desk tables created."""
    made = create_engine(url or database_url())
    if made.dialect.name == "sqlite":
        event.listen(made, "connect", _sqlite_pragmas)
    Base.metadata.create_all(made)
    return made


def _sqlite_pragmas(connection, record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def sessions(url: str | None = None) -> sessionmaker:
    return sessionmaker(engine(url), expire_on_commit=False)
