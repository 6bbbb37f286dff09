"""Each user's calendar feed (RFC 5545, written by the icalendar library) at a secret,
revocable address: the calendar of docgen.register.reading.due as all-day events, so an officer
sees corrective-action dates and reinspections in the calendar already on the phone.

The secret is made once and shown once; the register keeps only its SHA-256. A new
secret revokes the user's earlier ones; a revoked or unknown secret serves nothing, nor
does the secret of a user who may no longer sign in to the desk (removing a user revokes
their secrets in the same transaction: docgen.desk.admin.accounts).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from icalendar import Calendar, Event
from sqlalchemy import Select, select, update
from sqlalchemy.orm import Session

from docgen.register.reading.due import Due
from docgen.register.storage import db
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import CalendarToken, DeskUser
from docgen.register.storage.opened import Opened

PRODUCT = "-//docgen//stormwater enforcement calendar//EN"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token(reg: Opened, user: str) -> str:
    """A new feed secret for ``user`` (shown once); the user's earlier ones are revoked.
    Only a user who may sign in to the desk has a feed."""
    token = secrets.token_urlsafe(32)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        if session.scalar(_active(user)) is None:
            raise RegisterError(
                f"{user!r} is not a user of the desk (docgen users list names them): a "
                "calendar feed is made only for someone who may sign in; nothing was made"
            )
        revoke_in(session, user)
        session.add(
            CalendarToken(user_name=user, token_sha256=digest(token), created_at=datetime.now(UTC))
        )
    return token


def _active(user: str) -> Select[int]:
    """The id of desk user ``user`` while they may sign in (none once removed)."""
    return select(DeskUser.id).where(DeskUser.name == user, DeskUser.removed.is_(None))


def revoke_in(session: Session, user: str) -> int:
    """Revoke every feed secret of ``user`` in the caller's write transaction; how many
    were live."""
    done = session.execute(
        update(CalendarToken)
        .where(CalendarToken.user_name == user, CalendarToken.revoked_at.is_(None))
        .values(revoked_at=datetime.now(UTC))
        .returning(CalendarToken.id)
    )
    return len(done.all())


def revoke(reg: Opened, user: str) -> int:
    """Revoke every feed secret of ``user``; how many were live."""
    with guarded(reg.url), db.write_session(reg.engine) as session:
        return revoke_in(session, user)


def user_of(reg: Opened, token: str) -> str:
    """The user whose live secret ``token`` is, while that user may sign in to the desk;
    RegisterError for any other (revoked, unknown, or its user removed: alike)."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        found = session.scalar(
            select(CalendarToken.user_name)
            .join(DeskUser, DeskUser.name == CalendarToken.user_name)
            .where(
                CalendarToken.token_sha256 == digest(token),
                CalendarToken.revoked_at.is_(None),
                DeskUser.removed.is_(None),
            )
        )
    if found is None:
        raise RegisterError("no calendar at this address (revoked, or never made)")
    return found


def ics(items: Iterable[Due], name: str, time_zone: str, made: date) -> bytes:
    """The items as an iCalendar of all-day events (the municipality's dates)."""
    feed = Calendar()
    feed.add("prodid", PRODUCT)
    feed.add("version", "2.0")
    feed.add("x-wr-calname", name)
    feed.add("x-wr-timezone", time_zone)
    stamp = datetime(made.year, made.month, made.day, tzinfo=UTC)
    for item in items:
        event = Event()
        key = f"{item.category}|{item.number or ''}|{item.what}|{item.site}"
        event.add("uid", hashlib.sha256(key.encode("utf-8")).hexdigest()[:32] + "@docgen")
        event.add("dtstamp", stamp)
        event.add("dtstart", item.day)
        event.add("dtend", item.day + timedelta(days=1))
        late = "OVERDUE: " if item.overdue else ""
        event.add("summary", f"{late}{item.category}: {item.what}")
        where = f"{item.site}\n" if item.site else ""
        note = f"\n{item.note}" if item.note else ""
        event.add("description", f"{where}{item.what} ({item.provision}){note}")
        if item.site:
            event.add("location", item.site)
        event.add("categories", [item.category])
        feed.add_component(event)
    ical: bytes = feed.to_ical()  # icalendar leaves its return unannotated
    return ical
