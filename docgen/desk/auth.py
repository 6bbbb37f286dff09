"""Who may do what: users and roles, password hashes, sessions, CSRF tokens, login limits.

Passwords are hashed with Argon2id (argon2-cffi). A session is a random token in an
HttpOnly cookie; the database keeps its SHA-256, the user, the CSRF token of its forms
and when it was last used. Sessions expire after ``IDLE`` without use and ``LIFETIME``
in all. Failed sign-ins are counted per user name and per client address.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import sessionmaker

from docgen.desk.database import LoginAttempt, Session, User, now
from docgen.errors import DocgenError

ROLES = {
    "clerk": "issues and serves enforcement documents",
    "officer": "issues and serves enforcement documents",
    "attorney": "drafts and reviews the recorded instruments",
    "admin": "manages users",
}

# What each role may do on the desk. Every route names the permission it needs.
PERMISSIONS = {
    "clerk": {"enforce", "register"},
    "officer": {"enforce", "register"},
    "attorney": {"instruments", "register"},
    "admin": {"users", "register"},
}

# The kinds each drafting permission covers (an attorney cannot issue a notice).
KINDS_FOR = {
    "enforce": (
        "notice-of-violation",
        "stop-work-order",
        "penalty-statement",
        "contractor-certification",
    ),
    "instruments": ("maintenance-easement", "maintenance-agreement"),
}

IDLE = timedelta(minutes=30)
LIFETIME = timedelta(hours=12)
KEEP_EXPIRED = timedelta(days=2)  # an expired session still lets its drafts be saved
FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_NAME = 5
MAX_FAILURES_PER_CLIENT = 20
MIN_PASSWORD = 12

_hasher = PasswordHasher()


def kinds_for(role: str) -> tuple[str, ...]:
    return tuple(k for perm in sorted(PERMISSIONS.get(role, ())) for k in KINDS_FOR.get(perm, ()))


def may(role: str, permission: str) -> bool:
    return permission in PERMISSIONS.get(role, set())


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def add_user(db: sessionmaker, name: str, role: str, password: str) -> User:
    name = name.strip()
    if not name or len(name) > 100 or any(c.isspace() or not c.isprintable() for c in name):
        raise DocgenError("user name: one word of up to 100 printable characters, no spaces")
    if role not in ROLES:
        raise DocgenError(f"role {role!r}: choose {', '.join(ROLES)}")
    if len(password) < MIN_PASSWORD:
        raise DocgenError(f"password: at least {MIN_PASSWORD} characters")
    with db.begin() as s:
        if s.scalar(select(User).where(User.name == name)) is not None:
            raise DocgenError(f"user {name!r} already exists")
        user = User(name=name, role=role, password_hash=_hasher.hash(password))
        s.add(user)
    return user


def list_users(db: sessionmaker) -> list[User]:
    with db() as s:
        return list(s.scalars(select(User).order_by(User.name)))


def remove_user(db: sessionmaker, name: str) -> None:
    with db.begin() as s:
        user = s.scalar(select(User).where(User.name == name))
        if user is None:
            raise DocgenError(f"no user {name!r}")
        s.execute(delete(Session).where(Session.user_id == user.id))
        s.delete(user)


class TooManyAttempts(DocgenError):
    """Sign-in refused for a while after repeated failures."""


def sign_in(db: sessionmaker, name: str, password: str, client: str) -> tuple[User, str] | None:
    """(user, session token) for a right password; None for a wrong one (counted)."""
    since = now() - FAILURE_WINDOW
    with db.begin() as s:
        by_name = s.scalar(
            select(func.count())
            .select_from(LoginAttempt)
            .where(LoginAttempt.name == name[:100], LoginAttempt.at >= since)
        )
        by_client = s.scalar(
            select(func.count())
            .select_from(LoginAttempt)
            .where(LoginAttempt.client == client[:64], LoginAttempt.at >= since)
        )
        if by_name >= MAX_FAILURES_PER_NAME or by_client >= MAX_FAILURES_PER_CLIENT:
            raise TooManyAttempts(
                "too many failed sign-ins; wait 15 minutes and try again, or ask an administrator"
            )
        user = s.scalar(select(User).where(User.name == name))
        if user is None or not _verify(user.password_hash, password):
            s.add(LoginAttempt(name=name[:100], client=client[:64]))
            return None
        if _hasher.check_needs_rehash(user.password_hash):
            user.password_hash = _hasher.hash(password)
        s.execute(
            delete(LoginAttempt).where(
                (LoginAttempt.name == name[:100]) | (LoginAttempt.at < since)
            )
        )
        token = secrets.token_urlsafe(32)
        s.add(Session(token_hash=_token_hash(token), user_id=user.id, csrf=new_csrf()))
        s.execute(delete(Session).where(Session.created < now() - LIFETIME - KEEP_EXPIRED))
        return user, token


def _verify(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


@dataclass(frozen=True)
class Visitor:
    """The user behind a request's session cookie; ``live`` is False once it expired."""

    user_id: int
    name: str
    role: str
    csrf: str
    live: bool

    def may(self, permission: str) -> bool:
        return may(self.role, permission)


TOUCH = timedelta(seconds=60)  # a session's last use is written at most this often


def visitor(db: sessionmaker, token: str | None) -> Visitor | None:
    """The session's user (a use keeps it alive), or None when there is no such session.

    Checked on every request: past its idle or absolute expiry a session is not live
    (its drafts may still be saved for ``KEEP_EXPIRED``); past that it is deleted."""
    if not token:
        return None
    moment = now()
    with db() as s:
        row = s.get(Session, _token_hash(token))
        user = s.get(User, row.user_id) if row is not None else None
    if row is None or user is None:
        return None
    idle, age = moment - row.last_seen, moment - row.created
    if idle >= IDLE + KEEP_EXPIRED or age >= LIFETIME + KEEP_EXPIRED:
        sign_out(db, token)
        return None
    live = idle < IDLE and age < LIFETIME
    if live and idle >= TOUCH:
        with db.begin() as s:
            s.execute(
                update(Session).where(Session.token_hash == row.token_hash).values(last_seen=moment)
            )
    return Visitor(user.id, user.name, user.role, row.csrf, live)


def sign_out(db: sessionmaker, token: str | None) -> None:
    if token:
        with db.begin() as s:
            s.execute(delete(Session).where(Session.token_hash == _token_hash(token)))


def new_csrf() -> str:
    return secrets.token_urlsafe(32)


def same_token(expected: Any, given: Any) -> bool:
    """Constant-time comparison of a CSRF token with what a form or cookie carried (any
    text, even non-ASCII, compares as UTF-8 bytes: a forged value is refused, not a 500)."""
    if not expected or not given:
        return False
    return hmac.compare_digest(str(expected).encode("utf-8"), str(given).encode("utf-8"))
