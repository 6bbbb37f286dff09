"""Who may do what: users and roles, password hashes, sessions, CSRF tokens, login limits.

Passwords are hashed with Argon2id (argon2-cffi). A session is a random token in an
HttpOnly cookie; the database keeps its SHA-256, the user, the CSRF token of its forms
and when it was last used. Sessions expire after ``IDLE`` without use and ``LIFETIME``
in all. Failed sign-ins are counted per user name and per client address, and slow
each down with growing waits (never a lock a stranger can hold).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session as DbSession

from docgen.desk.base.database import LoginAttempt, Session, Sessions, User, audit, now
from docgen.errors import DocgenError
from docgen.passwords import MIN_LENGTH, secret_problem

ROLES = {
    "clerk": "issues and serves enforcement documents",
    "officer": "issues and serves enforcement documents",
    "attorney": "drafts and reviews the recorded instruments",
    "admin": "manages users",
    "developer": "the applicant or developer acting for a site: invites its contractors",
}

# What each role may do on the desk. Every route names the permission it needs; a route
# that names none needs STAFF, which every role but the developer's has.
STAFF = "desk"
PERMISSIONS = {
    "clerk": {STAFF, "enforce", "register", "certify", "invite"},
    "officer": {STAFF, "enforce", "register", "certify", "invite"},
    "attorney": {STAFF, "instruments", "register"},
    "admin": {STAFF, "users", "register", "certify", "invite"},
    # The applicant or developer acting for a site invites its contractors (LAW.md § 5;
    # § 228-78B(4)(a): the firms "identified by the applicant or developer"): "invite"
    # without "certify" reaches only the sites its account is bound to (desk_user_sites),
    # and nothing else of the desk.
    "developer": {"invite"},
}
# The roles whose "invite" reaches only the sites they are bound to.
SITE_BOUND = tuple(r for r, p in PERMISSIONS.items() if "invite" in p and "certify" not in p)


IDLE = timedelta(minutes=30)
LIFETIME = timedelta(hours=12)
KEEP_EXPIRED = timedelta(days=2)  # an expired session still lets its drafts be saved
FAILURE_WINDOW = timedelta(minutes=15)  # failures older than this are forgotten
# Failed sign-ins slow a name, and an address, down: after the free ones, each further
# failure doubles the wait before the next try, up to the cap. A name is never held for
# longer than a minute (a stranger cannot lock a clerk out); an address guessing at
# many names waits up to 15 minutes.
FREE_FAILURES_PER_NAME = 3
FREE_FAILURES_PER_CLIENT = 10
MAX_WAIT_PER_NAME = timedelta(minutes=1)
MAX_WAIT_PER_CLIENT = timedelta(minutes=15)
MIN_PASSWORD = MIN_LENGTH

_hasher = PasswordHasher()


def kinds_for(role: str) -> tuple[str, ...]:
    """The kinds ``role`` may draft and issue: each kind names the permission that issues
    it (an attorney cannot issue a notice). A kind the register makes from the documents it
    rests on (a step after the notice, the SWPPP's letters) is never drafted: its step's
    form on that document's page makes it."""
    # documents loads pydantic, yaml, annotated_types (+160 ms): loaded on first use
    from docgen.documents import KINDS, kinds_with

    return tuple(
        k
        for perm in sorted(PERMISSIONS.get(role, ()))
        for k in kinds_with(permission=perm)
        if not KINDS[k].made_by_register
    )


def may(role: str, permission: str) -> bool:
    return permission in PERMISSIONS.get(role, set())


def landing(role: str) -> str:
    """Where a user of ``role`` lands after signing in: the register, or a developer's
    sites (the only pages that role reaches)."""
    return "/documents" if may(role, STAFF) else "/certifications"


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def hashed(password: str) -> str:
    return _hasher.hash(password)


def password_problem(password: str, name: str = "") -> str | None:
    """What is wrong with ``password`` (docgen.passwords: the rule passphrases share)."""
    return secret_problem(password, name, "password")


class TooManyAttempts(DocgenError):
    """Sign-in held back for a while after repeated failures."""


def _wait(failures: list[datetime], free: int, cap: timedelta, moment: datetime) -> float:
    """Seconds still to wait after these failures (newest last)."""
    if len(failures) < free:
        return 0.0
    delay = min(timedelta(seconds=2 ** (len(failures) - free)), cap)
    return max(0.0, (failures[-1] + delay - moment).total_seconds())


@cache
def _dummy() -> str:
    """A hash of nothing anyone types: an unknown name costs the same as a wrong password."""
    return _hasher.hash(secrets.token_urlsafe(32))


def sign_in(db: Sessions, name: str, password: str, client: str) -> tuple[User, str] | None:
    """(user, session token) for a right password; None for a wrong one (counted).
    TooManyAttempts while the name or the address must wait. Every outcome is audited."""
    moment = now()
    since = moment - FAILURE_WINDOW
    name, client = name[:100], client[:64]
    with db() as s:
        by_name = list(
            s.scalars(
                select(LoginAttempt.at)
                .where(LoginAttempt.name == name, LoginAttempt.at >= since)
                .order_by(LoginAttempt.at)
            )
        )
        by_client = list(
            s.scalars(
                select(LoginAttempt.at)
                .where(LoginAttempt.client == client, LoginAttempt.at >= since)
                .order_by(LoginAttempt.at)
            )
        )
        user = s.scalar(select(User).where(User.name == name, User.removed.is_(None)))
    wait = max(
        _wait(by_name, FREE_FAILURES_PER_NAME, MAX_WAIT_PER_NAME, moment),
        _wait(by_client, FREE_FAILURES_PER_CLIENT, MAX_WAIT_PER_CLIENT, moment),
    )
    if wait > 0:
        with db.begin() as s:
            audit(s, name, "sign-in held back", name, client)
        seconds = math.ceil(wait)
        raise TooManyAttempts(
            f"too many failed sign-ins; try again in {seconds} second{'s' * (seconds != 1)}"
        )
    right = _verify(user.password_hash if user else _dummy(), password) and user is not None
    with db.begin() as s:
        if not right:
            s.add(LoginAttempt(name=name, client=client))
            audit(s, name, "sign-in failed", name, client)
            return None
        assert user is not None
        if _hasher.check_needs_rehash(user.password_hash):
            s.execute(update(User).where(User.id == user.id).values(password_hash=hashed(password)))
        return user, open_session(s, user, client, moment)


def open_session(s: DbSession, user: User, client: str, moment: datetime) -> str:
    """The token of a new session of ``user``, who has just proved who they are (the
    name's failed sign-ins forgotten, sessions long expired deleted, the sign-in audited)."""
    since = moment - FAILURE_WINDOW
    s.execute(
        delete(LoginAttempt).where((LoginAttempt.name == user.name) | (LoginAttempt.at < since))
    )
    token = secrets.token_urlsafe(32)
    s.add(Session(token_hash=_token_hash(token), user_id=user.id, csrf=new_csrf()))
    s.execute(delete(Session).where(Session.created < moment - LIFETIME - KEEP_EXPIRED))
    audit(s, user.name, "sign-in", user.name, client)
    return token


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
    full_name: str = ""
    title: str = ""

    def may(self, permission: str) -> bool:
        return may(self.role, permission)


TOUCH = timedelta(seconds=60)  # a session's last use is written at most this often


def visitor(db: Sessions, token: str | None) -> Visitor | None:
    """The session's user (a use keeps it alive), or None when there is no such session.

    Checked on every request: past its idle or absolute expiry a session is not live
    (its drafts may still be saved for ``KEEP_EXPIRED``); past that it is deleted."""
    if not token:
        return None
    moment = now()
    with db() as s:
        row = s.get(Session, _token_hash(token))
        user = s.get(User, row.user_id) if row is not None else None
    if row is None or user is None or user.removed is not None:
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
    return Visitor(user.id, user.name, user.role, row.csrf, live, user.full_name, user.title)


def sign_out(db: Sessions, token: str | None) -> None:
    if token:
        with db.begin() as s:
            s.execute(delete(Session).where(Session.token_hash == _token_hash(token)))


def token_of_user(db: Sessions, user_id: int, given: Any) -> bool:
    """Whether ``given`` is the CSRF token of any session of this user (live or kept for
    saving): only that user's pages carry it."""
    if not given:
        return False
    with db() as s:
        tokens = list(s.scalars(select(Session.csrf).where(Session.user_id == user_id)))
    return any(same_token(token, given) for token in tokens)


def new_csrf() -> str:
    return secrets.token_urlsafe(32)


def same_token(expected: Any, given: Any) -> bool:
    """Constant-time comparison of a CSRF token with what a form or cookie carried (any
    text, even non-ASCII, compares as UTF-8 bytes: a forged value is refused, not a 500)."""
    if not expected or not given:
        return False
    return hmac.compare_digest(str(expected).encode("utf-8"), str(given).encode("utf-8"))
