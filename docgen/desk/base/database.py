"""The desk's own tables: users (and the sites a developer's account acts for), their
sessions, login attempts, saved drafts, the public check's asks, forms' one-time tokens.

They live in the register's database (docgen.register.storage.db: SQLite at
``$DOCGEN_HOME/docgen.sqlite`` by default, ``DOCGEN_DATABASE_URL`` for a shared
PostgreSQL server), in tables of their own (``desk_*``) that the register's migrations
make (0020; docgen.register.storage.models declares them). Sign-ins and changes to accounts are
rows of the register's one audit trail (entity ``user``).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from docgen.register.storage.audit import record
from docgen.register.storage.db import WRITE, check_revision, default_url, guarded, make_engine
from docgen.register.storage.models import DESK_ACCOUNT, AuditEntry, Draft, PublicCheck, Submission
from docgen.register.storage.models import DeskSession as Session
from docgen.register.storage.models import DeskUser as User
from docgen.register.storage.models import DeskUserSite as UserSite
from docgen.register.storage.models import LoginFailure as LoginAttempt

__all__ = ["Draft", "LoginAttempt", "PublicCheck", "Session", "Submission", "User", "UserSite"]


def now() -> datetime:
    return datetime.now(UTC)


def audit(
    s: DbSession, actor: str, action: str, subject: str, client: str = "", detail: str = ""
) -> None:
    """One row of the register's audit trail, in the caller's transaction (never a
    password, never case data): an account is named, not numbered (entity_id 0), so a
    failed sign-in under a name that is no account is recorded alike."""
    said = {"user": subject[:100]}
    if client:
        said["client"] = client[:64]
    if detail:
        said["detail"] = detail[:200]
    record(s, actor[:200], action[:40], DESK_ACCOUNT, 0, said)


@dataclass(frozen=True)
class AccountEvent:
    """A sign-in or a change to an account, as ``docgen users audit`` and the users page
    show it."""

    at: datetime
    actor: str
    action: str
    subject: str
    client: str
    detail: str


def account_events(s: DbSession, limit: int) -> list[AccountEvent]:
    """The newest ``limit`` audit rows about desk accounts, newest first (one query)."""
    rows = s.scalars(
        select(AuditEntry)
        .where(AuditEntry.entity == DESK_ACCOUNT)
        .order_by(AuditEntry.id.desc())
        .limit(limit)
    )
    return [
        AccountEvent(
            r.at,
            r.actor,
            r.action,
            r.detail.get("user", ""),
            r.detail.get("client", ""),
            r.detail.get("detail", ""),
        )
        for r in rows
    ]


def engine(url: str | None = None) -> Engine:
    """The register's database (``url``, by default the register's own as the environment
    names it now), migrated to the newest schema on first use as the register is
    (docgen.register.storage.db.check_revision): the desk's tables are the migrations'. Its errors
    never carry the statement's values (case data stays out of logs)."""
    return _engine(url or default_url())


@cache  # one engine per database: by its URL, never by "the default" a process saw first
def _engine(url: str) -> Engine:
    made = make_engine(url)
    made.hide_parameters = True
    with guarded(url):
        try:
            check_revision(made, url, migrate=True)
        except BaseException:
            made.dispose()
            raise
    return made


class Sessions(sessionmaker[DbSession]):
    """``db()`` a session for reading; ``db.begin()`` a write transaction that takes
    SQLite's write lock at once (BEGIN IMMEDIATE, waited for up to the busy timeout), so
    a read never has to become a write while another process writes."""

    def __init__(self, bind: Engine):
        super().__init__(bind, expire_on_commit=False)
        writing = bind.execution_options(**{WRITE: True})
        writing.hide_parameters = True
        self.writer = sessionmaker(writing, expire_on_commit=False)

    def begin(self) -> AbstractContextManager[DbSession]:
        return self.writer.begin()


def sessions(url: str | None = None) -> Sessions:
    return Sessions(engine(url))
