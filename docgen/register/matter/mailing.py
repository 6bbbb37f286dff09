"""A day's certified pieces, read from the register, as a mailing list case (LAW.md § 9).

Every service event by certified mail on the day (of one municipality) is one piece: the
person it went to, the address on the envelope, the document it carried and its article
number (the event's, or the one the case gave that person). The case is rendered by the
mailing-list kind (docgen.documents.mailing_list) like any other.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select

from docgen.cases.mail import article_problem, grouped
from docgen.documents import KINDS
from docgen.documents.affidavit_of_service import persons_served
from docgen.register.storage import db
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import Document, ServiceEvent

CERTIFIED = "certified-mail"


def service_article(person: dict[str, Any] | None, method: str, article: str | None) -> str | None:
    """The article number a mail service event records, grouped as on the label: the one
    typed (checked as the Postal Service specifies), or else the one the case gave the
    person served (``person``: that person's entry in the case)."""
    if method != CERTIFIED:
        return article
    if article is None:
        given = (person or {}).get("certified_article")
        return grouped(str(given).replace(" ", "")) if given else None
    return typed_article(article)


def typed_article(article: str) -> str:
    """A certified article number as typed, grouped as on the label once checked as the
    Postal Service specifies; a RegisterError naming the problem otherwise."""
    digits = article.strip().replace(" ", "")
    problem = article_problem(digits)
    if problem:
        raise RegisterError(f"--article {article!r} {problem} (USPS Publication 199)")
    return grouped(digits)


def article_used(session: Any, article: str) -> str | None:
    """Where the certified article number ``article`` (grouped) was used, or None: each
    mailed piece has its own (LAW.md § 2, § 9), so a number used for another piece (another
    person, another document, a copy) is refused, naming where."""
    hit = session.execute(
        select(ServiceEvent, Document.number)
        .join(Document, ServiceEvent.document_id == Document.id)
        .where(ServiceEvent.article == article)
        .limit(1)
    ).first()
    if hit is None:
        return None
    event, number = hit
    return (
        f"already used for the piece of {number} mailed to {event.served_on or 'the recipient'} "
        f"on {event.date}; each mailed piece has its own article number"
    )


def _person(doc: Document, name: str | None) -> dict[str, Any]:
    """The person an event served, as the case names them (the landowner by default)."""
    people = persons_served(doc.case)
    return next((p for p in people if p.get("name") == name), people[0])


def _piece(event: ServiceEvent, doc: Document) -> dict[str, Any]:
    person = _person(doc, event.served_on)
    article = event.article or person.get("certified_article")
    piece = {
        "name": person["name"],
        "address": person["address"],
        "document": doc.number,
        "title": KINDS[doc.kind].title
        + (f" (copy for the {event.role})" if event.role not in (None, "landowner") else ""),
    }
    return piece | ({"article": article} if article else {})


def mailing_list_case(reg: Any, day: date, jurisdiction: str | None = None) -> dict[str, Any]:
    """The mailing list of ``day``'s certified pieces, as case data for the kind."""
    query = (
        select(ServiceEvent, Document)
        .join(Document, ServiceEvent.document_id == Document.id)
        .where(ServiceEvent.method == CERTIFIED, ServiceEvent.date == day)
        .order_by(Document.number, ServiceEvent.id)
    )
    if jurisdiction is not None:
        query = query.where(Document.jurisdiction == jurisdiction)
    with guarded(reg.url), db.read_session(reg.engine) as session:
        rows = session.execute(query).all()
        found = sorted({doc.jurisdiction for _, doc in rows})
        if len(found) > 1:
            raise RegisterError(
                f"--date {day}: certified pieces of {', '.join(found)}; each municipality "
                "takes its own list to the post office: choose one with --jurisdiction"
            )
        if not rows:
            where = f" for {jurisdiction}" if jurisdiction else ""
            raise RegisterError(
                f"--date {day}: no service by certified mail recorded that day{where}; "
                "record each mailing first (docgen record-service NUMBER --method certified-mail)"
            )
        return {
            "jurisdiction": found[0],
            "date": day.isoformat(),
            "pieces": [_piece(event, doc) for event, doc in rows],
        }


def jurisdictions(reg: Any) -> list[str]:
    """The municipalities the register holds documents of (the mailing list is one
    municipality's: a register of two asks which)."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        return list(
            session.scalars(
                select(Document.jurisdiction).distinct().order_by(Document.jurisdiction)
            )
        )
