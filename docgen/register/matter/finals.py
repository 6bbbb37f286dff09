"""Counsel's final text of a recorded instrument, kept with the document it finalizes
(LAW.md § 8): the generated draft (the document's own DOCX), the final DOCX counsel edited,
the redline between them and the final as PDF/A-2b (9 NYCRR 540.7), each a document file
with its SHA-256, so `verify` recognises every one. The files are made before the record is
written; a final that cannot be recorded is refused before anything is numbered."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from docgen import api
from docgen.documents import a_title, kinds_with, titles_or
from docgen.errors import DocgenError
from docgen.instruments.final import check_final, pdf_a, redline

# What each stored file is, as `verify` and `history` name it (document_files.format).
FINAL, REDLINE, FINAL_PDF_A = "final", "redline", "final-pdfa"
# Counsel's files as `issue --final -o` and `export -f` give them out, the one to record
# first: what `-f` calls each, and the end of its file name after NUMBER-kind.
GIVEN_OUT = {
    "record": (FINAL_PDF_A, "to-record.pdf"),
    "final": (FINAL, "final.docx"),
    "redline": (REDLINE, "redline.docx"),
}
COUNSEL_FILES = tuple(stored for stored, _ in GIVEN_OUT.values())
# What each is called and what it is for, as the desk's document page says them beside the
# file (its link names it, the words after say what it is for: never the name twice).
NAMES = {
    FINAL_PDF_A: "Counsel's final as PDF/A-2b",
    FINAL: "Counsel's final in Word",
    REDLINE: "Counsel's changes to the generated draft",
}
PURPOSES = {
    FINAL_PDF_A: "the one file the County Clerk gets (9 NYCRR 540.7)",
    FINAL: "the text signed and recorded, as counsel saved it",
    REDLINE: "as Word tracked changes, for the file",
}
DRAFT_PURPOSE = "The generated draft counsel edited, as issued: for the file, not for recording"


def file_name_end(stored: str) -> str | None:
    """The end of a counsel's file's name after NUMBER-kind ("to-record.pdf"), else None."""
    return dict(GIVEN_OUT.values()).get(stored)


def instruments() -> tuple[str, ...]:
    """The kinds that take counsel's final: the attorney's recorded instruments."""
    return tuple(kinds_with(permission="instruments"))


def refuse_final(kind: str, final: bytes, formats: tuple[str, ...]) -> None:
    """Before anything is numbered: only an instrument takes a final, the draft's DOCX is
    made to compare it with, and the final itself can be recorded (check_final)."""
    if kind not in instruments():
        raise DocgenError(
            f"--final is for the recorded instruments ({titles_or(instruments())}), not "
            f"{a_title(kind)}"
        )
    if "docx" not in formats:
        raise DocgenError("--final compares counsel's DOCX with the draft's: issue with -f docx")
    check_final(final, "the final")


def counsel_files(draft_docx: bytes, final: bytes, author: str, number: str) -> dict[str, bytes]:
    """The final, its redline against the generated draft (``draft_docx``: as counsel had
    it, without what issuing adds, so only counsel's edits show), and its PDF/A-2b to
    record, numbered ``number``."""
    return {
        FINAL: final,
        REDLINE: redline(draft_docx, final, author),
        FINAL_PDF_A: pdf_a(final, number),
    }


def counsel_targets(out: str | Path, stem: str, formats: Iterable[str]) -> dict[str, Path]:
    """Where counsel's stored ``formats`` are written: beside where the document's PDF would
    go, named NUMBER-kind-to-record.pdf, -final.docx and -redline.docx."""
    (pdf,) = api.output_paths(out, stem, ["pdf"]).values()
    base = pdf.with_suffix("") if pdf.suffix == ".pdf" else pdf
    ends = dict(GIVEN_OUT.values())
    return {fmt: base.with_name(f"{base.name}-{ends[fmt]}") for fmt in formats if fmt in ends}


def export_formats(spec: str) -> tuple[str, ...]:
    """`export -f`: the document's formats (pdf, docx, html), counsel's files (record, final,
    redline), or all of them (those stored)."""
    chosen: list[str] = []
    for item in (i.strip().lower() for i in spec.split(",")):
        if item == "all":
            found = [*api.FORMATS, *COUNSEL_FILES]
        elif item in GIVEN_OUT:
            found = [GIVEN_OUT[item][0]]
        elif item in api.FORMATS:
            found = [item]
        else:
            raise DocgenError(
                f"unknown format {item!r}; choose pdf, docx, html, record (the PDF/A to "
                "record), final (counsel's DOCX), redline, or all"
            )
        chosen += [fmt for fmt in found if fmt not in chosen]
    return tuple(chosen)
