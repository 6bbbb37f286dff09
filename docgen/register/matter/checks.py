"""What issuing adds for anyone holding the document: a signature and a public check.

At issue, before the register's transaction, the municipality's signing key is opened
and its certificate checked (:func:`prepare`): a key that cannot sign stops the issue
before anything is numbered. Inside the transaction the document is rendered with its
verification line (:func:`mark_for`: the check's address, the number and a new access
code), its PDF is signed (:func:`seal`), and only then are the files hashed and
recorded, so the register's SHA-256 is the signed file's. The access code is kept as
an Argon2id hash beside the document (:class:`AccessCode`, frozen like the document).

The public check (:func:`public_record`) answers only to a number with its right access
code, and says only what the document itself prints: kind, number, issue date, whether
it is current, superseded (by which number) or lifted (by which notice, as of which day,
as `docgen verify` says it), and whether it was signed. No service fact and nothing of the
case (no person, no offense: sealed records stay sealed, CPL 160.50).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean, ForeignKey, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from docgen.documents import get_kind
from docgen.documents.kind import Options
from docgen.law.pack import Pack
from docgen.law.packs import pack_names
from docgen.register.rules.certifiers import certified, sets_holding
from docgen.register.rules.rows import in_effect, lifting, successor
from docgen.register.storage import db
from docgen.register.storage.models import Base, Document, DocumentFile
from docgen.register.storage.records import VerifiedSet
from docgen.settings import is_loopback, load_settings, settings_path
from docgen.signing.check import SignatureReport, check_signature
from docgen.signing.codes import (
    IssueMark,
    code_matches,
    hash_code,
    local_address,
    new_code,
    normalized,
)
from docgen.signing.sign import Signer, municipal_signer, sign_pdf

# Set by `docgen serve` for a desk reached from other machines (docgen.desk.commands).
PUBLIC_DESK = "DOCGEN_SERVE_PUBLIC"


class AccessCode(Base):
    """An issued document's access code (hashed) and whether its PDF was signed."""

    __tablename__ = "access_codes"

    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(200))
    signed: Mapped[bool] = mapped_column(Boolean)


@dataclass(frozen=True)
class Sealing:
    """What issuing in one municipality needs to sign and mark its documents."""

    municipality: str  # "the Village of ..." (the pack's name)
    base: str  # the public check's address
    signer: Signer | None  # None: no key configured, documents are issued unsigned
    officers: dict[str, str]  # role -> "Name, Title" from the settings
    warnings: tuple[str, ...] = ()


def prepare(pack: Pack, prompt: bool = True) -> Sealing:
    """Open the municipality's signing key and check its certificate (before issuing)."""
    local = load_settings(pack.id)
    settings = local.settings if local is not None else None
    warnings = []
    base = settings.verification.address if settings and settings.verification else None
    if os.environ.get(PUBLIC_DESK) == "1" and (base is None or is_loopback(base)):
        raise db.RegisterError(
            f"{settings_path(pack.id)}: verification.address "
            + ("is not set" if base is None else f"is {base}, which only this machine can reach")
            + f": a desk reached from other machines issues nothing for {pack.id} until its "
            "settings give the public check's address (https://...); nothing was issued"
        )
    if base is None:
        base = local_address()
        warnings.append(
            f"no public check address in {pack.id}'s settings (verification.address): the "
            f"verification line points to {base}"
        )
    officers = {}
    if settings is not None:
        for role in ("enforcement", "signatory"):
            officer = getattr(settings.officers, role)
            if officer is not None:
                officers[role] = f"{officer.name}, {officer.title}"
    signer = municipal_signer(pack.id, pack.name.value, prompt)
    return Sealing(f"the {pack.name.value}", base, signer, officers, tuple(warnings))


def signing_officer(sealing: Sealing, kind: str, data: dict[str, Any]) -> str | None:
    """Who the signature names: the case's officer; for a recorded instrument the
    municipality's signatory; else the settings' enforcement officer (None: nobody named)."""
    officer = data.get("officer")
    if isinstance(officer, dict) and officer.get("name"):
        title = officer.get("title")
        return f"{officer['name']}, {title}" if title else str(officer["name"])

    instrument = get_kind(kind).permission == "instruments"  # an attorney's instrument
    if instrument and "signatory" in sealing.officers:
        return sealing.officers["signatory"]
    return sealing.officers.get("enforcement") or sealing.officers.get("signatory")


def mark_for(
    sealing: Sealing, options: Options, number: str, officer: str | None
) -> tuple[Options, str]:
    """``options`` with the verification line of document ``number``, and its new code."""
    code = new_code()
    mark = IssueMark(
        sealing.base, number, code, sealing.municipality, officer, sealing.signer is not None
    )
    return replace(options, mark=mark), code


def seal(
    files: dict[str, bytes], sealing: Sealing, officer: str | None, title: str
) -> dict[str, bytes]:
    """``files`` with the PDF signed (unchanged when the municipality has no key)."""
    if sealing.signer is None or "pdf" not in files:
        return files
    reason = f"{title}, issued by {sealing.municipality}"
    signed = sign_pdf(files["pdf"], sealing.signer, officer or sealing.municipality, reason)
    return {**files, "pdf": signed}


def seal_assembled(pdf: bytes, sealing: Sealing, title: str) -> tuple[bytes, bool]:
    """(``pdf`` sealed by the municipality, whether it was): a file the register assembles
    from documents it issued (docgen.register.sites.certification_sets), signed in an invisible
    field, in the municipality's name (no officer's act makes it)."""
    if sealing.signer is None:
        return pdf, False
    reason = f"{title}, assembled by {sealing.municipality} from the documents it issued"
    return sign_pdf(pdf, sealing.signer, sealing.municipality, reason, visible=False), True


def record_code(session: Session, document_id: int, code: str, signed: bool) -> None:
    session.add(AccessCode(document_id=document_id, code_hash=hash_code(code), signed=signed))


# -- the public check ------------------------------------------------------------------


@dataclass(frozen=True)
class PublicRecord:
    """What the public check may say about a document (nothing else of the case)."""

    number: str
    kind: str
    jurisdiction: str
    issued: date
    superseded_by: str | None
    lifted_by: str | None  # the written notice that lifted a stop-work order
    signed: bool
    document_id: int  # to compare an upload; never shown
    in_effect: str | None = None  # the latest correction, where superseded more than once
    certified: str | None = None  # a firm's own certification: who, for whom, where, when
    lifted_on: date | None = None  # the day the lifting notice lifts the order as of (§ 3)


@cache
def _decoy() -> str:
    return hash_code(new_code())


def public_record(engine: Any, number: str, code: str | None) -> PublicRecord | None:
    """The document ``number`` when ``code`` is its access code; None otherwise, whether
    or not the number exists (and in about the same time: a decoy hash is checked). A code
    that cannot be one (codes.normalized) costs the decoy's check and never reaches the
    database: the time of a look-up would tell an issued number from an unknown one."""
    if normalized(code or "") is None:
        code_matches(_decoy(), code)
        return None
    with db.read_session(engine) as session:
        rows = session.execute(
            select(Document, AccessCode)
            .join(AccessCode, AccessCode.document_id == Document.id)
            .where(Document.number == number.strip())
        ).all()
        if not rows:
            code_matches(_decoy(), code)
            return None
        for doc, access in rows:
            if code_matches(access.code_hash, code):
                lifted = lifting(session, doc)  # its number and date, as `verify` says them
                return PublicRecord(
                    doc.number,
                    doc.kind,
                    doc.jurisdiction,
                    doc.issued,
                    successor(session, doc.id),
                    lifted[0] if lifted else None,
                    access.signed,
                    doc.id,
                    in_effect(session, doc),
                    certified(session, doc.id),
                    lifted[1] if lifted else None,
                )
        return None


def same_file(engine: Any, record: PublicRecord, blob: bytes) -> str | None:
    """The format of ``record``'s issued file that ``blob`` is byte for byte, or None."""
    digest = hashlib.sha256(blob).hexdigest()
    with db.read_session(engine) as session:
        return session.scalar(
            select(DocumentFile.format).where(
                DocumentFile.document_id == record.document_id, DocumentFile.sha256 == digest
            )
        )


def set_holding(engine: Any, record: PublicRecord, blob: bytes) -> VerifiedSet | None:
    """The set of certifications the register assembled as ``blob`` when it holds
    ``record`` (docgen.register.sites.certification_sets), or None."""
    digest = hashlib.sha256(blob).hexdigest()
    with db.read_session(engine) as session:
        return sets_holding(session, digest, record.number)


def signature_of(blob: bytes, jurisdiction: str | None) -> SignatureReport:
    """``blob``'s signature checked against ``jurisdiction``'s trust root (its settings'
    certificate); without a jurisdiction (a file the register does not know), against the
    first municipality whose root trusts it."""

    def root(name: str) -> Path | None:
        local = load_settings(name)
        return local.settings.signing.certificate if local and local.settings.signing else None

    if jurisdiction is not None:
        return check_signature(blob, root(jurisdiction))
    report = check_signature(blob, None)
    for name in pack_names():
        trusted = root(name)
        if trusted is not None and report.signed:
            candidate = check_signature(blob, trusted)
            if candidate.valid:
                return candidate
    return report
