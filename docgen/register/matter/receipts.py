"""What comes back after mailing (LAW.md § 2), recorded on the mailing it belongs to.

- **The return receipt**: the day of receipt and who signed are added to that same
  mailing (it is not a second service). The deadline the mailing gives is computed again
  with the day of receipt; the notice's kept deadline can only move later
  (docgen.register.storage.standing). The affidavit of mailing stays as sworn; the receipt is
  annexed to it: a numbered annex naming the affidavit (the return-receipt kind, built
  from the event), issued in the same transaction.
- **A returned mailing** (unclaimed, refused, moved, no such address): the day and the
  reason on the envelope. It completes no service: the person is shown as not served and
  the deadline is withdrawn until service is complete; the clerk serves again by another
  means.

Either is one outcome per mailing, frozen once recorded (migration 0009).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from docgen.api import FORMATS
from docgen.cases.labels import choice
from docgen.documents import a_title, get_kind, kinds_with, the_kind, titles_or
from docgen.documents.affidavit_of_service import MAIL, appeal_from, persons_served
from docgen.errors import Problem
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.rules.rows import closed, document_row, numbers_of
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import (
    RECEIPT,
    RETURN_REASONS,
    RETURNED,
    Document,
    MailOutcome,
    ServiceEvent,
)
from docgen.register.storage.records import Issued, ServiceRecord, service_record
from docgen.register.storage.standing import kept_deadline

CERTIFIED = "certified-mail"
WHY = "CPLR 2103(b)(2), by analogy; LAW.md § 2"


@dataclass(frozen=True)
class CameBack:
    """What ``record_receipt`` or ``record_return`` did: the mailing as it now stands, the
    notice's kept deadline (None: withdrawn, or none), and the receipt's annex."""

    number: str
    service: ServiceRecord
    deadline: date | None
    annex: Issued | None = None


def record_receipt(
    reg: Any,
    number: str,
    received: date,
    signed_by: str,
    *,
    to: str | None = None,
    article: str | None = None,
    mailed: date | None = None,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> CameBack:
    """Record the return receipt of a certified mailing of ``number``: the mailing to
    ``to`` (default the landowner), with ``article`` or mailed on ``mailed`` where there
    were several. Issues the annex to the mailing's affidavit, written to ``out``."""
    who = actor(by)
    problems = []
    if not (signed_by or "").strip():
        message = "names who signed the return receipt, as signed or printed on the card"
        problems.append(Problem("signed_by", message, WHY))
    signed = " ".join(signed_by.split())
    again = "record the receipt again"
    safe = "a mailing has one outcome; a second is refused, never recorded twice"
    with recording(reg, again, safe, f"the return receipt of {number}") as (session, held):
        doc = document_row(session, number, jurisdiction)
        pack = _served_kind(session, doc, number)
        event = _mailing(doc, number, to, article, mailed, (CERTIFIED,), "receipt")
        problems += _dated("received", received, event, pack, "receipt")
        if problems:
            raise Refused(problems)
        deadline = None
        if event.appeal_deadline is not None:  # it started the appeal period: again
            _, computed = appeal_from(event.method, event.date, received, None, pack)
            deadline = computed.last_day if computed is not None else None
        outcome = MailOutcome(
            event_id=event.id,
            outcome=RECEIPT,
            date=received,
            signed_by=signed,
            appeal_deadline=deadline,
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        annex: Issued | None = None
        targets: dict[str, Path] = {}
        affidavit = session.get(Document, event.affidavit_id) if event.affidavit_id else None
        if affidavit is not None:
            request = Request(
                the_kind(annexes_receipt=True),
                _annex_case(doc, event, affidavit, received, signed),
                f"{number} return receipt",
                affidavit.respondent_id,
                tuple(formats),
                out,
                who,
                force=force,
                about=affidavit.id,
            )
            annex, targets = issue_in(session, request)
            held.issuing(request, annex.number)
            outcome.annex_id = annex.id
        detail = {
            "received": received.isoformat(),
            "signed_by": outcome.signed_by,
            "appeal_deadline": deadline.isoformat() if deadline else None,
            "annex": annex.number if annex else None,
        }
        result, kept = _recorded(session, doc, event, outcome, who, detail)
    if annex is not None:
        annex = write_out(annex, targets, force)
    return CameBack(number, result, kept, annex)


def record_return(
    reg: Any,
    number: str,
    on: date,
    reason: str,
    *,
    to: str | None = None,
    article: str | None = None,
    mailed: date | None = None,
    by: str | None = None,
    jurisdiction: str | None = None,
) -> CameBack:
    """Record that a mailing of ``number`` came back undelivered on ``on`` for ``reason``
    (one of RETURN_REASONS, as stamped on the envelope): it completes no service."""
    who = actor(by)
    problems = []
    if reason not in RETURN_REASONS:
        listed = ", ".join(RETURN_REASONS)
        message = f"{reason!r}: the reason on the envelope is one of {listed}"
        problems.append(Problem("reason", message, "LAW.md § 2"))
    again = "record the return again"
    safe = "a mailing has one outcome; a second is refused, never recorded twice"
    with recording(reg, again, safe, f"the returned mailing of {number}") as (session, _):
        doc = document_row(session, number, jurisdiction)
        pack = _served_kind(session, doc, number)
        event = _mailing(doc, number, to, article, mailed, MAIL, "return")
        problems += _dated("date", on, event, pack, "return")
        if problems:
            raise Refused(problems)
        outcome = MailOutcome(
            event_id=event.id,
            outcome=RETURNED,
            date=on,
            reason=reason,
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        detail = {"returned": on.isoformat(), "reason": reason}
        result, kept = _recorded(session, doc, event, outcome, who, detail)
    return CameBack(number, result, kept)


def _recorded(
    session: Any,
    doc: Document,
    event: ServiceEvent,
    outcome: MailOutcome,
    who: str,
    detail: dict[str, Any],
) -> tuple[ServiceRecord, date | None]:
    """Record ``outcome`` on ``event`` with its audit row: (the mailing as it now stands,
    the notice's kept deadline)."""
    session.add(outcome)
    session.flush()
    session.refresh(event)
    kept = kept_deadline(list(doc.services))
    said = {
        "number": doc.number,
        "to": event.served_on,
        "mailed": event.date.isoformat(),
        "article": event.article,
        **detail,
        "notice_deadline": kept.isoformat() if kept else None,
    }
    record(session, who, outcome.outcome, "document", doc.id, said)
    numbers = numbers_of(session, {event.affidavit_id, outcome.annex_id})
    return service_record(event, notice=kept, numbers=numbers), kept


def _served_kind(session: Any, doc: Document, number: str) -> Pack:
    """The pack of ``doc``, a served document still open to records: nothing is recorded
    on a superseded or lifted document (LAW.md § 2, § 3)."""
    if not get_kind(doc.kind).served:
        raise RegisterError(
            f"{number} is {a_title(doc.kind)}: not a document served on persons, so nothing "
            f"comes back from a mailing of it (served: {titles_or(kinds_with(served=True))})"
        )
    closed(session, doc)
    return load_pack(doc.jurisdiction, doc.issued)


def _mailing(
    doc: Document,
    number: str,
    to: str | None,
    article: str | None,
    mailed: date | None,
    methods: tuple[str, ...],
    what: str,
) -> ServiceEvent:
    """The one mailing of ``doc`` the outcome belongs to, or a refusal saying why none is."""
    people = persons_served(doc.case)
    name = people[0]["name"] if to is None else _named(people, to, number)
    digits = article.replace(" ", "") if article else None
    found = [
        e
        for e in doc.services
        if e.method in methods
        and (
            (digits is not None and (e.article or "").replace(" ", "") == digits)
            or (digits is None and e.served_on in (name, None if to is None else name))
        )
        and (mailed is None or e.date == mailed)
    ]
    how = " or ".join(choice(m).lower() for m in methods)
    which = f"article number {article}" if digits else f"to {name}"
    if not found:
        message = (
            f"{number}: no mailing {which}{f' on {mailed}' if mailed else ''} by {how} is "
            f"recorded; a {what} is recorded on the mailing it belongs to: record the mailing "
            "first (docgen record-service)"
        )
        raise Refused([Problem("article" if digits else "to", message, WHY)])
    if len(found) > 1:
        listed = "; ".join(f"{e.date} ({e.article or 'no article number'})" for e in found)
        message = (
            f"{number} was mailed {which} more than once ({listed}): say which with "
            "{mailed} or {article}"
        )
        raise Refused([Problem("", message, WHY)])
    event = found[0]
    if event.outcome is not None:
        done = event.outcome
        what_came = (
            f"its return receipt (received {done.date}, signed by {done.signed_by})"
            if done.outcome == RECEIPT
            else f"its return ({done.date}, {done.reason})"
        )
        raise RegisterError(
            f"{number}: the mailing {which} on {event.date} already has {what_came} recorded; "
            "a mailing has one outcome (LAW.md § 2)"
        )
    return event


def _named(people: list[dict[str, Any]], to: str, number: str) -> str:
    wanted = " ".join(to.split()).casefold()
    for p in people:
        name: str = p["name"]
        if " ".join(name.split()).casefold() == wanted:
            return name
    listed = "; ".join(p["name"] for p in people)
    message = f"{to!r}: {number} was not sent to that person; it was sent to {listed}"
    raise Refused([Problem("to", message, WHY)])


def _dated(field: str, day: date, event: ServiceEvent, pack: Pack, what: str) -> list[Problem]:
    """A receipt or a return comes after its mailing and is recorded once it happened."""
    today = municipal_today(pack)
    problems = []
    if day < event.date:
        message = f"{day} is before the mailing ({event.date}): a {what} follows the mailing"
        problems.append(Problem(field, message, WHY))
    if day > today:
        message = (
            f"{day}: after today ({today} in the {pack.name.value}); a {what} is recorded "
            "once it came back"
        )
        problems.append(Problem(field, message, f"{WHY}; LAW.md § 10"))
    return problems


def heading_case(title: str) -> str:
    """A kind's title as a heading names it: "Stop-work order" -> "Stop-Work Order"."""
    small = {"of", "a", "an", "the", "to", "and"}
    words = title.split(" ")
    return " ".join(
        w if w in small and i else "-".join(p[:1].upper() + p[1:] for p in w.split("-"))
        for i, w in enumerate(words)
    )


def _annex_case(
    doc: Document, event: ServiceEvent, affidavit: Document, received: date, signed: str
) -> dict[str, Any]:
    """The annex's case, built from the mailing's event and its affidavit."""
    person = next(
        (p for p in persons_served(doc.case) if p["name"] == event.served_on),
        persons_served(doc.case)[0],
    )
    sworn = "Affirmation of Service" if affidavit.case.get("oath") == "affirmation" else None
    return {
        "jurisdiction": doc.jurisdiction,
        "affidavit": {
            "number": affidavit.number,
            "issued": affidavit.issued.isoformat(),
            **({"title": sworn} if sworn else {}),
        },
        "document": {
            "title": heading_case(get_kind(doc.kind).title),
            "number": doc.number,
            "issued": doc.issued.isoformat(),
        },
        "recipient": {k: v for k, v in person.items() if k != "certified_article"},
        "mailing": {
            "date": event.date.isoformat(),
            "article": event.article,
            "address": event.address,
        },
        "receipt": {"date": received.isoformat(), "signed_by": signed},
    }
