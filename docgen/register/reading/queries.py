"""Reading the register (the read model): a document as the command line and the desk show
it, a respondent and their history, the lists the clerk works from, and which issued
document a file is. The lookups the writers take (a document by number, whether it is in
effect) are docgen.register.rules.rows."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, lazyload

from docgen.documents import get_kind
from docgen.law.packs import load_pack
from docgen.register.people.respondents import candidates, parse_id, ref
from docgen.register.reading.filters import apply
from docgen.register.rules.certifiers import certification_set, certified
from docgen.register.rules.copies import copy_for, copy_of, rendition_name, rendition_of
from docgen.register.rules.parts import part_for
from docgen.register.rules.rows import corrections, in_effect, lifting, numbers_of, successor
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import (
    AuditEntry,
    Document,
    DocumentFile,
    Offense,
    Respondent,
    ServiceEvent,
    Site,
)
from docgen.register.storage.records import (
    DocumentRecord,
    History,
    OffenseRecord,
    Verified,
    VerifiedSet,
    offense_record,
    service_record,
)
from docgen.register.storage.standing import (
    complete,
    kept_deadline,
    persons,
    persons_of,
    served_from,
    served_on,
)


def file_type(stored: str) -> str:
    """The file type (pdf, docx, html; png or jpg for a scan) of a document file stored as
    ``stored``: a format, a part's, a copy's (``copy1.pdf``: docgen.register.rules.copies) or
    counsel's final files (the final and its redline are Word files, the final's PDF/A a
    PDF: docgen.register.matter.finals)."""
    # register.matter.finals loads lxml (+24 ms): loaded on first use
    from docgen.register.matter.finals import FINAL, FINAL_PDF_A, REDLINE

    copy = copy_of(stored) or rendition_of(stored)
    if copy is not None:
        return copy[1]
    found = {FINAL: "docx", REDLINE: "docx", FINAL_PDF_A: "pdf"}.get(stored, stored)
    # A part's file (``part1.pdf``: docgen.register.rules.parts) or a paper-signed scan
    # (``scan.png``: docgen.register.sites.invitations) is of the type its name ends with.
    return found.rsplit(".", 1)[-1]


def stored_files(row: Document, formats: set[str] | None = None) -> dict[str, bytes]:
    """The stored bytes of ``row`` (of ``formats``), each checked against its recorded
    SHA-256: altered bytes are refused, naming the document and the format."""
    out = {}
    for f in row.files:
        if formats is not None and f.format not in formats:
            continue
        found = hashlib.sha256(f.content).hexdigest()
        if found != f.sha256:
            raise RegisterError(
                f"{row.number}: its stored {f.format.upper()} is altered (SHA-256 "
                f"{found[:16]}..., recorded {f.sha256[:16]}...); it is not given out. Restore "
                "the register from a backup"
            )
        out[f.format] = f.content
    return out


def respondent_row(session: Session, who: int | str) -> Respondent:
    """``who`` as an id (or "#id"), or a name matching exactly one respondent (else the
    candidates are listed)."""
    text = str(who).strip()
    if text.lstrip("#").isdigit():
        number = parse_id(text)
        found = session.get(Respondent, number) if number is not None else None
        if found is None:
            raise RegisterError(f"respondent {text}: no respondent with that id")
        return found
    listed = candidates(session, text, None)
    exact = [c for c in listed if c.why.startswith("same name")]
    if len(exact) == 1:
        return session.get_one(Respondent, exact[0].id)
    if not listed:
        raise RegisterError(f"respondent {text!r}: no respondent of that name")
    lines = "\n  ".join(str(c) for c in listed)
    raise RegisterError(f"respondent {text!r} is not one record; candidates:\n  {lines}")


def event_numbers(doc: Document) -> set[int | None]:
    """The documents a document's events name: each affidavit, each receipt's annex."""
    ids = {e.affidavit_id for e in doc.services}
    return ids | {e.outcome.annex_id for e in doc.services if e.outcome is not None}


def document_record(session: Session, doc: Document) -> DocumentRecord:
    site = session.get(Site, doc.site_id) if doc.site_id else None
    number_of = numbers_of(session, {doc.supersedes_id, doc.about_id} | event_numbers(doc))
    pack = load_pack(doc.jurisdiction, doc.issued)
    served = get_kind(doc.kind).served
    lifted = lifting(session, doc)
    return DocumentRecord(
        id=doc.id,
        number=doc.number,
        kind=doc.kind,
        jurisdiction=doc.jurisdiction,
        issued=doc.issued,
        respondent=ref(doc.respondent) if doc.respondent else None,
        site=(site.address or site.description) if site else None,
        hashes={f.format: f.sha256 for f in doc.files},
        services=tuple(
            service_record(s, numbers=number_of, complete=complete(s, list(doc.services), pack))
            for s in doc.services
        ),
        appeal_deadline=kept_deadline(list(doc.services)),
        persons=persons(doc, pack) if served else (),
        served_on=served_on(doc, pack) if served else None,
        supersedes=number_of.get(doc.supersedes_id),
        superseded_by=successor(session, doc.id),
        corrections=corrections(session, doc),
        lifted_by=lifted[0] if lifted else None,
        lifted_on=lifted[1] if lifted else None,
        about=number_of.get(doc.about_id),
        recorded_by=doc.recorded_by,
        recorded_at=doc.recorded_at,
        docgen_version=doc.docgen_version,
        pack_version=doc.pack_version,
        case=doc.case,
    )


def history(session: Session, who: int | str) -> History:
    """A respondent's offenses and documents, newest first."""
    person = respondent_row(session, who)
    offenses = session.execute(
        select(Offense, Document.number)
        .outerjoin(Document, Offense.document_id == Document.id)
        .where(Offense.respondent_id == person.id)
        .order_by(Offense.committed.desc(), Offense.id.desc())
    ).all()
    docs = session.scalars(
        select(Document)
        .where(Document.respondent_id == person.id)
        .order_by(Document.issued.desc(), Document.id.desc())
    ).all()
    return History(
        respondent=ref(person),
        offenses=tuple(offense_record(o, n) for o, n in offenses),
        documents=tuple(document_record(session, d) for d in docs),
    )


def charged(session: Session, document_id: int, number: str) -> list[OffenseRecord]:
    """The offense document ``number`` (id ``document_id``) charges, as its respondent's
    history lists it (one row; a document's page reads this, not the whole history)."""
    rows = session.scalars(
        select(Offense)
        .options(lazyload(Offense.document))  # its document is the one the page has
        .where(Offense.document_id == document_id)
        .order_by(Offense.committed.desc(), Offense.id.desc())
    ).all()
    return [offense_record(o, number) for o in rows]


def documents(
    session: Session,
    filter: str | None,
    kind: str | None,
    respondent: int | None,
    today: date,
    limit: int,
) -> list[DocumentRecord]:
    """Issued documents, newest first, optionally narrowed by a named filter."""
    query = select(Document).order_by(Document.issued.desc(), Document.id.desc())
    if kind:
        query = query.where(Document.kind == kind)
    if respondent is not None:
        query = query.where(Document.respondent_id == respondent)
    query = apply(query, filter, today, session)
    rows = session.scalars(query.limit(limit)).all()
    return [document_record(session, d) for d in rows]


def verify(session: Session, blob: bytes) -> Verified | VerifiedSet | None:
    """The issued document whose file has these exact bytes, the set of certifications
    the register assembled as that file, or None."""
    digest = hashlib.sha256(blob).hexdigest()
    hit = session.execute(
        select(DocumentFile.format, Document)
        .join(Document, DocumentFile.document_id == Document.id)
        .where(DocumentFile.sha256 == digest)
        .limit(1)
    ).first()
    if hit is None:
        return certification_set(session, digest)
    fmt, doc = hit
    lifted = lifting(session, doc)
    served = get_kind(doc.kind).served
    pack = load_pack(doc.jurisdiction, doc.issued) if served else None
    return Verified(
        number=doc.number,
        kind=doc.kind,
        jurisdiction=doc.jurisdiction,
        issued=doc.issued,
        respondent=doc.respondent.name if doc.respondent else None,
        format=fmt,
        superseded_by=successor(session, doc.id),
        in_effect=in_effect(session, doc),
        copy_for=copy_for(doc.case, fmt),
        certified=certified(session, doc.id),
        part_for=part_for(doc.kind, doc.case, fmt),
        about=numbers_of(session, {doc.about_id}).get(doc.about_id),
        lifted_by=lifted[0] if lifted else None,
        lifted_on=lifted[1] if lifted else None,
        rendition=rendition_name(fmt),
        # Its service and deadline as the register derives them (LAW.md § 2), never an
        # event's raw date: the same the history, the desk and the calendar read.
        served=served,
        served_on=served_on(doc, pack) if pack is not None else None,
        appeal_deadline=kept_deadline(list(doc.services)),
    )


def audit(session: Session, limit: int) -> list[dict[str, Any]]:
    rows = session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)).all()
    return [
        {
            "at": r.at.isoformat() if r.at else None,
            "actor": r.actor,
            "action": r.action,
            "entity": r.entity,
            "entity_id": r.entity_id,
            "detail": r.detail,
        }
        for r in rows
    ]


def count(session: Session) -> int:
    return session.scalar(select(func.count(Document.id))) or 0


def served_days(session: Session, ids: list[int]) -> dict[int, date | None]:
    """The day each listed document's service was complete, as the register derives it
    (docgen.register.storage.standing, LAW.md § 2): the history, verify and the document's page
    say the same day, never a mailing's raw date. Two queries for the page, its files
    never read."""
    events: dict[int, list[ServiceEvent]] = {}
    found = select(ServiceEvent).where(ServiceEvent.document_id.in_(ids))
    for event in session.scalars(found.order_by(ServiceEvent.id)):
        events.setdefault(event.document_id, []).append(event)
    if not events:
        return {}
    rows = session.execute(
        select(
            Document.id, Document.kind, Document.jurisdiction, Document.issued, Document.case
        ).where(Document.id.in_(list(events)))
    ).all()
    return {
        id_: served_from(persons_of(case, events[id_], load_pack(where, issued)))
        for id_, kind, where, issued, case in rows
        if get_kind(kind).served
    }
