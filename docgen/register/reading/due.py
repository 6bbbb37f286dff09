"""The matter's calendar, derived from the register and never kept twice (LAW.md § 12).

What is due: each open corrective action of a notice of deficiency (§ 228-79A(1), its
date a reading), the remedies of a notice of violation still pending (§ 228-79C(1)(d)), the
last day to appeal a notice served (§ 228-79C(1)(f)), each reinspection asked for and not
yet made, and the next inspection a site's log book is due (§ 228-78D(2); § 301-73A(2));
what is in effect: stop-work orders served and not lifted (§ 228-79C(2)), the halt of
§ 228-79A(1) while a served notice has deficiencies open, an order preventing occupancy
served and not released (§ 228-79C(5)); and the date a notice requiring restoration set,
until the cost of the corrective action is stated (§ 228-79C(6)); a lien unpaid, with its
balance, from the notice of lien until its release (§ 228-79C(6)). Each item has its provision.
Overdue items first, then by day. "Today" is each municipality's own date (its time
zone), and a day that is a Saturday, Sunday or public holiday says so (GCL §§ 24, 25-a).

Whose it is (a reading: the article assigns no item to a person; the issue asks for a
calendar per officer or clerk): each item is for the users who recorded what it comes
from, as the register keeps them (``recorded_by``, never a second list): a notice's
remedies, appeal deadline and order for whoever issued it; a notice of deficiency's
corrective actions, halt and reinspections asked for for whoever issued it and whoever
recorded the inspection it was made from (the officer who inspected reinspects); a log
book's next inspection for whoever opened it. ``calendar(user=...)`` is one user's own;
without a user it is everything (the clerk's view).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, aliased

from docgen.documents import get_kind, kinds_with
from docgen.law.deadlines import non_business_day
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import PackReader
from docgen.register.after_notice.appeals import Appeal, appeals
from docgen.register.matter.extended import Dates, as_extended, extended
from docgen.register.matter.inspections import (
    BARE,
    INSPECTION,
    approvals,
    open_deficiencies,
)
from docgen.register.sites.logbook import next_due
from docgen.register.storage import db
from docgen.register.storage.db import guarded
from docgen.register.storage.models import (
    Document,
    LienPayment,
    MailOutcome,
    Offense,
    ReinspectionRequest,
    ServiceEvent,
    Site,
)
from docgen.register.storage.opened import Opened
from docgen.register.storage.standing import PersonServed, kept_deadline, persons, served_from


@dataclass(frozen=True)
class Due:
    day: date  # the day it is due; for what is in effect, the day it took effect
    what: str
    category: str
    site: str
    provision: str
    jurisdiction: str
    number: str | None = None  # the document to act on
    ongoing: bool = False  # in effect until lifted or approved: not a date to meet
    overdue: bool = False
    note: str | None = None  # the day is a Saturday, Sunday or public holiday
    lapses: bool = False  # the other party's day (a last day to appeal): once past, dropped
    users: tuple[str, ...] = ()  # whose it is: who recorded what it comes from (sorted)
    # The person served never had this date (it ran out before service was complete, or
    # the document is not served): never overdue, and ``warning`` says what to do.
    unheld: bool = False
    warning: str | None = None

    def on(self, overdue: bool, note: str | None) -> Due:
        """The item as of today: overdue or not, its day's note. A copy of its fields with
        those two changed, made without the frozen class's __init__ (which sets each field
        through object.__setattr__, three times slower: a town's calendar has thousands)."""
        item = object.__new__(Due)
        item.__dict__.update(self.__dict__, overdue=overdue, note=note)
        return item


def site_line(site: Site | None) -> str:
    if site is None:
        return ""
    return "; ".join(p for p in (site.address, site.description) if p)


def calendar(
    reg: Opened,
    site: str | None = None,
    through: date | None = None,
    jurisdictions: Iterable[str] | None = None,
    user: str | None = None,
) -> list[Due]:
    """Everything due or in effect, overdue first; ``site``: only sites whose address or
    description contains it; ``through``: dated items up to that day (what is in effect
    is always listed); ``user``: only that user's own (:attr:`Due.users`)."""
    packs = PackReader()  # each pack and its settings read once for the whole calendar
    with db.uncollected():  # a town's calendar: some 100,000 objects, in no cycle
        return _calendar(reg, packs, site, through, jurisdictions, user)


def _calendar(
    reg: Opened,
    packs: PackReader,
    site: str | None,
    through: date | None,
    jurisdictions: Iterable[str] | None,
    user: str | None,
) -> list[Due]:
    with guarded(reg.url), db.read_session(reg.engine) as session:
        items = list(_items(session, packs))
    todays: dict[str, date] = {}
    notes: dict[tuple[str, date], str | None] = {}  # a town's items fall on a few hundred days
    wanted = " ".join(site.split()).casefold() if site else None
    allowed = set(jurisdictions) if jurisdictions is not None else None
    out = []
    for item in items:
        if allowed is not None and item.jurisdiction not in allowed:
            continue
        if user is not None and user not in item.users:
            continue
        if wanted and wanted not in item.site.casefold():
            continue
        if through is not None and not item.ongoing and item.day > through:
            continue
        pack = packs(item.jurisdiction)
        today = todays.get(item.jurisdiction) or todays.setdefault(
            item.jurisdiction, municipal_today(pack)
        )
        if item.lapses and item.day < today:
            continue
        note = None
        if pack.enforcement and not item.ongoing:
            key = (item.jurisdiction, item.day)
            note = (
                notes[key]
                if key in notes
                else notes.setdefault(key, non_business_day(item.day, pack))
            )
        late = not item.ongoing and not item.unheld and item.day < today
        out.append(item.on(overdue=late, note=note))
    return sorted(out, key=lambda i: (not i.overdue, i.ongoing, i.day, i.number or ""))


@dataclass(frozen=True)
class _Outcome:
    """What came back after a mailing, as docgen.register.storage.standing reads it."""

    outcome: str
    date: dt.date
    signed_by: str | None
    reason: str | None
    appeal_deadline: dt.date | None


@dataclass(frozen=True)
class _Event:
    """A service event, as docgen.register.storage.standing reads it."""

    id: int
    method: str
    date: dt.date
    received: dt.date | None
    received_by: str | None
    served_on: str | None
    appeal_deadline: dt.date | None
    outcome: _Outcome | None


@dataclass(frozen=True)
class _Notice:
    """A document the calendar reads (its case and service), read as plain rows: a town's
    register has thousands, and loading each as a Document with its service events,
    files and respondent took most of the calendar's time."""

    id: int
    number: str
    kind: str
    jurisdiction: str
    issued: date
    remedies_due: date | None
    recorded_by: str
    case: dict[str, Any]
    site: str
    services: list[_Event]


def _notices(session: Session, kinds: Iterable[str]) -> list[_Notice]:
    """The current documents of ``kinds`` (none superseded), oldest first, each with its
    service events (oldest first) and its site: two queries however many there are."""
    successor = aliased(Document)
    wanted = (~exists().where(successor.supersedes_id == Document.id), Document.kind.in_(kinds))
    events: dict[int, list[_Event]] = {}
    for (
        document_id,
        event_id,
        method,
        day,
        received,
        received_by,
        served_on,
        deadline,
        outcome,
        came_on,
        signed_by,
        reason,
        came_deadline,
    ) in session.execute(
        select(
            ServiceEvent.document_id,
            ServiceEvent.id,
            ServiceEvent.method,
            ServiceEvent.date,
            ServiceEvent.received,
            ServiceEvent.received_by,
            ServiceEvent.served_on,
            ServiceEvent.appeal_deadline,
            MailOutcome.outcome,
            MailOutcome.date,
            MailOutcome.signed_by,
            MailOutcome.reason,
            MailOutcome.appeal_deadline,
        )
        .join(Document, Document.id == ServiceEvent.document_id)
        .outerjoin(MailOutcome, MailOutcome.event_id == ServiceEvent.id)
        .where(*wanted)
        .order_by(ServiceEvent.id)
    ):
        came = (
            _Outcome(outcome, came_on, signed_by, reason, came_deadline)
            if outcome is not None
            else None
        )
        events.setdefault(document_id, []).append(
            _Event(event_id, method, day, received, received_by, served_on, deadline, came)
        )
    rows = session.execute(
        select(
            Document.id,
            Document.number,
            Document.kind,
            Document.jurisdiction,
            Document.issued,
            Document.remedies_due,
            Document.recorded_by,
            Document.case,
            Site.address,
            Site.description,
        )
        .outerjoin(Site, Site.id == Document.site_id)
        .where(*wanted)
        .order_by(Document.id)
    )
    return [
        _Notice(
            id_,
            number,
            kind,
            jurisdiction,
            issued,
            remedies_due,
            recorded_by,
            case,
            "; ".join(p for p in (address, description) if p),
            events.get(id_, []),
        )
        for (
            id_,
            number,
            kind,
            jurisdiction,
            issued,
            remedies_due,
            recorded_by,
            case,
            address,
            description,
        ) in rows
    ]


def _items(session: Session, packs: PackReader) -> Iterable[Due]:
    halting = kinds_with(halts=True)  # the notice of deficiency (§ 228-79A(1))
    liftable = kinds_with(liftable=True)
    holding = kinds_with(step="withholds")  # the order preventing occupancy (§ 228-79C(5))
    restoring = kinds_with(step="requires-restoration")  # § 228-79C(6)
    after = (*holding, *restoring)
    liening = kinds_with(step="liens")  # the notice of lien (§ 228-79C(6))
    rows = _notices(session, (*halting, *kinds_with(appealable=True), *liftable, *after, *liening))
    lifted = set(
        session.scalars(
            select(Document.about_id).where(Document.kind.in_(kinds_with(lifts=True)))
        ).all()
    )
    # An order preventing occupancy released in writing; a notice requiring restoration
    # whose cost the municipality has stated (its date passed and acted on).
    # A lien released (paid in full and its release issued).
    ended = (
        kinds_with(step="releases-hold")
        + kinds_with(step="states-cost")
        + kinds_with(step="releases-lien")
    )
    closed = set(session.scalars(select(Document.about_id).where(Document.kind.in_(ended))).all())
    pending = set(
        session.scalars(select(Offense.document_id).where(Offense.disposition == "pending")).all()
    )
    approved = approvals(session)
    whose = _owners(session)
    appealed = appeals(session)  # § 228-79C(1)(f): the appeals recorded, by notice
    later = extended(session)  # LAW.md §§ 11, 14: the dates as extended or decided, by notice
    paid = _paid(session)  # § 228-79C(6): what is paid on each lien, in cents
    for doc in rows:
        pack = packs(doc.jurisdiction)
        where, users = doc.site, whose(doc)
        if doc.kind in liening:  # not served: recorded with the County Clerk
            if doc.id not in closed:
                yield _unpaid(doc, paid.get(doc.id, 0), where, pack, users)
            continue
        people = persons(doc, pack)  # each person sent it, and their service
        served = served_from(people)  # the day the register keeps as its service
        if doc.kind in halting:
            yield from _needs_service(doc, people, where, pack, users)
            yield from _deficiency_items(
                session, doc, where, packs, approved, served, users, later.get(doc.id)
            )
        elif doc.kind in after:
            if doc.id not in closed:
                yield from _needs_service(doc, people, where, pack, users)
                yield from _after_notice(doc, doc.kind in holding, served, where, pack, users)
        elif doc.kind in liftable:
            # In effect from the day service was complete (LAW.md § 3), as the register
            # keeps it: never a mailing's raw date, and not while no service stands.
            if doc.id not in lifted:
                yield from _needs_service(doc, people, where, pack, users)
            if served is not None and doc.id not in lifted:
                yield Due(
                    served,
                    f"{doc.number}: in effect until lifted in writing",
                    "order in effect",
                    where,
                    pack.require(get_kind(doc.kind)),
                    doc.jurisdiction,
                    doc.number,
                    ongoing=True,
                    users=users,
                )
        else:
            yield from _needs_service(doc, people, where, pack, users)
            appeal = appealed.get(doc.id)
            reversed_ = appeal is not None and appeal.outcome == "reversed"
            if appeal is not None and appeal.pending:
                yield from _appeal_items(doc, appeal, where, pack, users)
            remedies_due = doc.remedies_due
            if doc.id in later:  # the earliest remedy's date, as extended
                remedies = as_extended(doc.case, later[doc.id]).get("remedies") or []
                remedies_due = min(date.fromisoformat(str(r["due"])) for r in remedies)
            if remedies_due is not None and doc.id in pending and not reversed_:
                held, warning = _held(remedies_due, served)
                yield Due(
                    remedies_due,
                    f"{doc.number}: remedial measures due from this day",
                    "remedy",
                    where,
                    packs.cite(doc.jurisdiction, "enforcement.elements.remedies"),
                    doc.jurisdiction,
                    doc.number,
                    users=users,
                    unheld=not held,
                    warning=warning,
                )
            deadline = kept_deadline(doc.services)  # the notice's one (LAW.md § 2)
            if deadline is not None and appeal is None:  # once appealed, no longer awaited
                yield Due(
                    deadline,
                    f"{doc.number}: last day to file a written notice of appeal",
                    "appeal deadline",
                    where,
                    packs.cite(doc.jurisdiction, "enforcement.elements.appeal"),
                    doc.jurisdiction,
                    doc.number,
                    lapses=True,
                    users=users,
                )
    yield from _reinspections_asked(session, whose, packs)
    yield from (
        Due(day, what, "log-book inspection", label, provision, jurisdiction, users=(opened,))
        for day, what, label, provision, jurisdiction, opened in next_due(session, packs)
    )


def _appeal_items(
    doc: _Notice, appeal: Appeal, where: str, pack: Pack, users: tuple[str, ...]
) -> Iterable[Due]:
    """A pending appeal (§ 228-79C(1)(f)): in effect from the day it was received until it
    is decided; and the hearing set, on its day (once past, the decision is awaited)."""
    assert appeal.received is not None
    filed = appeal.received.case["appeal"]
    on_time = "on time" if appeal.timing().on_time else "late"
    yield Due(
        date.fromisoformat(filed["received"]),
        f"{doc.number}: appeal pending, received {filed['received']} ({on_time}; "
        f"Acknowledgment No. {appeal.received.number})",
        "appeal pending",
        where,
        pack.cite("enforcement.appeal_days"),
        doc.jurisdiction,
        doc.number,
        ongoing=True,
        users=users,
    )
    if appeal.hearings:
        heard = appeal.hearings[-1].case["hearing"]
        yield Due(
            date.fromisoformat(heard["date"]),
            f"{doc.number}: hearing of the appeal at {heard['time']}, {heard['place']}; "
            "then its written decision",
            "appeal hearing",
            where,
            pack.cite("appeals.heard_by"),
            doc.jurisdiction,
            doc.number,
            users=users,
        )


def _after_notice(
    doc: _Notice, holds: bool, served: date | None, where: str, pack: Pack, users: tuple[str, ...]
) -> Iterable[Due]:
    """An order preventing occupancy in effect from the day service was complete until
    released in writing (§ 228-79C(5)); the date a notice requiring restoration set, the
    "reasonable time after notice" (§ 228-79C(6)), until the cost is stated."""
    if holds:
        if served is not None:
            yield Due(
                served,
                f"{doc.number}: occupancy prevented until released in writing",
                "occupancy prevented",
                where,
                pack.require(get_kind(doc.kind)),
                doc.jurisdiction,
                doc.number,
                ongoing=True,
                users=users,
            )
        return
    day = date.fromisoformat(doc.case["restore_by"])
    held, warning = _held(day, served)
    yield Due(
        day,
        f"{doc.number}: restoration due (the reasonable time after notice); then inspect",
        "restoration",
        where,
        pack.require(get_kind(doc.kind)),
        doc.jurisdiction,
        doc.number,
        users=users,
        unheld=not held,
        warning=warning,
    )


def _paid(session: Session) -> dict[int, int]:
    """The cents paid on each lien (its document's id)."""
    rows = session.execute(
        select(LienPayment.document_id, func.sum(LienPayment.amount_cents)).group_by(
            LienPayment.document_id
        )
    )
    return {row[0]: int(row[1] or 0) for row in rows}


def _unpaid(doc: _Notice, cents: int, where: str, pack: Pack, users: tuple[str, ...]) -> Due:
    """A lien "upon the property until paid" (§ 228-79C(6)): from the day the notice of
    lien is dated until its release is issued, with its balance."""
    owed = Decimal(str(doc.case["amount"])) - Decimal(cents) / 100
    return Due(
        doc.issued,
        f"{doc.number}: lien unpaid, balance ${owed:,.2f}",
        "lien unpaid",
        where,
        pack.require(get_kind(doc.kind)),
        doc.jurisdiction,
        doc.number,
        ongoing=True,
        users=users,
    )


def _held(day: date, served: date | None) -> tuple[bool, str | None]:
    """Whether the person served had ``day`` (a remedy's or a corrective action's date),
    the document's service being complete on ``served``: only when it was complete on or
    before that day (LAW.md §§ 2, 11: a schedule runs from service, and a date that ran out
    before it is one the person never had; while not served, none runs). When it ran out
    before service, the warning that says so."""
    if served is None:
        return False, None  # listed as needing service (_needs_service)
    if day >= served:
        return True, None
    return False, (
        f"due {day.isoformat()}, before service was complete on {served.isoformat()}: the "
        "person served never had this date, so it is not overdue; issue a correction with "
        "a date after service"
    )


def _needs_service(
    doc: _Notice,
    people: tuple[PersonServed, ...],
    where: str,
    pack: Pack,
    users: tuple[str, ...],
) -> Iterable[Due]:
    """The document, while no service stands on the person it is issued to (named first):
    it is listed as needing service from its issue day, with each mailing that came back
    (LAW.md § 2: a returned mailing completes no service, and the clerk serves again by
    another means)."""
    person = people[0]
    if person.complete is not None:
        return
    back = f"; mailing returned {', '.join(person.returned)}" if person.returned else ""
    yield Due(
        doc.issued,
        f"{doc.number}: not served on {person.name}{back}; serve it"
        + (" again by another means" if back else ""),
        "needs service",
        where,
        pack.require(get_kind(doc.kind)),
        doc.jurisdiction,
        doc.number,
        ongoing=True,
        users=users,
    )


def _owners(session: Session) -> Callable[[Document | _Notice], tuple[str, ...]]:
    """Whose a document's items are: who recorded it, and for a notice of deficiency who
    recorded the inspection it was made from (its case names the report's number)."""
    rows = session.execute(
        select(Document.jurisdiction, Document.number, Document.recorded_by).where(
            Document.kind == INSPECTION
        )
    ).all()
    inspected = {(jurisdiction, number): by for jurisdiction, number, by in rows}

    def whose(doc: Document | _Notice) -> tuple[str, ...]:
        report = (doc.case.get("inspection") or {}).get("number")
        by = inspected.get((doc.jurisdiction, report)) if report else None
        return tuple(sorted({doc.recorded_by, *([by] if by else [])}))

    return whose


def _deficiency_items(
    session: Session,
    doc: _Notice,
    where: str,
    packs: PackReader,
    approved: dict[str, list[Document]],
    served: date | None,
    users: tuple[str, ...],
    later: Dates | None = None,
) -> Iterable[Due]:
    still = open_deficiencies(session, doc, approved)
    dates = packs.cite(doc.jurisdiction, "inspection.corrective_dates")
    for item in as_extended(doc.case, later)["deficiencies"]:
        if item["item"] in still:
            day = date.fromisoformat(item["due"])
            held, warning = _held(day, served)
            yield Due(
                day,
                f"{doc.number}, deficiency {item['item']}: {item['corrective_action']}",
                "corrective action",
                where,
                dates,
                doc.jurisdiction,
                doc.number,
                users=users,
                unheld=not held,
                warning=warning,
            )
    if served is not None and still:
        yield Due(
            served,
            f"{doc.number}: no further work except site stabilization until approved",
            "halt in effect",
            where,
            packs.cite(doc.jurisdiction, "inspection.halt"),
            doc.jurisdiction,
            doc.number,
            ongoing=True,
            users=users,
        )


def _reinspections_asked(
    session: Session, whose: Callable[[Document], tuple[str, ...]], packs: PackReader
) -> Iterable[Due]:
    rows = session.execute(
        select(ReinspectionRequest, Document, Site)
        .join(Document, Document.id == ReinspectionRequest.document_id)
        .outerjoin(Site, Site.id == Document.site_id)
        .options(*BARE)
    ).all()
    if not rows:
        return
    since = min(asked.asked_on for asked, _, _ in rows)
    made = [
        (issued, (case.get("reinspects") or {}).get("notice"))
        for issued, case in session.execute(
            select(Document.issued, Document.case).where(
                Document.kind == INSPECTION, Document.issued >= since
            )
        )
    ]
    for asked, doc, place in rows:
        if any(n == doc.number and on >= asked.asked_on for on, n in made):
            continue
        pack = packs(doc.jurisdiction)
        yield Due(
            asked.asked_on,
            f"{doc.number}: reinspection asked for by {asked.asked_by}",
            "reinspection asked for",
            site_line(place),
            pack.cite("inspection.reinspection"),
            doc.jurisdiction,
            doc.number,
            users=whose(doc),
        )
