"""What the steps after the notice share (§ 228-79C(5), (6); LAW.md § 14): the notice of
violation or stop-work order a step rests on, checked in the register; the document that
follows another (its ``about``), found by its kind's step; the issue date checked against
today and against what it rests on.

Each step's own module (docgen.register.after_notice.occupancy, .restoration, .liens)
records its event and issues its document in one transaction through these."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.documents import a_title, get_kind, kinds_with, the_kind, titles_or
from docgen.errors import Problem
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack
from docgen.register.rules.rows import document_row, in_effect
from docgen.register.storage import db
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.standing import served_on


def opened(
    session: Session, number: str, jurisdiction: str | None, on: date, step: str
) -> tuple[Document, Pack, str]:
    """The document ``number`` a step is taken on, its municipality's pack as of ``on``,
    and the provision the document of ``step`` rests on (refused where the law has none)."""
    doc: Document = document_row(session, number, jurisdiction)
    pack = load_pack(doc.jurisdiction, on)
    return doc, pack, pack.require(get_kind(kind_of(step)))


def once(session: Session, doc: Document, step: str, why: str, said: str) -> None:
    """Refused when ``doc`` already has its document of ``step``: ``said`` says so, naming
    ``{doc}`` and the one that follows it, ``{done}``."""
    done = following(session, doc, step)
    if done is not None:
        raise RegisterError(f"{said.format(doc=doc.number, done=done.number)} ({why})")


def without_article(person: dict[str, Any]) -> dict[str, Any]:
    """A person served, without an earlier piece's certified article number (each mailed
    piece has its own: LAW.md § 2)."""
    return {k: v for k, v in person.items() if k != "certified_article"}


def kind_of(step: str) -> str:
    """The one kind whose step is ``step`` (docgen.documents.kind.Kind.step)."""
    return the_kind(step=step)


def resting_kinds() -> tuple[str, ...]:
    """What a step rests on: a notice of violation (appealable) or a stop-work order
    (liftable), as their descriptions say."""
    return (*kinds_with(appealable=True), *kinds_with(liftable=True))


def rests_on(doc: Document, pack: Pack, why: str) -> date:
    """The day service of ``doc`` was complete, when it is a notice of violation or a
    stop-work order, in effect and served; a RegisterError saying what is wrong
    otherwise (``why``: the provision of the step)."""
    if doc.kind not in resting_kinds():
        raise RegisterError(
            f"{doc.number} is {a_title(doc.kind)}; it rests on {titles_or(resting_kinds())} ({why})"
        )
    return served(doc, pack, why)


def served(doc: Document, pack: Pack, why: str) -> date:
    """The day service of ``doc`` was complete; refused when ``doc`` was superseded (the
    one in effect is named) or has no recorded service that stands."""
    session = Session.object_session(doc)
    current = in_effect(session, doc) if session is not None else None
    if current is not None:
        raise RegisterError(
            f"{doc.number} was superseded; the one in effect is {current}: name {current} ({why})"
        )
    day = served_on(doc, pack)
    if day is None:
        raise RegisterError(
            f"{doc.number} has no recorded service that stands: record its service first "
            f"(docgen record-service {doc.number} ...) ({why})"
        )
    return day


def dated(on: date, pack: Pack, after: date, what: str, why: str) -> list[Problem]:
    """``on`` is neither after today in the municipality nor before ``after`` (``what``
    says what that day is)."""
    today = municipal_today(pack)
    if on > today:
        message = f"{on}: after today ({today} in the {pack.name.value}); never dated ahead"
        return [Problem("date", message, why)]
    if on < after:
        return [Problem("date", f"{on}: before {what} ({after})", why)]
    return []


def following(session: Session, doc: Document, step: str) -> Document | None:
    """The document of ``step`` that follows ``doc`` (its ``about``), if any."""
    kind = kind_of(step)
    found: Document | None = session.scalars(
        select(Document).where(Document.about_id == doc.id, Document.kind == kind)
    ).first()
    return found


def step_after(reg: Any, number: str, step: str, jurisdiction: str | None = None) -> str | None:
    """The number of the document of ``step`` that follows the document ``number`` of
    ``jurisdiction`` (a release of an order preventing occupancy...), if any: read for the
    desk's page. A number two municipalities share is never guessed (document_row)."""
    with db.read_session(reg.engine) as session:
        found = following(session, document_row(session, number, jurisdiction), step)
        return found.number if found is not None else None


def of_step(doc: Document, step: str, why: str) -> None:
    """Refuse ``doc`` when it is not of ``step``'s kind."""
    kind = kind_of(step)
    if doc.kind != kind:
        raise RegisterError(f"{doc.number} is {a_title(doc.kind)}, not {a_title(kind)} ({why})")


def refuse(problems: list[Problem]) -> None:
    if problems:
        raise Refused(problems)


def violations_of(doc: Document) -> list[dict[str, Any]]:
    """The violations a notice or order states: provision and nature."""
    return [
        {"provision": v["provision"], "nature": v["nature"]}
        for v in doc.case.get("violations") or []
    ]
