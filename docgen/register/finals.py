"""Counsel's final text of a recorded instrument, kept with the document it finalizes
(LAW.md § 8): the generated draft (the document's own DOCX), the final DOCX counsel edited,
the redline between them and the final as PDF/A-2b (9 NYCRR 540.7), each a document file
with its SHA-256, so `verify` recognises every one. The files are made before the record is
written; a final that cannot be recorded is refused before anything is numbered."""

from __future__ import annotations

from docgen.errors import DocgenError
from docgen.instruments.final import check_final, pdf_a, redline

# What each stored file is, as `verify` and `history` name it (document_files.format).
FINAL, REDLINE, FINAL_PDF_A = "final", "redline", "final-pdfa"


def instruments() -> tuple[str, ...]:
    """The kinds that take counsel's final: the attorney's recorded instruments."""
    from docgen.documents import kinds_with

    return tuple(kinds_with(permission="instruments"))


def refuse_final(kind: str, final: bytes, formats: tuple[str, ...]) -> None:
    """Before anything is numbered: only an instrument takes a final, the draft's DOCX is
    made to compare it with, and the final itself can be recorded (check_final)."""
    if kind not in instruments():
        raise DocgenError(
            f"--final is for the recorded instruments ({', '.join(instruments())}), not {kind}"
        )
    if "docx" not in formats:
        raise DocgenError("--final compares counsel's DOCX with the draft's: issue with -f docx")
    check_final(final, "the final")


def counsel_files(draft_docx: bytes, final: bytes, author: str) -> dict[str, bytes]:
    """The final, its redline against the generated draft, and its PDF/A-2b."""
    return {
        FINAL: final,
        REDLINE: redline(draft_docx, final, author),
        FINAL_PDF_A: pdf_a(final),
    }
