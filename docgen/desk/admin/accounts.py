"""Who may sign in: users added, renamed in full, given a new password or role, unlocked,
removed (every standing credential of theirs ended at once; their drafts kept for an
administrator to hand on); a developer's account bound to the sites it acts for. Every
change is an audit row naming who made it (``cli`` for the command line) and whom it is
about.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session as DbSession

from docgen.desk.base.auth import ROLES, SITE_BOUND, hashed, password_problem
from docgen.desk.base.database import (
    AccountEvent,
    Draft,
    LoginAttempt,
    Session,
    Sessions,
    User,
    UserSite,
    account_events,
    audit,
    now,
)
from docgen.errors import DocgenError
from docgen.register.reading import feed
from docgen.register.sites import invitations
from docgen.register.storage.models import CertificationSite

MAX_DETAIL = 200  # characters of a full name or title


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


def _sites_problem(s: DbSession, role: str, sites: list[int]) -> str | None:
    """What is wrong with binding ``sites`` to an account of ``role``: a developer acts for
    one site at least, each one of the register's; no other role is bound to sites."""
    if role not in SITE_BOUND:
        return f"sites: a {role} sees every site; only a developer's account is given sites"
    if not sites:
        return "sites: a developer's account acts for one site at least; give its number"
    unknown = [str(n) for n in sites if s.get(CertificationSite, n) is None]
    if unknown:
        return (
            f"sites: no site {', '.join(unknown)} in this register (`docgen certify site` "
            "adds one; the desk's Certifications page lists them)"
        )
    return None


def site_numbers(sites: Iterable[int | str]) -> list[int]:
    """Site numbers as given (text from a form: digits, separated by commas or spaces)."""
    numbers = []
    for given in sites:
        for word in str(given).replace(",", " ").split():
            if not (word.isascii() and word.isdigit() and len(word) <= 9):
                raise DocgenError(f"sites: {word[:20]!r} is not a site's number")
            numbers.append(int(word))
    return sorted(set(numbers))


def sites_of(db: Sessions, user_id: int) -> frozenset[int]:
    """The sites a developer's account acts for (none for any other role)."""
    with db() as s:
        return frozenset(s.scalars(select(UserSite.site_id).where(UserSite.user_id == user_id)))


def bound_sites(db: Sessions) -> dict[str, list[int]]:
    """Each developer's sites, by user name."""
    with db() as s:
        rows = s.execute(
            select(User.name, UserSite.site_id)
            .join(UserSite, UserSite.user_id == User.id)
            .order_by(User.name, UserSite.site_id)
        ).all()
    found: dict[str, list[int]] = {}
    for name, site in rows:
        found.setdefault(name, []).append(site)
    return found


def set_sites(
    db: Sessions,
    name: str,
    add: Iterable[int | str] = (),
    remove: Iterable[int | str] = (),
    *,
    by: str = "cli",
) -> list[int]:
    """Bind a developer's account to more sites, or fewer (one at least stays); its sites
    after the change."""
    added, removed = site_numbers(add), site_numbers(remove)
    with db.begin() as s:
        user = _user(s, name)
        have = set(s.scalars(select(UserSite.site_id).where(UserSite.user_id == user.id)))
        after = sorted((have | set(added)) - set(removed))
        _refuse(_sites_problem(s, user.role, after))
        s.execute(delete(UserSite).where(UserSite.user_id == user.id))
        s.add_all(UserSite(user_id=user.id, site_id=n) for n in after)
        audit(s, by, "sites changed", name, detail=f"sites {', '.join(map(str, after))}")
    return after


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
    db: Sessions,
    name: str,
    role: str,
    password: str,
    *,
    full_name: str = "",
    title: str = "",
    sites: Iterable[int | str] = (),
    by: str = "cli",
) -> User:
    """A new user; a developer's account with the sites it acts for (``sites``)."""
    numbers = site_numbers(sites)
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
        if role in SITE_BOUND or numbers:
            _refuse(_sites_problem(s, role, numbers))
        user = User(
            name=name, role=role, password_hash=hashed(password), full_name=full_name, title=title
        )
        s.add(user)
        s.flush()
        s.add_all(UserSite(user_id=user.id, site_id=n) for n in numbers)
        bound = f", sites {', '.join(map(str, numbers))}" if numbers else ""
        audit(s, by, "user added", name, detail=f"role {role}{bound}")
    return user


def list_users(db: Sessions) -> list[User]:
    """The users who may sign in, by name."""
    with db() as s:
        return list(s.scalars(select(User).where(User.removed.is_(None)).order_by(User.name)))


@dataclass(frozen=True)
class Removed:
    """A removed user whose unissued drafts are kept."""

    name: str
    removed: datetime
    drafts: int


def removed_with_drafts(db: Sessions) -> list[Removed]:
    with db() as s:
        rows = s.execute(
            select(User.name, User.removed, func.count(Draft.id))
            .join(Draft, Draft.user_id == User.id)
            .where(User.removed.is_not(None), Draft.issued_as.is_(None))
            .group_by(User.id, User.name, User.removed)
            .order_by(User.name)
        ).all()
    return [Removed(name, gone, drafts) for name, gone, drafts in rows if gone is not None]


def remove_user(db: Sessions, name: str, *, by: str = "cli") -> int:
    """Remove user ``name``, ending in one transaction everything that let them in: their
    sessions, their calendar feed addresses, a developer's sites and the invitation links
    it made that no firm has signed yet. No sign-in again. Their drafts are kept (the
    number of unissued ones is returned) until an administrator hands them on."""
    with db.begin() as s:
        user = _user(s, name)
        s.execute(delete(Session).where(Session.user_id == user.id))
        s.execute(delete(UserSite).where(UserSite.user_id == user.id))
        feeds = feed.revoke_in(s, name)
        links = sum(
            invitations.revoke_made_by(s, invitations.made_as(name, role), by)
            for role in invitations.ENDS_WITH_ACCOUNT
        )
        user.removed = now()
        kept = s.scalar(
            select(func.count(Draft.id)).where(Draft.user_id == user.id, Draft.issued_as.is_(None))
        )
        audit(
            s,
            by,
            "user removed",
            name,
            detail=f"{kept} unissued drafts kept; {feeds} calendar addresses and {links} "
            "invitation links revoked",
        )
    return kept or 0


def transfer_drafts(db: Sessions, source: str, target: str, *, by: str = "cli") -> int:
    """Hand a removed (or any) user's unissued drafts to ``target``; how many moved."""
    with db.begin() as s:
        giver = s.scalar(select(User).where(User.name == source))
        if giver is None:
            raise DocgenError(f"no user {source!r}")
        taker = _user(s, target)
        moved = len(
            s.execute(
                update(Draft)
                .where(Draft.user_id == giver.id, Draft.issued_as.is_(None))
                .values(user_id=taker.id)
                .returning(Draft.id)
            ).all()
        )
        audit(s, by, "drafts transferred", source, detail=f"{moved} to {target}")
    return moved


def set_password(db: Sessions, name: str, password: str, *, by: str = "cli") -> None:
    """A new password for ``name``; every session of theirs ends."""
    _checked_password(password, name)
    with db.begin() as s:
        user = _user(s, name)
        user.password_hash = hashed(password)
        s.execute(delete(Session).where(Session.user_id == user.id))
        audit(s, by, "password changed", name)


def set_role(db: Sessions, name: str, role: str, *, by: str = "cli") -> None:
    """Another role for ``name`` (their sessions end). A developer's account is added with
    its sites, never made from another; one leaving the role loses its sites."""
    _checked_role(role)
    with db.begin() as s:
        user = _user(s, name)
        if role in SITE_BOUND and user.role not in SITE_BOUND:
            raise DocgenError(
                f"role {role!r}: a developer's account is added with the sites it acts for "
                f"(docgen users add NAME --role {role} --site SITE); {name} stays {user.role}"
            )
        before, user.role = user.role, role
        s.execute(delete(Session).where(Session.user_id == user.id))
        if role not in SITE_BOUND:
            s.execute(delete(UserSite).where(UserSite.user_id == user.id))
        audit(s, by, "role changed", name, detail=f"{before} to {role}")


def set_details(db: Sessions, name: str, full_name: str, title: str, *, by: str = "cli") -> None:
    """The full name and title documents print for ``name`` (a form's officer)."""
    _refuse(_detail_problem("full name", full_name), _detail_problem("title", title))
    full_name, title = " ".join(full_name.split()), " ".join(title.split())
    with db.begin() as s:
        user = _user(s, name)
        user.full_name, user.title = full_name, title
        audit(s, by, "details changed", name, detail=f"{full_name}, {title}".strip(", "))


def unlock(db: Sessions, name: str, *, by: str = "cli") -> int:
    """Forget the failed sign-ins of ``name`` (its waits end); how many were forgotten."""
    with db.begin() as s:
        _user(s, name)
        forgotten = len(
            s.execute(
                delete(LoginAttempt).where(LoginAttempt.name == name).returning(LoginAttempt.id)
            ).all()
        )
        audit(s, by, "unlocked", name, detail=f"{forgotten} failures forgotten")
    return forgotten


def audit_rows(db: Sessions, limit: int = 200) -> list[AccountEvent]:
    """The newest sign-ins and changes to accounts (the register's audit trail)."""
    with db() as s:
        return account_events(s, limit)
