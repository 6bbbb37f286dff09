"""Who certified a document through an invitation (docgen.register.sites.invitations): the line
`docgen verify` and the public check add for a firm's own certification, and what a set of
a site's certifications holds (docgen.register.sites.certification_sets)."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select

from docgen.cases.common import Site
from docgen.law.deadlines import local_time
from docgen.law.packs import load_pack
from docgen.register.storage.models import CertificationSet, CertificationSite, Document, Invitation
from docgen.register.storage.records import VerifiedSet


def certified(session: Any, document_id: int) -> str | None:
    """Who certified the document through an invitation, for whom, where and when (what
    `docgen verify` and the public check say), or None for a document issued otherwise."""
    row = session.scalar(select(Invitation).where(Invitation.document_id == document_id))
    if row is None:
        return None
    where = session.get(CertificationSite, row.site_id)
    how = "electronically" if row.method == "electronic" else "on paper (scan kept)"
    zone = ZoneInfo(load_pack(where.jurisdiction).part("certification").time_zone.value)
    at = local_time(row.signed_at, zone) if row.signed_at else "?"  # as its document says it
    label = Site.model_validate(where.site).label()
    return f"certified by {row.signed_by} for {row.firm} at {label}, signed {how} at {at}"


def certification_set(session: Any, digest: str) -> VerifiedSet | None:
    """The recorded set of certifications whose file has the SHA-256 ``digest``, naming
    each certification it holds, or None."""
    row = session.scalar(select(CertificationSet).where(CertificationSet.sha256 == digest))
    if row is None:
        return None
    where = session.get(CertificationSite, row.site_id)
    ids = dict(
        session.execute(
            select(Document.number, Document.id).where(
                Document.number.in_(row.numbers), Document.jurisdiction == where.jurisdiction
            )
        ).all()
    )
    holds = tuple((n, certified(session, ids[n]) or "issued by this register") for n in row.numbers)
    return VerifiedSet(
        where.jurisdiction,
        str(where.project["name"]),
        Site.model_validate(where.site).label(),
        row.created_at,
        holds,
    )


def sets_holding(session: Any, digest: str, number: str) -> VerifiedSet | None:
    """The recorded set of SHA-256 ``digest`` when it holds the certification ``number``
    (what the public check of that number may say of an upload), else None."""
    found = certification_set(session, digest)
    return found if found is not None and number in dict(found.holds) else None
