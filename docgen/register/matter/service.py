"""Recording service of an issued document, and the appeal deadline it starts.

The day the 15 days of § 228-79C(1)(f) run from depends on how the notice was served:
the pack's service rule (LAW.md § 2) read by docgen.law.deadlines.service_start, which
also gives the last day (GCL §§ 24, 25-a). Posting counts with the copy mailed, so a
posting is recorded after the mailing it goes with.

Each person served is an event of its own (the landowner, or a person the document was
copied to); the appeal period runs from service on the landowner, and the notice keeps one
deadline, the latest any such event gives: a later event never shortens it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from docgen.api import FORMATS
from docgen.cases.labels import choice
from docgen.documents import get_kind, kinds_with, titles_or
from docgen.documents.affidavit_of_service import KIND as AFFIDAVIT
from docgen.documents.affidavit_of_service import (
    MAIL,
    appeal_from,
    issuing_officer,
    one_line,
    persons_served,
)
from docgen.documents.kind import Bundle, Kind
from docgen.errors import Problem
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.matter.mailing import article_used, service_article
from docgen.register.matter.service_event import Service
from docgen.register.rules.rows import closed, corrections, document_row, successor
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Document, ServiceEvent
from docgen.register.storage.records import Issued, Served, service_record
from docgen.register.storage.standing import (
    complete,
    kept_deadline,
    persons_of,
    ran_out,
    served_from,
)


def _firm_taker(served: dict[str, Any] | None, event: Service) -> list[Problem]:
    """A firm takes a copy through a person: who took it and in what capacity, each
    recorded, never the firm itself (LAW.md § 10)."""
    if event.method != "personal-delivery" or not served or served.get("entity") != "firm":
        return []
    name = served["name"]
    wanted = (
        ("person", event.person, f"who took the copy for {name}"),
        ("capacity", event.capacity, f"in what capacity they took it for {name} (e.g. president)"),
    )
    return [
        Problem(
            field,
            f"missing: {name} is a firm, and an affidavit states only what was recorded: "
            f"say {what}",
        )
        for field, value, what in wanted
        if not (value or "").strip()
    ]


@dataclass(frozen=True)
class _Facts:
    """What a service event states, found before anything is written: the document served
    (``number``, its row ``doc``, its kind ``spec``, the ``pack`` it was issued under and
    the provision ``why`` its problems cite), the day (``on``), the person served
    (``served``, by ``name``; ``recipient``: the person the document is issued to, not one
    copied), the ``events`` recorded before, and the mailing a posting counts with
    (``mailed``, its day, and the ``mailing`` itself)."""

    number: str
    on: date
    doc: Document
    spec: Kind | Bundle
    pack: Pack
    why: str
    served: dict[str, Any] | None
    name: str | None
    recipient: bool
    events: list[ServiceEvent]
    mailed: date | None
    mailing: ServiceEvent | None


def record_service(
    reg: Any,
    number: str,
    event: Service,
    *,
    by: str | None = None,
    affidavit: bool = True,
    oath: str = "notary",
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Served:
    """Record that ``number`` (of ``jurisdiction``, when two municipalities sharing the
    register hold that number) was served as ``event`` tells, on one person (the
    landowner, or ``event.to``); for a notice served on the landowner, compute the
    deadline this service gives and keep the notice's one deadline, never lowered. Who
    served (``event.served_by``) is apart from ``by`` (who records it). The same event
    recorded twice is refused.

    With ``affidavit`` (the default), the affidavit of service (or, with ``oath=
    "affirmation"``, the CPLR 2106 affirmation) of this event is issued into the register
    in the same transaction, numbered, and written to ``out`` after the commit.
    """
    problems, on = _checked(event)
    who = actor(by)
    again, safe = "record the service again", "a service already recorded is refused, never twice"
    with recording(reg, again, safe, f"the service of {number} on {on}") as (session, held):
        doc, spec = _servable(session, number, jurisdiction)
        facts = _sworn_facts(session, number, on, doc, spec, event, problems)
        _not_twice(facts, event)
        _in_effect_by_service(facts, event)
        article = _unused_article(session, facts, event)
        deadline, reasons, rule = _appeal_deadline(facts, event)
        row = _write_event(session, facts, event, article, deadline, who)
        kept, warnings = _standing(facts, row)
        _audit(session, who, facts, row, kept)
        result = service_record(row, reasons, rule, kept)
        proof: Issued | None = None
        targets: dict[str, Path] = {}
        if affidavit and facts.served is not None:
            request = Request(
                AFFIDAVIT.name,
                _affidavit_case(session, facts, event, row, oath),
                f"{number} service",
                doc.respondent_id if facts.recipient else None,
                tuple(formats),
                out,
                who,
                force=force,
                about=doc.id,
            )
            proof, targets = issue_in(session, request)
            held.issuing(request, proof.number)
            row.affidavit_id = proof.id
    if proof is not None:
        proof = write_out(proof, targets, force)
    return Served(number=number, service=result, affidavit=proof, warnings=warnings)


def _checked(event: Service) -> tuple[list[Problem], date]:
    """The request's own problems (kept, to be told with the document's), and its day of
    service; without that day nothing more can be checked, so it is refused at once."""
    problems = event.problems()
    if event.on is None:
        problems.insert(0, Problem("date", "missing: the day of delivery, mailing or posting"))
        raise Refused(problems)
    return problems, event.on


def _servable(
    session: Session, number: str, jurisdiction: str | None
) -> tuple[Document, Kind | Bundle]:
    """The document ``number`` and its kind, when it is one served on persons (an
    affidavit of service proves service and is not served itself)."""
    doc: Document = document_row(session, number, jurisdiction)
    spec = get_kind(doc.kind)
    if doc.kind == AFFIDAVIT.name:
        raise RegisterError(
            f"{number} is an affidavit of service: it proves service of another document "
            "and is not served itself; record the service on that document"
        )
    if not spec.served:
        raise RegisterError(
            f"{number} is {spec.a_title}: not a document served on persons, so no service "
            f"is recorded on it (service is recorded on {titles_or(kinds_with(served=True))})"
        )
    return doc, spec


def _provision(pack: Pack, doc: Document, spec: Kind | Bundle) -> str:
    """What a problem of this service cites: the appeal period's section only for a
    document it runs from (a notice of violation); an order or a notice of deficiency is
    served under its own section, and a message about it speaks of no appeal (issue 47)."""
    period = pack.part("enforcement").appeal_days  # none where the law gives no appeal
    cited = period.ref if period and spec.appealable else pack.require(spec)
    return f"{cited}; LAW.md § 2"


def _in_effect(session: Session, doc: Document, number: str) -> None:
    """The document served is the one in effect: not superseded by a correction, not
    lifted (a lifted order is no longer served)."""
    later = successor(session, doc.id)
    if later:
        now = corrections(session, doc)[-1]  # the correction in effect
        raise RegisterError(
            f"{number} was superseded by {later}; the correction in effect is the document "
            f"served: record the service on {now}"
        )
    closed(session, doc)


def _sworn_facts(
    session: Session,
    number: str,
    on: date,
    doc: Document,
    spec: Kind | Bundle,
    event: Service,
    problems: list[Problem],
) -> _Facts:
    """What this service states, refused with every problem at once: the request's, a day
    ahead of today or before the issue, a person the document was not sent to (or a firm's
    taker not named), a posting with no mailing to count with."""
    pack = load_pack(doc.jurisdiction, doc.issued)
    why = _provision(pack, doc, spec)
    problems = problems + _ahead(pack, event, why)
    _in_effect(session, doc, number)
    if on < doc.issued:
        message = (
            f"{on}: before {number} was issued ({doc.issued}); a document is served on "
            "or after its issue date"
        )
        problems.append(Problem("date", message, why))
    served = _person(doc, number, event.to, why, problems)
    problems += _firm_taker(served, event)
    name = served["name"] if served else None
    events = list(doc.services)
    mailed, mailing = _mailing_counted(events, name, event, why, problems)
    if problems:
        raise Refused(problems)
    # The person the document is issued to (named first: the landowner under
    # § 228-79C(1), or whom another adopter's law names), not a person copied.
    recipient = served is None or served == persons_served(doc.case)[0]
    return _Facts(
        number, on, doc, spec, pack, why, served, name, recipient, events, mailed, mailing
    )


def _mailing_counted(
    events: list[ServiceEvent], name: str | None, event: Service, why: str, problems: list[Problem]
) -> tuple[date | None, ServiceEvent | None]:
    """For a posting, the copy mailed it counts with (its day, and the mailing): the
    latest mailing to the person served; none recorded is a problem."""
    if event.method != "posting":
        return None, None
    mails = [e for e in events if e.method in MAIL and e.served_on in (name, None)]
    mail = [e.date for e in mails]
    if not mail:
        message = (
            "posting: posting at the site counts with a copy mailed: record the "
            f"mailing to {name or 'the person served'} first (by first-class or "
            "certified mail)"
        )
        problems.append(Problem("method", message, why))
    mailed = max(mail, default=None)
    return mailed, max(mails, key=lambda e: (e.date, e.id), default=None)


def _not_twice(facts: _Facts, event: Service) -> None:
    """The same event is recorded once, with its one affidavit (LAW.md § 10); a return
    receipt of a mailing recorded is recorded on that mailing."""
    owner = persons_served(facts.doc.case)[0]["name"]  # the landowner, named first
    if not any(_same_event(e, owner, facts.name, event) for e in facts.events):
        return
    number, name, on = facts.number, facts.name or "the recipient", facts.on
    method, received, time = event.method, event.received, event.time
    practice = f"{facts.pack.name.value} practice"  # the notes' readings, as the person reads them
    if received is not None and method in MAIL:
        raise RegisterError(
            f"{number}: the mailing to {name} on {on} is already "
            "recorded; its return receipt is recorded on that mailing, not as a second "
            f"service: docgen record-receipt {number} --received {received} --signed-by "
            f"NAME ({practice})"
        )
    raise RegisterError(
        f"{number}: service on {name} by {choice(method).lower()} "
        f"on {on}"
        f"{' at ' + time if time else ''} is already recorded; the same event is "
        f"recorded once, with its one affidavit ({practice})"
    )


def _in_effect_by_service(facts: _Facts, event: Service) -> None:
    """An order that states its ``effective`` date takes effect on service, never before
    (LAW.md § 3): by mail alone it is not in effect before mail service is complete. A
    service that would leave no service complete by that date is refused."""
    doc, pack, on, method = facts.doc, facts.pack, facts.on, event.method
    if not (facts.spec.liftable and doc.case.get("effective")):
        return
    effective = date.fromisoformat(str(doc.case["effective"]))
    start, _ = appeal_from(method, on, event.received, facts.mailed, pack)
    events = facts.events
    days = [d for e in events if (d := complete(e, events, pack)) is not None]
    if min([start.start, *days]) <= effective:
        return
    message = (
        f"{on}: {doc.number} states it is effective {effective}; served by "
        f"{choice(method).lower()} on {on}, service is complete only {start.start} "
        f"({start.rule}): serve it by delivery or posting by {effective}, or correct it "
        f"(docgen supersede) with an effective date on or after {start.start}"
    )
    raise Refused([Problem("date", message, f"{facts.why}; LAW.md § 3")])


def _unused_article(session: Session, facts: _Facts, event: Service) -> str | None:
    """The certified-mail article number this event records (typed, or the case's for
    the person served), refused when another mailed piece used it (LAW.md § 9)."""
    article = service_article(facts.served, event.method, event.article)
    if article is not None:
        used = article_used(session, article)
        if used:
            practice = f"{facts.pack.name.value} practice"
            raise Refused([Problem("article", f"{article}: {used}", practice)])
    return article


def _appeal_deadline(facts: _Facts, event: Service) -> tuple[date | None, tuple[str, ...], str]:
    """The last day of the appeal period this service gives, its reasons and the rule of
    its start: only for service on the person the document is issued to, of a document an
    appeal runs from, where the law gives one (otherwise None, no reasons, no rule)."""
    pack = facts.pack
    if not (facts.spec.appealable and facts.recipient and pack.part("enforcement").appealable):
        return None, (), ""
    start, computed = appeal_from(event.method, facts.on, event.received, facts.mailed, pack)
    if computed is None:
        return None, (), ""
    return computed.last_day, computed.reasons, start.rule


def _write_event(
    session: Session,
    facts: _Facts,
    event: Service,
    article: str | None,
    deadline: date | None,
    who: str,
) -> ServiceEvent:
    """The service event's row, added and flushed (its id is the affidavit's to name):
    who served with their office, and where (a posting at the site the document names,
    LAW.md § 3; the address a copy was mailed or left at, not for a personal delivery)."""
    served, method = facts.served, event.method
    server, title = _server(facts.doc, event)
    place = event.place  # as recorded: a posting's too, never the site's address for it
    address = one_line(served["address"]) if served else None
    row = ServiceEvent(
        document_id=facts.doc.id,
        method=method,
        date=facts.on,
        received=event.received,
        served_by=", ".join(p for p in (server, title) if p),
        article=article,
        appeal_deadline=deadline,
        served_on=facts.name,
        role=served.get("role") if served else None,
        time=event.time,
        place=place,
        address=address if method != "personal-delivery" else None,
        individual=event.person,
        capacity=event.capacity,
        description=event.description,
        received_by=event.received_by,
        recorded_at=datetime.now().astimezone(),
        recorded_by=who,
    )
    session.add(row)
    session.flush()
    return row


def _standing(facts: _Facts, row: ServiceEvent) -> tuple[date | None, tuple[str, ...]]:
    """The notice's one deadline with this event (the latest any event gives, never
    lowered), and the warnings of a period run out, said once: when this service is the
    one that completes service (LAW.md §§ 2, 11)."""
    doc, events, pack = facts.doc, facts.events, facts.pack
    kept = kept_deadline([*events, row])
    before = served_from(persons_of(doc.case, events, pack))
    after = served_from(persons_of(doc.case, [*events, row], pack))
    warnings = tuple(ran_out(facts.number, doc.case, after)) if after != before else ()
    return kept, warnings


def _audit(session: Session, who: str, facts: _Facts, row: ServiceEvent, kept: date | None) -> None:
    """The audit entry of the service, on the document served."""
    deadline, received = row.appeal_deadline, row.received
    record(
        session,
        who,
        "service",
        "document",
        facts.doc.id,
        {
            "number": facts.number,
            "to": facts.name,
            "method": row.method,
            "date": facts.on.isoformat(),
            "time": row.time,
            "received": received.isoformat() if received else None,
            "article": row.article,
            "served_by": row.served_by,
            "appeal_deadline": deadline.isoformat() if deadline else None,
            "notice_deadline": kept.isoformat() if kept else None,
        },
    )


def _affidavit_case(
    session: Session, facts: _Facts, event: Service, row: ServiceEvent, oath: str
) -> dict[str, Any]:
    """The case of this event's affidavit of service (or the CPLR 2106 affirmation, by
    ``oath``): the facts recorded, nothing filled in (LAW.md § 10)."""
    doc, received, mailed = facts.doc, event.received, facts.mailed
    server, title = _server(doc, event)
    return {
        "jurisdiction": doc.jurisdiction,
        "document": {"kind": doc.kind, "number": facts.number, "issued": doc.issued.isoformat()},
        "recipient": facts.served,
        "server": {"name": server, "title": title},
        "service": {
            "method": event.method,
            "date": facts.on.isoformat(),
            "time": event.time,
            "received": received.isoformat() if received else None,
            "received_by": event.received_by,
            "mailed": mailed.isoformat() if mailed else None,
            "article": row.article,
            "place": row.place,
            "address": row.address,
            "individual": event.person,
            "capacity": event.capacity,
            "description": event.description,
            **_mailer(session, facts.mailing, row.served_by),
        },
        "oath": oath,
    }


def _ahead(pack: Pack, event: Service, why: str) -> list[Problem]:
    """A service is recorded once it happened: neither its day nor the day of receipt
    may be after today in the municipality (its time zone, from the pack)."""
    today = municipal_today(pack)
    return [
        Problem(
            field,
            f"{day}: after today ({today} in the {pack.name.value}); service is recorded once "
            "it has happened, and its affidavit states facts, not plans",
            f"{why}; LAW.md § 10",
        )
        for field, day in (("date", event.on), ("received", event.received))
        if day is not None and day > today
    ]


def _same_event(row: ServiceEvent, owner: str, name: str | None, event: Service) -> bool:
    """``row`` is the service ``event`` (by its method on ``name``, on its day, at its
    time). An event recorded before each person served was an event of its own (migration
    0006: no one named, no time kept) was service on the landowner at a time not kept, so
    it is the same event whatever time is given now (LAW.md § 10: one event, one
    affidavit)."""
    given = (name, event.method, event.on)
    if row.served_on is None:
        return (owner, row.method, row.date) == given
    return (row.served_on, row.method, row.date, row.time) == (*given, event.time)


def _person(
    doc: Document, number: str, to: str | None, why: str, problems: list[Problem]
) -> dict[str, Any] | None:
    """The person served: the landowner, or the one named ``to`` the document was sent to
    (None, with the problem added, when it was not sent to that person)."""
    people = persons_served(doc.case)
    if to is None:
        return people[0]
    wanted = " ".join(to.split()).casefold()
    for p in people:
        if " ".join(p["name"].split()).casefold() == wanted:
            return p
    listed = "; ".join(f"{p['name']} ({p.get('role', 'copied')})" for p in people)
    message = (
        f"{to!r}: {number} was not sent to that person; it was sent to {listed} (each "
        "person served is a service event of its own)"
    )
    problems.append(Problem("to", message, why))
    return None


def _server(doc: Document, event: Service) -> tuple[str, str | None]:
    """Who served, as recorded: the name given with their office (``served_by_title``: a
    deputy officer's affidavit states the office, LAW.md § 10), or the issuing officer
    (named with their title on the document) when the recorder says the officer served."""
    officer = issuing_officer(doc.case)
    served_by, title = (event.served_by or "").strip(), event.served_by_title
    title = " ".join(title.split()) if title and title.strip() else None
    if served_by and served_by != officer.get("name"):
        return served_by, title
    return officer["name"], title or officer.get("title")


def _mailer(session: Any, mailing: ServiceEvent | None, server: str) -> dict[str, Any]:
    """Who mailed the copy a posting counts with (the mailing's own server, as recorded),
    and the affidavit that proves that mailing when it is another person's: the posting's
    affiant says "I mailed" only when they did (LAW.md § 10; Metzger v. Esseks)."""
    if mailing is None:
        return {}
    made = session.get(Document, mailing.affidavit_id) if mailing.affidavit_id else None
    proof = made.number if made is not None else None
    return {
        "mailed_by": mailing.served_by or None,
        "mailer": "affiant" if mailing.served_by == server else "another",
        "mailing_proof": proof,
    }
