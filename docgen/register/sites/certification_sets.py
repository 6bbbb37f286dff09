"""The SWPPP's full set of a site's signed certifications as one PDF, a file the register
records and seals like the documents it issues ("The certification statement(s) shall
become part of the SWPPP": § 228-78B(4)(c); § 301-71D(3)).

The set is the sealed PDFs of the site's certifications, in the order signed, joined (each
firm's own signature field is left out: the signature it carried covers its own file, not
the set, and the register keeps that file under its number), then sealed with the
municipality's key (PAdES, in an invisible field: no page of the set is the municipality's
own). The register keeps the set (:class:`~docgen.register.storage.models.CertificationSet`: the
site, the numbers it holds, its SHA-256 and bytes), so `docgen verify`, the desk's Verify
page and the public check find it by its bytes and name what it holds. The same
certifications make the same set: asked again, the stored bytes are handed out; a firm
signing later makes a new set. A set is frozen once written.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from docgen.law.packs import load_pack
from docgen.register.matter import checks
from docgen.register.sites import invitations
from docgen.register.storage import db
from docgen.register.storage.audit import record
from docgen.register.storage.models import CertificationSet


@dataclass(frozen=True)
class Assembled:
    """A recorded set: its bytes and what it holds."""

    id: int
    numbers: tuple[str, ...]
    pdf: bytes
    signed: bool
    created_at: datetime
    repeated: bool = False  # the set was recorded before; its stored bytes


def holds_hash(site_id: int, numbers: list[str]) -> str:
    """What a set is made of (its site and numbers in order): one set per content."""
    text = json.dumps({"site": site_id, "numbers": numbers}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _stored(session: Any, holds: str) -> Assembled | None:
    row = session.scalar(select(CertificationSet).where(CertificationSet.holds_sha256 == holds))
    if row is None:
        return None
    return Assembled(row.id, tuple(row.numbers), row.content, row.signed, row.created_at, True)


def assemble(reg: Any, site_id: int, by: str) -> Assembled:
    """The site's set of signed certifications, recorded and sealed (the one recorded
    before when it holds the same certifications). InvitationError when no firm signed."""
    where = invitations.site(reg.engine, site_id)
    numbers = invitations.signed_numbers(reg.engine, site_id)
    if not numbers:
        raise invitations.InvitationError("No firm has signed yet: nothing to download")
    holds = holds_hash(site_id, numbers)
    with db.read_session(reg.engine) as session:
        kept = _stored(session, holds)
    if kept is not None:
        return kept
    pack = load_pack(where.jurisdiction)
    sealing = checks.prepare(pack)  # before joining: a key that cannot sign stops it
    joined = join([reg.files(n, where.jurisdiction)["pdf"] for n in numbers])
    title = f"The contractor certifications of {where.name} ({len(numbers)} signed)"
    pdf, signed = checks.seal_assembled(joined, sealing, title)
    digest = hashlib.sha256(pdf).hexdigest()
    with db.write_session(reg.engine) as session:
        kept = _stored(session, holds)  # another request recorded it meanwhile
        if kept is not None:
            return kept
        row = CertificationSet(
            site_id=site_id,
            numbers=numbers,
            holds_sha256=holds,
            sha256=digest,
            size=len(pdf),
            content=pdf,
            signed=signed,
            created_at=datetime.now().astimezone(),
            created_by=by[:200],
        )
        session.add(row)
        session.flush()
        detail = {"site": site_id, "numbers": numbers, "sha256": digest}
        record(session, by, "assemble", "certification-set", row.id, detail)
        return Assembled(row.id, tuple(numbers), pdf, signed, row.created_at)


def join(blobs: list[bytes]) -> bytes:
    """The PDFs' pages one after another, without their signature fields (a signature
    covers the file it was made in; joined, it would show as broken)."""
    # pypdf, fontTools, PIL take 75 ms to import: loaded on first use
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject

    writer = PdfWriter()
    for blob in blobs:
        for page in PdfReader(io.BytesIO(blob)).pages:
            added = writer.add_page(page)
            annots = added.get("/Annots")
            if annots is not None:
                kept = [a for a in annots if a.get_object().get("/FT") != "/Sig"]
                added[NameObject("/Annots")] = ArrayObject(kept)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
