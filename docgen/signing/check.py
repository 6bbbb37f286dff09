"""Is a PDF's signature the municipality's, and is the file as it was signed?

pyHanko validates the signature: the bytes it covers are unchanged (the digest), the
signature verifies with the certificate's key, and the certificate leads to the trust
root (the municipality's certificate, named in its settings). It also reports what was
added after the signature: a file signed and then extended by an incremental update
(a second revision, even one that changes only the metadata) is reported as changed.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import serialization

from docgen.signing.keys import read_certificate
from docgen.signing.sign import off_loop

if TYPE_CHECKING:  # pyHanko publishes no types: this names what its object is
    from pyhanko.sign.validation.pdf_embedded import EmbeddedPdfSignature

# What an incremental update after the signature changed, by pyHanko's ModificationLevel.
_MODIFICATIONS = {
    "NONE": "nothing that changes the document",
    "LTA_UPDATES": "metadata or validation data only",
    "FORM_FILLING": "form fields filled in",
    "ANNOTATIONS": "annotations added or changed",
    "OTHER": "changes to the pages or the document's structure",
}


@dataclass(frozen=True)
class SignatureReport:
    """What `docgen verify` and the public check say about a file's signature."""

    signed: bool
    valid: bool = False  # intact, verifies, and leads to the trust root
    signer: str = ""  # the certificate's subject
    signed_at: datetime | None = None
    timestamped: bool = False
    changed_after: str = ""  # "" when the signature covers the whole file
    problems: tuple[str, ...] = field(default_factory=tuple)

    def lines(self) -> list[str]:
        if not self.signed:
            return ["signature: none (the file is not signed)"]
        when = f"{self.signed_at:%Y-%m-%d %H:%M:%S %Z}" if self.signed_at else "unknown"
        stamp = " (time-stamped)" if self.timestamped else ""
        out = [
            f"signature: {'valid' if self.valid else 'NOT VALID'}",
            f"signed by: {self.signer or 'unknown'}",
            f"signed at: {when}{stamp}",
            "changed after signing: " + (self.changed_after or "no"),
        ]
        out += [f"problem: {p}" for p in self.problems]
        return out


def check_signature(pdf: bytes, trust_root: Path | None) -> SignatureReport:
    """The first signature of ``pdf`` validated against ``trust_root`` (None: no trust root
    is configured, so no signature can be trusted)."""
    # pyhanko_certvalidator, pyhanko, asn1crypto take 95 ms to import: loaded on first use
    from pyhanko.pdf_utils.misc import PdfReadError
    from pyhanko.pdf_utils.reader import PdfFileReader

    try:
        reader = PdfFileReader(io.BytesIO(pdf), strict=False)
        signatures = reader.embedded_signatures
    except (PdfReadError, ValueError, KeyError, TypeError) as err:
        return SignatureReport(signed=False, problems=(f"not a readable PDF: {err}",))
    if not signatures:
        return SignatureReport(signed=False)

    return off_loop(_validated, signatures[0], trust_root)


def _validated(signature: EmbeddedPdfSignature, trust_root: Path | None) -> SignatureReport:

    # asn1crypto takes 12 ms to import: loaded on first use
    from asn1crypto import x509 as asn1_x509

    # pyhanko, aiohttp, pyhanko_certvalidator take 330 ms to import: loaded on first use
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.errors import SignatureValidationError
    from pyhanko.sign.validation.status import SignatureCoverageLevel
    from pyhanko_certvalidator import ValidationContext

    # pyHanko logs a failed path to the trust root with its traceback: the report says it.
    for name in ("pyhanko", "pyhanko_certvalidator"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    problems: list[str] = []
    roots = []
    if trust_root is None:
        problems.append("no trust root: the municipality's settings name no certificate")
    else:
        certificate = read_certificate(trust_root)
        roots.append(
            asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))
        )
    context = ValidationContext(trust_roots=roots, allow_fetching=False)
    try:
        status = validate_pdf_signature(signature, signer_validation_context=context)
    except (SignatureValidationError, ValueError) as err:
        return SignatureReport(signed=True, problems=(*problems, f"cannot validate: {err}"))
    if not status.intact:
        problems.append("the signed bytes were changed (the digest does not match)")
    elif not status.valid:
        problems.append("the signature does not verify with its certificate")
    if not status.trusted:
        problems.append("the certificate does not lead to the municipality's trust root")
    changed = ""
    if status.coverage != SignatureCoverageLevel.ENTIRE_FILE:
        level = status.modification_level
        what = _MODIFICATIONS.get(
            level.name if level is not None else "", "changes pyHanko could not classify"
        )
        changed = f"yes: an incremental update was added after the signature ({what})"
        if status.coverage != SignatureCoverageLevel.ENTIRE_REVISION:
            changed = "yes: the signature covers only part of the file"
    signer = status.signing_cert.subject.human_friendly if status.signing_cert else ""
    timestamp = status.timestamp_validity
    return SignatureReport(
        signed=True,
        valid=status.intact and status.valid and status.trusted and not changed,
        signer=signer,
        signed_at=(timestamp.timestamp if timestamp else status.signer_reported_dt),
        timestamped=timestamp is not None,
        changed_after=changed,
        problems=tuple(problems),
    )
