"""Who may sign in: users added, renamed in full, given a new password or role, unlocked,
removed (their drafts kept for an administrator to hand on). Every change is an audit
row naming who made it (``cli`` for the command line) and whom it is about.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

from docgen.desk.auth import ROLES, hashed, password_problem
from docgen.desk.database import AuditEntry, Draft, LoginAttempt, Session, User, now
from docgen.errors import DocgenError

MAX_DETAIL = 200  # characters of a full name or title


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


def _name_problem(name: str) -> str | None:
    name = name.strip()
    if not name or len(name) > 100 or any(c.isspace() or not c.isprintable() for c in name):
        return "user name: one word of up to 100 printable characters, no spaces"
    return None


def _role_problem(role: str) -> str | None:
    return None if role in ROLES else f"role {role!r}: choose {', '.join(ROLES)}"


def _detail_problem(label: str, value: str) -> str | None:
    value = " ".join(value.split())
    if len(value) > MAX_DETAIL or any(not c.isprintable() for c in value):
        return f"{label}: at most {MAX_DETAIL} printable characters"
    return None


def _refuse(*problems: str | None) -> None:
    """Every problem found at once, one a line (none: nothing to refuse)."""
    found = [p for p in problems if p]
    if found:
        raise DocgenError("\n".join(found))


def _checked_role(role: str) -> str:
    _refuse(_role_problem(role))
    return role


def _checked_password(password: str, name: str) -> str:
    _refuse(password_problem(password, name))
    return password


def _user(s: DbSession, name: str) -> User:
    user = s.scalar(select(User).where(User.name == name, User.removed.is_(None)))
    if user is None:
        raise DocgenError(f"no user {name!r}")
    return user


def add_user(
    db: sessionmaker,
    name: str,
    role: str,
    password: str,
    *,
    full_name: str = "",
    title: str = "",
    by: str = "cli",
) -> User:
    _refuse(
        _name_problem(name),
        _role_problem(role),
        password_problem(password, name.strip()),
        _detail_problem("full name", full_name),
        _detail_problem("title", title),
    )
    name = name.strip()
    full_name, title = " ".join(full_name.split()), " ".join(title.split())
    with db.begin() as s:
        found = s.scalar(select(User).where(User.name == name))
        if found is not None and found.removed is None:
            raise DocgenError(f"user {name!r} already exists")
        if found is not None:
            raise DocgenError(
                f"user {name!r} was removed and keeps their drafts; choose another name"
            )
        user = User(
            name=name, role=role, password_hash=hashed(password), full_name=full_name, title=title
        )
        s.add(user)
        audit(s, by, "user added", name, detail=f"role {role}")
    return user


def list_users(db: sessionmaker) -> list[User]:
    """The users who may sign in, by name."""
    with db() as s:
        return list(s.scalars(select(User).where(User.removed.is_(None)).order_by(User.name)))


@dataclass(frozen=True)
class Removed:
    """A removed user whose unissued drafts are kept."""

    name: str
    removed: datetime
    drafts: int


def removed_with_drafts(db: sessionmaker) -> list[Removed]:
    with db() as s:
        rows = s.execute(
            select(User.name, User.removed, func.count(Draft.id))
            .join(Draft, Draft.user_id == User.id)
            .where(User.removed.is_not(None), Draft.issued_as.is_(None))
            .group_by(User.id, User.name, User.removed)
            .order_by(User.name)
        ).all()
    return [Removed(*row) for row in rows]


def remove_user(db: sessionmaker, name: str, *, by: str = "cli") -> int:
    """Remove user ``name``: signed out, no sign-in again; their drafts are kept (the
    number of unissued ones is returned) until an administrator hands them on."""
    with db.begin() as s:
        user = _user(s, name)
        s.execute(delete(Session).where(Session.user_id == user.id))
        user.removed = now()
        kept = s.scalar(
            select(func.count(Draft.id)).where(Draft.user_id == user.id, Draft.issued_as.is_(None))
        )
        audit(s, by, "user removed", name, detail=f"{kept} unissued drafts kept")
    return kept or 0


def transfer_drafts(db: sessionmaker, source: str, target: str, *, by: str = "cli") -> int:
    """Hand a removed (or any) user's unissued drafts to ``target``; how many moved."""
    with db.begin() as s:
        giver = s.scalar(select(User).where(User.name == source))
        if giver is None:
            raise DocgenError(f"no user {source!r}")
        taker = _user(s, target)
        moved = s.execute(
            update(Draft)
            .where(Draft.user_id == giver.id, Draft.issued_as.is_(None))
            .values(user_id=taker.id)
        ).rowcount
        audit(s, by, "drafts transferred", source, detail=f"{moved} to {target}")
    return moved


def set_password(db: sessionmaker, name: str, password: str, *, by: str = "cli") -> None:
    """A new password for ``name``; every session of theirs ends."""
    _checked_password(password, name)
    with db.begin() as s:
        user = _user(s, name)
        user.password_hash = hashed(password)
        s.execute(delete(Session).where(Session.user_id == user.id))
        audit(s, by, "password changed", name)


def set_role(db: sessionmaker, name: str, role: str, *, by: str = "cli") -> None:
    _checked_role(role)
    with db.begin() as s:
        user = _user(s, name)
        before, user.role = user.role, role
        s.execute(delete(Session).where(Session.user_id == user.id))
        audit(s, by, "role changed", name, detail=f"{before} to {role}")


def set_details(
    db: sessionmaker, name: str, full_name: str, title: str, *, by: str = "cli"
) -> None:
    """The full name and title documents print for ``name`` (a form's officer)."""
    _refuse(_detail_problem("full name", full_name), _detail_problem("title", title))
    full_name, title = " ".join(full_name.split()), " ".join(title.split())
    with db.begin() as s:
        user = _user(s, name)
        user.full_name, user.title = full_name, title
        audit(s, by, "details changed", name, detail=f"{full_name}, {title}".strip(", "))


def unlock(db: sessionmaker, name: str, *, by: str = "cli") -> int:
    """Forget the failed sign-ins of ``name`` (its waits end); how many were forgotten."""
    with db.begin() as s:
        _user(s, name)
        forgotten = s.execute(delete(LoginAttempt).where(LoginAttempt.name == name)).rowcount
        audit(s, by, "unlocked", name, detail=f"{forgotten} failures forgotten")
    return forgotten


def audit_rows(db: sessionmaker, limit: int = 200) -> list[AuditEntry]:
    with db() as s:
        return list(s.scalars(select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)))
