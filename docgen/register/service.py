"""Recording service of an issued document, and the appeal deadline it starts.

The day the 15 days of § 228-79C(1)(f) run from depends on how the notice was served
(LAW.md § 2, a reading for counsel to confirm): personal delivery, on delivery; mail,
the day of receipt when known (return receipt), else the mailing day plus the days of
CPLR 2103(b)(2); posting at the site, the later of posting and mailing. From that day
docgen.law.deadlines gives the last day (GCL §§ 24, 25-a).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import select

from docgen.law.deadlines import appeal_deadline
from docgen.law.packs import load_pack
from docgen.register import db
from docgen.register.audit import actor, record
from docgen.register.db import RegisterError, guarded
from docgen.register.models import SERVICE_METHODS, Document, ServiceEvent
from docgen.register.records import Served, ServiceRecord

MAIL = ("certified-mail", "first-class-mail")
MAIL_DAYS = 5  # CPLR 2103(b)(2): service by mail, five days added (LAW.md § 2, by analogy)
APPEALABLE = ("notice-of-violation",)


def clock_start(
    method: str, on: date, received: date | None, mailed: date | None
) -> tuple[date, str]:
    """The day the appeal period runs from, and the rule used, in words."""
    if method == "personal-delivery":
        return on, "personal delivery: from the day of delivery"
    if method in MAIL:
        if received is not None:
            return received, "service by mail: from the day of receipt"
        start = on + timedelta(days=MAIL_DAYS)
        return (
            start,
            f"service by mail, receipt unknown: from mailing plus {MAIL_DAYS} days "
            "(CPLR 2103(b)(2))",
        )
    if mailed is not None and mailed > on:
        return mailed, "posting and mailing: from the later of the two (the mailing)"
    if mailed is not None:
        return on, "posting and mailing: from the later of the two (the posting)"
    return on, "posting at the site: from the day of posting (no mailing recorded)"


def service_record(
    event: ServiceEvent, reasons: tuple[str, ...] = (), rule: str = ""
) -> ServiceRecord:
    return ServiceRecord(
        method=event.method,
        date=event.date,
        received=event.received,
        served_by=event.served_by,
        article=event.article,
        appeal_deadline=event.appeal_deadline,
        deadline_reasons=reasons,
        clock_rule=rule,
    )


def record_service(
    reg: Any,
    number: str,
    method: str,
    on: date,
    *,
    received: date | None = None,
    served_by: str | None = None,
    article: str | None = None,
    by: str | None = None,
) -> Served:
    """Record that ``number`` was served by ``method`` on ``on``; for a notice, compute
    and store the last day to appeal. ``served_by`` defaults to the issuing officer."""
    if method not in SERVICE_METHODS:
        raise RegisterError(f"--method {method!r}: choose one of {', '.join(SERVICE_METHODS)}")
    if received is not None and method not in MAIL:
        raise RegisterError("--received is the day a mailed notice was received; not for " + method)
    if received is not None and received < on:
        raise RegisterError(f"--received {received} is before the mailing {on}")
    if article and method != "certified-mail":
        raise RegisterError("--article is a certified-mail article number; the method is " + method)
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        doc: Document = reg._document(session, number)
        if on < doc.issued:
            raise RegisterError(
                f"--date {on}: before {number} was issued ({doc.issued}); a document is "
                "served on or after its issue date"
            )
        server = served_by or _officer(doc)
        deadline, rule, reasons = None, "", ()
        if doc.kind in APPEALABLE:
            mailed = session.scalar(
                select(ServiceEvent.date)
                .where(ServiceEvent.document_id == doc.id, ServiceEvent.method.in_(MAIL))
                .order_by(ServiceEvent.date.desc())
            )
            if method in MAIL:
                mailed = None
            start, rule = clock_start(method, on, received, mailed)
            computed = appeal_deadline(start, load_pack(doc.jurisdiction))
            deadline, reasons = computed.last_day, computed.reasons
        event = ServiceEvent(
            document_id=doc.id,
            method=method,
            date=on,
            received=received,
            served_by=server,
            article=article,
            appeal_deadline=deadline,
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        session.add(event)
        session.flush()
        record(
            session,
            who,
            "service",
            "document",
            doc.id,
            {
                "number": number,
                "method": method,
                "date": on.isoformat(),
                "received": received.isoformat() if received else None,
                "article": article,
                "appeal_deadline": deadline.isoformat() if deadline else None,
            },
        )
        result = service_record(event, reasons, rule)
    return Served(number=number, service=result, affidavit=None)


def _officer(doc: Document) -> str:
    officer = doc.case.get("officer") or {}
    name, title = officer.get("name"), officer.get("title")
    return ", ".join(p for p in (name, title) if p) or "the issuing officer"
