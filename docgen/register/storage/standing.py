"""Service as the register keeps it: derived from the recorded events, never typed twice.

LAW.md § 2, read here once for every reader (history, verify, the desk, the lifting
notice, the filters, the model of the matter):

- a service event *stands* unless its mailing came back undelivered: "a returned mailing
  completes no service, so the appeal period does not run from it, the register shows the
  person as not served";
- an event is *complete* on the day the pack's service rule gives (delivery; mail: the
  later of receipt and mailing + 5 days; posting: the later of posting and the copy's
  mailing + 5 days), the day of receipt read from the return receipt when it came back;
- a notice's *kept deadline* is the latest any recorded service on the landowner ever
  gave ("a deadline, once stated in a document or the register, is never shortened by a
  later event"), and none while no service on the landowner stands ("a deadline stated
  before the return is not shortened, it is withdrawn until service is complete").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from docgen.documents.affidavit_of_service import MAIL, MEANS, persons_served
from docgen.law.deadlines import long_date, service_day
from docgen.law.pack import Pack
from docgen.register.storage.models import RECEIPT, RETURNED


class Outcome(Protocol):
    """What came back after a mailing, as read here (a MailOutcome, or the calendar's row)."""

    @property
    def outcome(self) -> str: ...
    @property
    def date(self) -> dt.date: ...
    @property
    def signed_by(self) -> str | None: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def appeal_deadline(self) -> dt.date | None: ...


class Event(Protocol):
    """A service event, as read here (a ServiceEvent, or the calendar's plain row)."""

    @property
    def id(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def date(self) -> dt.date: ...
    @property
    def received(self) -> dt.date | None: ...
    @property
    def received_by(self) -> str | None: ...
    @property
    def served_on(self) -> str | None: ...
    @property
    def appeal_deadline(self) -> dt.date | None: ...
    @property
    def outcome(self) -> Outcome | None: ...


def returned(event: Event) -> bool:
    """The mailing came back undelivered: it completes no service."""
    return event.outcome is not None and event.outcome.outcome == RETURNED


def received(event: Event) -> date | None:
    """The day of receipt: recorded with the mailing, or from the return receipt since."""
    if event.received is not None:
        return event.received
    if event.outcome is not None and event.outcome.outcome == RECEIPT:
        return event.outcome.date
    return None


def signed_by(event: Event) -> str | None:
    if event.received_by:
        return event.received_by
    if event.outcome is not None and event.outcome.outcome == RECEIPT:
        return event.outcome.signed_by
    return None


def mailed_with(event: Event, events: Sequence[Event]) -> date | None:
    """For a posting, the day of the copy mailed to the same person, recorded before it."""
    if event.method != "posting":
        return None
    days = [
        e.date
        for e in events
        if e.method in MAIL and e.served_on == event.served_on and e.id < event.id
    ]
    return max(days, default=None)


def complete(event: Event, events: Sequence[Event], pack: Pack) -> date | None:
    """The day service by ``event`` was complete (the pack's rule), or None: returned."""
    if returned(event):
        return None
    # the day alone (not the rule's sentence): a town's Due list reads thousands of events
    return service_day(
        MEANS[event.method], event.date, received(event), mailed_with(event, events), pack
    )


def stated(event: Event) -> list[date]:
    """Every deadline the register stated from ``event``: at recording, and with its receipt."""
    days = [event.appeal_deadline] if event.appeal_deadline else []
    if event.outcome is not None and event.outcome.appeal_deadline:
        days.append(event.outcome.appeal_deadline)
    return days


def gives(event: Event) -> date | None:
    """The deadline ``event`` gives now (None: it starts none, or it was returned)."""
    if returned(event):
        return None
    return max(stated(event), default=None)


def kept_deadline(events: Sequence[Event]) -> date | None:
    """The notice's one appeal deadline: the latest any service on the landowner ever gave,
    while one stands; None (withdrawn) while none does."""
    if not any(stated(e) and not returned(e) for e in events):
        return None
    return max(day for e in events for day in stated(e))


@dataclass(frozen=True)
class PersonServed:
    """One person a served document was sent to, and whether service on them is complete."""

    name: str
    role: str | None
    complete: date | None  # the earliest day service standing on them was complete
    returned: tuple[str, ...] = ()  # their mailings returned: "2026-09-21 (unclaimed)"


def persons(doc: Any, pack: Pack) -> tuple[PersonServed, ...]:
    """Each person ``doc`` was sent to, the landowner first, with their service."""
    return persons_of(doc.case, list(doc.services), pack)


def persons_of(
    case: dict[str, Any], events: Sequence[Event], pack: Pack
) -> tuple[PersonServed, ...]:
    """Each person a document of ``case`` was sent to, with their service by ``events``
    (its recorded events, oldest first): for a reader that has the rows, not the document."""
    out = []
    for index, person in enumerate(persons_served(case)):
        names = (person["name"], None) if index == 0 else (person["name"],)  # None: landowner
        theirs = [e for e in events if e.served_on in names]
        days = [d for e in theirs if (d := complete(e, events, pack)) is not None]
        back = tuple(
            f"{came.date.isoformat()} ({came.reason})"
            for e in theirs
            if returned(e) and (came := e.outcome) is not None
        )
        out.append(PersonServed(person["name"], person.get("role"), min(days, default=None), back))
    return tuple(out)


def served_on(doc: Any, pack: Pack) -> date | None:
    """The day the register keeps as the document's service: when service on the landowner
    was complete, or else the earliest complete service on anyone (None: not served)."""
    return served_from(persons(doc, pack))


def served_from(people: tuple[PersonServed, ...]) -> date | None:
    """The day the register keeps as the service of a document sent to ``people``."""
    if not people:
        return None
    if people[0].complete is not None:
        return people[0].complete
    return min((p.complete for p in people if p.complete), default=None)


def schedule(case: dict[str, Any]) -> list[tuple[str, date]]:
    """The dates a served document sets the person it is served on, each with what it is
    for: each remedial measure's (§ 228-79C(1)(d)) and each corrective action's
    (§ 228-79A(1), a reading)."""
    dates = [
        (f"the remedial measure '{r['measure']}'", date.fromisoformat(str(r["due"])))
        for r in case.get("remedies") or []
        if r.get("due")
    ]
    dates += [
        (f"the corrective action of deficiency {d['item']}", date.fromisoformat(str(d["due"])))
        for d in case.get("deficiencies") or []
        if d.get("due")
    ]
    return dates


def ran_out(number: str, case: dict[str, Any], served: date | None) -> list[str]:
    """A warning for each date of ``case``'s schedule that ran out before service of
    document ``number`` was complete on ``served``: a schedule the person never had, so
    never overdue; the date is corrected (a later one), never enforced (LAW.md §§ 2, 11)."""
    if served is None:
        return []
    return [
        f"{number}: {what} was due {long_date(day)}, before service was complete on "
        f"{long_date(served)}; the person served never had that date, so it is not overdue: "
        "issue a correction (docgen supersede) with a date after service"
        for what, day in schedule(case)
        if day < served
    ]
