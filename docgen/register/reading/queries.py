"""Reading the register: a document by number, a respondent, their history, the lists
the clerk works from, and which issued document a file is."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, lazyload

from docgen.documents import get_kind, kinds_with
from docgen.law.packs import load_pack
from docgen.register.people.respondents import candidates, parse_id, ref
from docgen.register.reading.filters import apply
from docgen.register.rules.certifiers import certification_set, certified
from docgen.register.rules.copies import copy_for, copy_of, rendition_name, rendition_of
from docgen.register.rules.numbering import normalize
from docgen.register.rules.parts import part_for
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


def document_row(session: Session, number: str, jurisdiction: str | None = None) -> Document:
    """The document numbered ``number`` (in ``jurisdiction``: numbers are unique per
    municipality, and two may share a register), or a RegisterError saying why there is
    not one. A number two municipalities hold is never guessed: ``jurisdiction`` says which."""
    number = normalize(number)
    found = session.scalars(select(Document).where(Document.number == number)).all()
    if not found:
        raise RegisterError(f"{number}: no document with that number in this register")
    where = sorted(d.jurisdiction for d in found)
    if jurisdiction is not None:
        chosen = [d for d in found if d.jurisdiction == jurisdiction.strip().casefold()]
        if not chosen:
            raise RegisterError(
                f"--jurisdiction {jurisdiction}: {number} is not a document of "
                f"{jurisdiction} in this register (it is {', '.join(where)}'s)"
            )
        return chosen[0]
    if len(found) > 1:
        raise RegisterError(
            f"{number} exists in several jurisdictions ({', '.join(where)}); say which "
            f"with --jurisdiction ({' or '.join(where)})"
        )
    return found[0]


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
        return session.get(Respondent, exact[0].id)
    if not listed:
        raise RegisterError(f"respondent {text!r}: no respondent of that name")
    lines = "\n  ".join(str(c) for c in listed)
    raise RegisterError(f"respondent {text!r} is not one record; candidates:\n  {lines}")


def successor(session: Session, document_id: int) -> str | None:
    """The number of the document that supersedes ``document_id``, if any."""
    return session.scalar(select(Document.number).where(Document.supersedes_id == document_id))


def corrections(session: Session, doc: Document) -> tuple[str, ...]:
    """The numbers of the chain of corrections ``doc`` belongs to, oldest first: what it
    corrected (and what that corrected), itself, then each later correction. A document is
    superseded at most once (the register refuses a second correction), so it is a line;
    the last number is the one in effect."""
    earlier: list[str] = []
    previous = doc.supersedes_id
    while previous is not None:
        number, previous = session.execute(
            select(Document.number, Document.supersedes_id).where(Document.id == previous)
        ).one()
        earlier.append(number)
    later: list[str] = []
    following = doc.id
    while (
        row := session.execute(
            select(Document.id, Document.number).where(Document.supersedes_id == following)
        ).first()
    ) is not None:
        following, number = row
        later.append(number)
    return (*reversed(earlier), doc.number, *later)


def line_of(session: Session, doc: Document) -> list[Document]:
    """``doc`` and every document it corrected, back to the first: oldest first."""
    line = [doc]
    while line[0].supersedes_id is not None:
        line.insert(0, session.get(Document, line[0].supersedes_id))
    return line


def in_effect(session: Session, doc: Document) -> str | None:
    """The number of the latest correction of ``doc`` (the one in effect), or None when
    ``doc`` was never superseded."""
    chain = corrections(session, doc)
    return chain[-1] if chain[-1] != doc.number else None


def lifting(session: Session, doc: Document) -> tuple[str, date] | None:
    """The written notice that lifted ``doc`` (a liftable order), if any: its number, and
    the day it lifts the order as of (its issue date: LAW.md § 3, a lifting is dated on or
    before the day it is recorded)."""
    if not get_kind(doc.kind).liftable:
        return None
    found = session.execute(
        select(Document.number, Document.issued).where(
            Document.about_id == doc.id, Document.kind.in_(kinds_with(lifts=True))
        )
    ).first()
    return (found[0], found[1]) if found is not None else None


def lifter(session: Session, doc: Document) -> str | None:
    """The number of the written notice that lifted ``doc`` (a liftable order), if any."""
    found = lifting(session, doc)
    return found[0] if found is not None else None


def numbers_of(session: Session, ids: Any) -> dict[int, str]:
    """Document numbers by id, for the ids given (None skipped)."""
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    rows = session.execute(select(Document.id, Document.number).where(Document.id.in_(wanted)))
    return {id_: number for id_, number in rows}


def event_numbers(doc: Document) -> set[int | None]:
    """The documents a document's events name: each affidavit, each receipt's annex."""
    ids = {e.affidavit_id for e in doc.services}
    return ids | {e.outcome.annex_id for e in doc.services if e.outcome is not None}


def closed(session: Session, doc: Document) -> None:
    """Refuse a record on ``doc`` when it is superseded or lifted: nothing is recorded on
    a document no longer in effect (LAW.md § 2 "Corrections"; § 3)."""
    later = successor(session, doc.id)
    if later:
        raise RegisterError(
            f"{doc.number} was superseded by {later}; nothing more is recorded on it: "
            f"the correction is the document in effect (record it on {later})"
        )
    lifted = lifter(session, doc)
    if lifted:
        raise RegisterError(
            f"{doc.number} was lifted by {lifted}; nothing more is recorded on an order "
            "no longer in effect (LAW.md § 3)"
        )


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
    query = apply(query, filter, today)
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
