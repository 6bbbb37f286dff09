"""A document as every step that records finds it: by its number (document_row; the
municipalities holding a number, holders; the numbers more than one holds, shared), its line
of corrections (successor, corrections, line_of), whether it is still in effect (in_effect,
lifting, lifter; closed refuses a record on a document superseded or lifted), and document
numbers by id (numbers_of).

The writers' lookups, below every folder that records; what the command line and the desk
show of a document is read by docgen.register.reading.queries."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from docgen.documents import get_kind, kinds_with
from docgen.law.packs import pack_names
from docgen.register.rules.numbering import normalize
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Document


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


def holders(session: Session, number: str) -> list[Document]:
    """Every document numbered ``number``, one per municipality holding it, by
    jurisdiction: what a number two municipalities share may mean."""
    query = select(Document).where(Document.number == normalize(number))
    return list(session.scalars(query.order_by(Document.jurisdiction)))


def shared(session: Session) -> frozenset[str]:
    """The numbers more than one municipality of this register holds (each municipality
    numbers its own series: two municipalities' letters may be numbered alike). A register
    of one municipality (the usual) shares none, and is told so from the index of each
    municipality's numbers, without grouping every number."""
    held = select(Document.id).where(Document.jurisdiction.in_(pack_names()))
    first = session.scalar(held.limit(1))
    if first is None:
        return frozenset()
    own = session.get_one(Document, first).jurisdiction
    other = select(Document.id).where(
        Document.jurisdiction.in_([j for j in pack_names() if j != own])
    )
    if session.scalar(other.limit(1)) is None:
        return frozenset()
    query = select(Document.number).group_by(Document.number).having(func.count() > 1)
    return frozenset(session.scalars(query))


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
        line.insert(0, session.get_one(Document, line[0].supersedes_id))
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


def numbers_of(session: Session, ids: Iterable[int | None]) -> dict[int | None, str]:
    """Document numbers by id, for the ids given (None skipped)."""
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    rows = session.execute(select(Document.id, Document.number).where(Document.id.in_(wanted)))
    return {id_: number for id_, number in rows}


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
