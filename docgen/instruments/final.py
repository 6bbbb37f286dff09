"""Counsel's final text of a recorded instrument (LAW.md § 8): the DOCX an attorney edited in
Word, checked before it stands as the instrument to sign and record, its redline against the
generated draft, and the PDF/A-2b a county clerk's e-recording takes (9 NYCRR 540.7).

The redline is python-redlines' Docxodus engine (a self-contained .NET build shipped in its
wheel): Word's own tracked changes (w:ins, w:del), which Word and LibreOffice open. The PDF/A
is LibreOffice headless's export of the final DOCX with its PDF/A-2b filter option, run in a
sandbox (docgen.instruments.office) on a copy without links outside the file.

A final is refused, with the reason, when it is not a DOCX (a zip holding
word/document.xml), is encrypted (an OLE compound file), is macro-enabled (a vbaProject or
the macro-enabled content type), or has lost the recording page set-up: letter size, and the
blank top of page 1 left for the County Clerk's stamp.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from lxml import etree

from docgen.instruments.docx_checks import (
    FinalRefused,
    Package,
    W,
    inspect,
    parse,
    without_outside_references,
)
from docgen.instruments.office import convert

__all__ = ["FinalRefused", "check_final", "pdf_a", "redline"]

LETTER_TWIPS = (12240, 15840)  # 8.5 x 11 inches
CLERK_SPACE_TWIPS = 2.5 * 1440  # the blank top of page 1 (the frame's Clerk Space style)
DOCUMENT = "word/document.xml"
PDF_A_2 = 'pdf:writer_pdf_Export:{"SelectPdfVersion":{"type":"long","value":"2"}}'
TWIPS = re.compile(r"^[0-9]{1,6}$")  # as Word writes a measure: whole twentieths of a point


def check_final(data: bytes, name: str = "the final") -> Package:
    """Refuse ``data`` unless it is a plain, final DOCX (docx_checks.inspect) with the
    recording page set-up; the checked package."""
    package = inspect(data, name)
    document = package.xml("word/document.xml")
    section = document.find(f"{W}body/{W}sectPr")
    size = section.find(f"{W}pgSz") if section is not None else None
    width = twips(size, "w", f"{name}'s page width") if size is not None else 0
    height = twips(size, "h", f"{name}'s page height") if size is not None else 0
    if abs(width - LETTER_TWIPS[0]) > 20 or abs(height - LETTER_TWIPS[1]) > 20:
        raise FinalRefused(
            f"{name} has lost the recording page set-up: its page is {width / 1440:.2f} x "
            f"{height / 1440:.2f} in, not letter size (8.5 x 11 in)"
        )
    if not _clerk_space_kept(document, package):
        raise FinalRefused(
            f"{name} has lost the recording page set-up: the top 2.5 inches of page 1, "
            "left blank for the County Clerk's recording stamp, are no longer kept"
        )
    return package


def twips(node: Any, attribute: str, what: str) -> int:
    """A measure as Word writes it, or FinalRefused quoting what was found ("12240.0")."""
    value = node.get(f"{W}{attribute}")
    if value is None:
        return 0
    if not TWIPS.match(value):
        raise FinalRefused(
            f"{what} is written {value!r}, not a whole number of twips as Word writes it; "
            "open the file in Word and save it again as a Word Document (.docx)"
        )
    return int(value)


def _clerk_space_kept(document: Any, package: Package) -> bool:
    """Whether page 1 still opens with the blank clerk's space: its first paragraph in the
    frame's Clerk Space style (2.5 in before it) or with that much space of its own."""
    what = f"{package.name}'s space above its first paragraph"
    first = next(iter(document.iter(f"{W}p")), None)
    if first is None:
        return False
    spacing = first.find(f"{W}pPr/{W}spacing")
    if spacing is not None and twips(spacing, "before", what) >= CLERK_SPACE_TWIPS:
        return True
    style = first.find(f"{W}pPr/{W}pStyle")
    if style is None or "word/styles.xml" not in package.parts:
        return False
    for node in package.xml("word/styles.xml").iter(f"{W}style"):
        if node.get(f"{W}styleId") == style.get(f"{W}val"):
            before = node.find(f"{W}pPr/{W}spacing")
            return before is not None and twips(before, "before", what) >= CLERK_SPACE_TWIPS
    return False


def redline(
    draft: bytes,
    edited: bytes,
    author: str = "Counsel",
    names: tuple[str, str] = ("the draft", "the edited document"),
) -> bytes:
    """The edited DOCX with every change from ``draft`` as a Word tracked change (``names``:
    what a refusal calls the two files)."""
    check_final(draft, names[0])
    check_final(edited, names[1])
    # platformdirs takes 10 ms to import: loaded on first use
    from python_redlines import DocxodusEngine

    out, _, _ = DocxodusEngine().run_redline(author, original=draft, modified=edited)
    return bytes(out)


def pdf_a(final: bytes, number: str | None = None) -> bytes:
    """The final DOCX as PDF/A-2b, through LibreOffice headless in its sandbox
    (docgen.instruments.office), given a copy without relationships outside the file and,
    with ``number``, the register's number added to its running header."""
    copy = without_outside_references(final)
    return convert(numbered(copy, number) if number else copy, PDF_A_2)


def numbered(docx: bytes, number: str) -> bytes:
    """``docx`` with "No. NUMBER" at the end of each header's last paragraph (the frame's
    running header: municipality, kind, tax map), so that every page of the instrument to
    record carries its number beside the footer's page numbering; a DOCX without a header
    gets it as its last paragraph. Never the access code (README: the instrument to record
    is a public record; the code belongs to the served paper's public check)."""
    source = zipfile.ZipFile(io.BytesIO(docx))
    headers = [n for n in source.namelist() if re.fullmatch(r"word/header\d*\.xml", n)]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for entry in source.infolist():
            blob = source.read(entry)
            if entry.filename in (headers or [DOCUMENT]):
                root = parse(blob, "the final", entry.filename)
                paragraphs = list(root.iter(f"{W}p"))
                if headers and paragraphs:
                    target, words = paragraphs[-1], f" · No. {number}"
                else:  # a paragraph of its own, before the body's closing section properties
                    holder = root.find(f"{W}body") if root.find(f"{W}body") is not None else root
                    target, words = etree.Element(f"{W}p"), f"No. {number}"
                    ending = holder.find(f"{W}sectPr")
                    at = holder.index(ending) if ending is not None else len(holder)
                    holder.insert(at, target)
                text = etree.SubElement(etree.SubElement(target, f"{W}r"), f"{W}t")
                text.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
                text.text = words
                blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            copy.writestr(entry, blob)
    return out.getvalue()
