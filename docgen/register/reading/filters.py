"""Named lists of documents the clerk works from, as queries over the register.

- ``awaiting-service``: notices and stop-work orders with no service recorded that
  stands (a mailing that came back undelivered completes no service, LAW.md § 2);
- ``appeal-running``: notices served whose last day to appeal is today or later;
- ``appeal-passed``: notices served whose last day to appeal is past;
- ``remedies-overdue``: notices whose earliest remedy, as extended or decided on appeal
  (LAW.md §§ 11, 14), was due before today while the offense is still pending (the
  register records no compliance, so "overdue" means the schedule of § 228-79C(1)(d) has
  run and no disposition closed the matter);
- ``stop-work-in-effect``: stop-work orders served (an order takes effect on service or
  posting, § 228-79C(2)) and not lifted (`docgen lift`);
- ``served``: documents with service recorded;
- ``lifted``: stop-work orders a written notice lifted;
- ``superseded``: documents a correction replaced (the only list that shows them).

A superseded document is never listed but in ``superseded``: its successor is.
"""

from __future__ import annotations

from datetime import date
from typing import TypeVarTuple

from sqlalchemy import ColumnElement, Select, case, exists, func, select
from sqlalchemy.orm import Session, aliased

from docgen.documents import kinds_with
from docgen.register.matter.extended import Dates, as_extended, extended
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import RETURNED, Document, MailOutcome, Offense, ServiceEvent

FILTERS = (
    "awaiting-service",
    "appeal-running",
    "appeal-passed",
    "remedies-overdue",
    "stop-work-in-effect",
    "served",
    "lifted",
    "superseded",
)


def standing_events() -> ColumnElement[bool]:
    """A service event that stands: its mailing did not come back (LAW.md § 2)."""
    return ~exists().where(MailOutcome.event_id == ServiceEvent.id, MailOutcome.outcome == RETURNED)


def kept_deadline_column() -> ColumnElement[date | None]:
    """A document's kept appeal deadline in SQL, as docgen.register.storage.standing derives it:
    the latest any event or receipt stated, while a service on the landowner stands.

    Every subquery is correlated to the outer row's document explicitly: a derived table
    (or an EXISTS nested in a select over one) would otherwise take ``documents`` into its
    own FROM and read every document's service as this one's."""
    events = (
        select(func.max(ServiceEvent.appeal_deadline))
        .where(ServiceEvent.document_id == Document.id)
        .correlate(Document)
        .scalar_subquery()
    )
    receipts = (
        select(func.max(MailOutcome.appeal_deadline))
        .join(ServiceEvent, MailOutcome.event_id == ServiceEvent.id)
        .where(ServiceEvent.document_id == Document.id)
        .correlate(Document)
        .scalar_subquery()
    )
    # under ``landowner`` an event stated a deadline, so ``events`` is never NULL there
    latest = case((receipts > events, receipts), else_=events)
    landowner = (
        exists()
        .where(
            ServiceEvent.document_id == Document.id,
            ServiceEvent.appeal_deadline.is_not(None),
            standing_events(),
        )
        .correlate(Document)
    )
    return case((landowner, latest), else_=None)


def overdue_as_extended(session: Session, today: date, later: dict[int, Dates]) -> list[int]:
    """The notices with a date extended or decided on appeal (``later``: the dates in
    force, by notice) whose earliest remedy, as in force, was due before ``today`` (such
    acts are few: their notices are read here, not in SQL)."""
    notices = select(Document.id, Document.case).where(
        Document.id.in_(list(later)), Document.kind.in_(kinds_with(appealable=True))
    )
    overdue = []
    for id_, written in session.execute(notices):
        remedies = as_extended(written, later[id_]).get("remedies") or []
        days = [date.fromisoformat(str(r["due"])) for r in remedies if r.get("due")]
        if days and min(days) < today:
            overdue.append(id_)
    return overdue


Selected = TypeVarTuple("Selected")


def apply(
    query: Select[*Selected], name: str | None, today: date, session: Session
) -> Select[*Selected]:
    if not name:
        return query
    successor = aliased(Document)
    current = ~exists().where(successor.supersedes_id == Document.id)
    standing = standing_events()
    served = exists().where(ServiceEvent.document_id == Document.id, standing)
    deadline = kept_deadline_column()
    notice = Document.kind.in_(kinds_with(appealable=True))
    if name == "superseded":
        return query.where(~current)
    if name == "served":
        return query.where(current, served)
    lifting = aliased(Document)
    lifted = exists().where(
        lifting.about_id == Document.id, lifting.kind.in_(kinds_with(lifts=True))
    )
    if name == "lifted":
        return query.where(current, lifted)
    if name == "awaiting-service":
        return query.where(current, Document.kind.in_(kinds_with(served=True)), ~served)
    if name == "appeal-running":
        return query.where(current, notice, deadline >= today)
    if name == "appeal-passed":
        return query.where(current, notice, deadline < today)
    if name == "remedies-overdue":
        pending = exists().where(
            Offense.document_id == Document.id, Offense.disposition == "pending"
        )
        # LAW.md §§ 11, 14: a notice whose dates a letter extended or a decision on appeal
        # set is read at the dates in force, never the date it was issued with
        dates = extended(session)
        as_issued = (Document.remedies_due < today) & Document.id.not_in(list(dates))
        later = Document.id.in_(overdue_as_extended(session, today, dates))
        return query.where(current, notice, as_issued | later, pending)
    if name == "stop-work-in-effect":
        return query.where(current, Document.kind.in_(kinds_with(liftable=True)), served, ~lifted)
    raise RegisterError(f"unknown filter {name!r}; filters: {', '.join(FILTERS)}")
