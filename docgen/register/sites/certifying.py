"""A firm certifying through its link (§ 228-78B(4); § 301-71D): the link opened, the
certification made from the site and the firm's entry, signed (electronically at one
instant, or on paper with its scan kept) and issued through the register in one
transaction, and the signed file read back while the link's days last. The sites and the
links themselves are docgen.register.sites.invitations.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select

from docgen.documents import the_kind
from docgen.law.deadlines import local_time
from docgen.law.packs import load_pack
from docgen.register.matter import issuing, rendering
from docgen.register.matter.lost import recording
from docgen.register.sites.invitations import (
    InvalidLink,
    InvitationError,
    InvitationView,
    SiteView,
    invitation_view,
    inviter_gone,
    now,
    site_view,
    status_of,
    today_in,
    token_hash,
    zone_of,
)
from docgen.register.storage import db
from docgen.register.storage.audit import record
from docgen.register.storage.models import CertificationSite, Document, DocumentFile, Invitation
from docgen.register.storage.records import Issued

SCANS = {b"%PDF-": "pdf", b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpg"}
MAX_SCAN = 10 * 1024 * 1024


@dataclass(frozen=True)
class Opened:
    """A live invitation and its site: what the public form may show and fill in; ``plan``:
    the site's approved SWPPP the certification becomes part of, as the register names it
    (docgen.register.plans.swppp.approved; None: none approved yet)."""

    invitation: InvitationView
    site: SiteView
    plan: str | None = None


def _usable(session: Any, token: str) -> tuple[Invitation, CertificationSite]:
    row = session.scalar(select(Invitation).where(Invitation.token_sha256 == token_hash(token)))
    if row is None:
        raise InvalidLink
    where = session.get(CertificationSite, row.site_id)
    if status_of(row, today_in(where.jurisdiction)) not in ("invited", "opened"):
        raise InvalidLink
    if inviter_gone(session, row.created_by):
        raise InvalidLink
    return row, where


def open_link(engine: Engine, token: str) -> Opened:
    """The invitation of ``token`` (marked opened the first time), or InvalidLink."""
    if not token or len(token) > 100:
        raise InvalidLink
    with db.write_session(engine) as session:
        row, where = _usable(session, token)
        if row.opened_at is None:
            row.opened_at = now()
        return Opened(invitation_view(row, None, today_in(where.jurisdiction)), site_view(where))


# -- what the firm signs -----------------------------------------------------------------


def statement(jurisdiction: str) -> tuple[str, str]:
    """The site's law's statement, verbatim from the pack, and its provision."""
    found = load_pack(jurisdiction).part("certification").statement
    return found.value, found.ref


def case_for(where: SiteView, entry: dict[str, Any]) -> dict[str, Any]:
    """The firm's certification as a case: the site's project and site, this firm alone."""
    project = dict(where.project)
    if where.began is not None:
        project["began"] = where.began.isoformat()
    return {
        "jurisdiction": where.jurisdiction,
        "project": project,
        "site": where.site,
        "contractors": [entry],
    }


def signed_at(entry: dict[str, Any], moment: datetime, jurisdiction: str) -> dict[str, Any]:
    """``entry`` signed electronically at ``moment``, the instant the register records as
    its signing: the signature's time as the municipality's clock shows it (its zone
    named, the words `docgen verify`, the public check and `docgen certify list` use) and
    the certification's date that instant's date there (LAW.md § 5: one instant, shown
    the same everywhere)."""
    here = zone_of(jurisdiction)
    signature = {**entry["electronic_signature"], "at": local_time(moment, here)}
    day = moment.astimezone(here).date().isoformat()
    return {**entry, "signed": day, "electronic_signature": signature}


def shown_hash(case: dict[str, Any], intent: str | None) -> str:
    """The SHA-256 of exactly what the signer was shown: the statement, the case and the
    statement of intent, as canonical JSON."""
    shown = {
        "statement": statement(case["jurisdiction"])[0],
        "case": case,
        "intent": intent,
    }
    text = json.dumps(shown, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scan_format(blob: bytes) -> str:
    """The scan's type read from its first bytes (PDF, PNG or JPEG), or InvitationError."""
    if not blob:
        raise InvitationError("Signed scan: the file is empty")
    if len(blob) > MAX_SCAN:
        raise InvitationError(
            f"Signed scan: larger than {MAX_SCAN // (1024 * 1024)} MB; scan at a lower resolution"
        )
    for magic, fmt in SCANS.items():
        if blob.startswith(magic):
            return fmt
    raise InvitationError("Signed scan: not a PDF, PNG or JPEG file (read from its contents)")


def sign(
    reg: Any,
    token: str,
    entry: dict[str, Any],
    method: str,
    intent: str | None = None,
    scan: bytes | None = None,
) -> Issued:
    """Issue the firm's certification from its invitation: ``entry`` is the firm's part of
    the case (signed, with its electronic signature or its scan's SHA-256 already in it);
    ``scan`` the paper-signed scan kept with the number. In one transaction: the number, the
    sealed PDF, the scan, the invitation used. Refused (nothing recorded) when the link no
    longer works or the case has problems."""
    fmt = scan_format(scan) if scan is not None else None
    with db.read_session(reg.engine) as session:
        _, where_row = _usable(session, token)
        where = site_view(where_row)
    moment = now()  # the one instant of signing: on the document and in the register
    if method == "electronic" and isinstance(entry.get("electronic_signature"), dict):
        entry = signed_at(entry, moment, where.jurisdiction)
    data = case_for(where, entry)
    shown = shown_hash(data, intent)
    signer = entry.get("signer") or {}
    signed_by = f"{signer.get('name')}, {signer.get('title')}"[:500]
    request = issuing.Request(
        the_kind(contractor_signs=True),  # the contractor's own statement (§ 228-78B(4))
        data,
        f"the certification of {entry.get('firm')}",
        None,
        ("pdf",),
        None,
        f"{signed_by} (by invitation)"[:200],
        sealing=issuing.sealing_for(data),
    )

    def work() -> Issued:
        safe = "if it was recorded, the link no longer works and the site's page shows it"
        with recording(reg, "sign again", safe) as (session, held):
            row, _ = _usable(session, token)
            issued, _ = issuing.issue_in(session, request)
            held.issuing(request, issued.number)
            row.document_id = issued.id
            row.signed_at = moment
            row.signed_by = signed_by
            row.method = method
            row.shown_sha256 = shown
            if scan is not None:
                session.add(
                    DocumentFile(
                        document_id=issued.id,
                        format=f"scan.{fmt}",
                        sha256=hashlib.sha256(scan).hexdigest(),
                        size=len(scan),
                        content=scan,
                    )
                )
            record(
                session,
                request.who,
                "certify",
                "invitation",
                row.id,
                {"number": issued.number, "method": method, "shown_sha256": shown},
            )
            return issued

    return rendering.rendered_outside(work)


def signed_file(reg: Any, token: str) -> tuple[str, bytes] | None:
    """(number, sealed PDF) of the certification the link of ``token`` signed, while the
    link's days last; None for any other token."""
    if not token or len(token) > 100:
        return None
    with db.read_session(reg.engine) as session:
        row = session.scalar(select(Invitation).where(Invitation.token_sha256 == token_hash(token)))
        if row is None or row.document_id is None:
            return None
        where = session.get_one(CertificationSite, row.site_id)
        if row.expires < today_in(where.jurisdiction):
            return None
        doc = session.get_one(Document, row.document_id)
        number, jurisdiction = doc.number, doc.jurisdiction
    return number, reg.files(number, jurisdiction)["pdf"]
