"""Who certified a document through an invitation (docgen.register.invitations): the line
`docgen verify` and the public check add for a firm's own certification."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select

from docgen.cases.common import Site
from docgen.law.packs import load_pack
from docgen.register.models import CertificationSite, Invitation


def certified(session: Any, document_id: int) -> str | None:
    """Who certified the document through an invitation, for whom, where and when (what
    `docgen verify` and the public check say), or None for a document issued otherwise."""
    row = session.scalar(select(Invitation).where(Invitation.document_id == document_id))
    if row is None:
        return None
    where = session.get(CertificationSite, row.site_id)
    how = "electronically" if row.method == "electronic" else "on paper (scan kept)"
    zone = ZoneInfo(load_pack(where.jurisdiction).part("certification").time_zone.value)
    at = row.signed_at.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z") if row.signed_at else "?"
    label = Site.model_validate(where.site).label()
    return f"certified by {row.signed_by} for {row.firm} at {label}, signed {how} at {at}"
