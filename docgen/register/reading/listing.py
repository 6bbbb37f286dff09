"""The register's documents as the desk lists them: narrowed by a named list (a status,
docgen.register.reading.filters), a kind, a municipality, a range of issue dates and a search, one
page at a time, newest first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import aliased

from docgen.register.matter.issuing import today
from docgen.register.reading.filters import apply, kept_deadline_column
from docgen.register.reading.queries import served_days
from docgen.register.storage import db
from docgen.register.storage.models import Document, Respondent, Site


@dataclass(frozen=True)
class Listed:
    """One row of the documents page."""

    number: str
    kind: str
    issued: date
    jurisdiction: str
    recorded_at: datetime
    respondent_id: int | None
    respondent: str | None
    site: str | None
    served: date | None  # the day service was complete (docgen.register.storage.standing)
    appeal_deadline: date | None  # the kept deadline: the latest any service gave
    superseded_by: str | None


@dataclass(frozen=True)
class Narrowing:
    """What a list of documents is narrowed by: the register's named list ``name`` (a
    status, docgen.register.reading.filters), a kind, a search (in the number, the respondent's
    name, the site's address and tax map number), a municipality, a range of issue dates."""

    name: str | None = None
    kind: str | None = None
    search: str = ""
    jurisdiction: str | None = None
    start: date | None = None
    end: date | None = None

    @property
    def narrowed(self) -> bool:
        return any((self.name, self.kind, self.jurisdiction, self.search, self.start, self.end))


def listed(reg: Any, by: Narrowing, offset: int = 0, limit: int = 50) -> list[Listed]:
    """The newest documents (``limit`` of them after ``offset``) that ``by`` lists, read in
    one query: the page's ids first (the filter's rules are the register's own), then their
    details, so nothing costs a query per row; the day each was served is the register's
    derived one (docgen.register.reading.queries.served_days), read for the page only."""
    newest = (Document.issued.desc(), Document.id.desc())
    ids = select(Document.id).order_by(*newest).limit(limit).offset(offset)
    if by.kind:
        ids = ids.where(Document.kind == by.kind)
    if by.jurisdiction:
        ids = ids.where(Document.jurisdiction == by.jurisdiction)
    if by.start:
        ids = ids.where(Document.issued >= by.start)
    if by.end:
        ids = ids.where(Document.issued <= by.end)
    if by.search:
        like = "%" + by.search.replace("\\", "").replace("%", "").replace("_", "") + "%"
        ids = (
            ids.outerjoin(Respondent, Document.respondent_id == Respondent.id)
            .outerjoin(Site, Document.site_id == Site.id)
            .where(
                Document.number.ilike(like)
                | Respondent.name.ilike(like)
                | Site.address.ilike(like)
                | Site.tax_map.ilike(like)
            )
        )
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        page = apply(ids, by.name, today(), session).subquery()
        rows = session.execute(_details(page)).all()
        served = served_days(session, [row[0] for row in rows])
    return [
        Listed(number, kind, issued, whose, at, rid, name, site, served.get(id_), last, by)
        for id_, number, kind, issued, whose, at, rid, name, site, last, by in rows
    ]


def _details(page: Any) -> Select[*tuple[Any, ...]]:
    """Each listed document's details, newest first: ``page`` holds their ids."""
    successor = aliased(Document)
    return (
        select(
            Document.id,
            Document.number,
            Document.kind,
            Document.issued,
            Document.jurisdiction,
            Document.recorded_at,
            Respondent.id,
            Respondent.name,
            func.coalesce(Site.address, Site.description),
            kept_deadline_column(),
            select(successor.number)
            .where(successor.supersedes_id == Document.id)
            .scalar_subquery(),
        )
        .join(page, page.c.id == Document.id)
        .outerjoin(Respondent, Document.respondent_id == Respondent.id)
        .outerjoin(Site, Document.site_id == Site.id)
        .order_by(Document.issued.desc(), Document.id.desc())
    )
