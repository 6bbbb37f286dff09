"""Each user's calendar feed (RFC 5545, written by the icalendar library) at a secret,
revocable address: the calendar of docgen.register.due as all-day events, so an officer
sees corrective-action dates and reinspections in the calendar already on the phone.

The secret is made once and shown once; the register keeps only its SHA-256. A new
secret revokes the user's earlier ones; a revoked or unknown secret serves nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from icalendar import Calendar, Event
from sqlalchemy import select, update

from docgen.register import db
from docgen.register.db import RegisterError, guarded
from docgen.register.due import Due
from docgen.register.models import CalendarToken

PRODUCT = "-//docgen//stormwater enforcement calendar//EN"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token(reg: object, user: str) -> str:
    """A new feed secret for ``user`` (shown once); the user's earlier ones are revoked."""
    token = secrets.token_urlsafe(32)
    now = datetime.now(UTC)
    with guarded(reg.url), db.write_session(reg.engine) as session:  # type: ignore[attr-defined]
        session.execute(
            update(CalendarToken)
            .where(CalendarToken.user_name == user, CalendarToken.revoked_at.is_(None))
            .values(revoked_at=now)
        )
        session.add(CalendarToken(user_name=user, token_sha256=digest(token), created_at=now))
    return token


def revoke(reg: object, user: str) -> int:
    """Revoke every feed secret of ``user``; how many were live."""
    with guarded(reg.url), db.write_session(reg.engine) as session:  # type: ignore[attr-defined]
        done = session.execute(
            update(CalendarToken)
            .where(CalendarToken.user_name == user, CalendarToken.revoked_at.is_(None))
            .values(revoked_at=datetime.now(UTC))
        )
        return done.rowcount or 0


def user_of(reg: object, token: str) -> str:
    """The user whose live secret ``token`` is; RegisterError for any other."""
    with guarded(reg.url), db.read_session(reg.engine) as session:  # type: ignore[attr-defined]
        found = session.scalars(
            select(CalendarToken).where(
                CalendarToken.token_sha256 == digest(token), CalendarToken.revoked_at.is_(None)
            )
        ).first()
    if found is None:
        raise RegisterError("no calendar at this address (revoked, or never made)")
    return found.user_name


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
    return feed.to_ical()
