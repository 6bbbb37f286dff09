"""Counsel's final text of a recorded instrument (LAW.md § 8): the DOCX an attorney edited in
Word, checked before it stands as the instrument to sign and record, its redline against the
generated draft, and the PDF/A-2b a county clerk's e-recording takes (9 NYCRR 540.7).

The redline is python-redlines' Docxodus engine (a self-contained .NET build shipped in its
wheel): Word's own tracked changes (w:ins, w:del), which Word and LibreOffice open. The PDF/A
is LibreOffice headless's export of the final DOCX with its PDF/A-2b filter option.

A final is refused, with the reason, when it is not a DOCX (a zip holding
word/document.xml), is encrypted (an OLE compound file), is macro-enabled (a vbaProject or
the macro-enabled content type), or has lost the recording page set-up: letter size, and the
blank top of page 1 left for the County Clerk's stamp.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from docgen.errors import DocgenError

OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted Office file is an OLE container
LETTER_TWIPS = (12240, 15840)  # 8.5 x 11 inches
CLERK_SPACE_TWIPS = 2.5 * 1440  # the blank top of page 1 (the frame's Clerk Space style)
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


class FinalRefused(DocgenError):
    """A final DOCX that cannot stand as the instrument to record; the message says why."""


def check_final(data: bytes, name: str = "the final") -> None:
    """Refuse ``data`` unless it is a plain DOCX with the recording page set-up."""
    if data.startswith(OLE):
        raise FinalRefused(
            f"{name} is encrypted (password-protected); save it from Word without a "
            "password, the clerk must be able to open it"
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
    except zipfile.BadZipFile:
        raise FinalRefused(f"{name} is not a DOCX file (Word's .docx format)") from None
    if "word/document.xml" not in names:
        raise FinalRefused(f"{name} is not a DOCX file: it has no word/document.xml")
    types = archive.read("[Content_Types].xml").decode("utf-8", "replace")
    if "word/vbaProject.bin" in names or "macroEnabled" in types:
        raise FinalRefused(
            f"{name} is macro-enabled (.docm); save it as a Word document (.docx) without macros"
        )
    from lxml import etree

    document = etree.fromstring(archive.read("word/document.xml"))
    section = document.find(f"{W}body/{W}sectPr")
    size = section.find(f"{W}pgSz") if section is not None else None
    width = int(size.get(f"{W}w", 0)) if size is not None else 0
    height = int(size.get(f"{W}h", 0)) if size is not None else 0
    if abs(width - LETTER_TWIPS[0]) > 20 or abs(height - LETTER_TWIPS[1]) > 20:
        raise FinalRefused(
            f"{name} has lost the recording page set-up: its page is {width / 1440:.2f} x "
            f"{height / 1440:.2f} in, not letter size (8.5 x 11 in)"
        )
    if not _clerk_space_kept(document, archive):
        raise FinalRefused(
            f"{name} has lost the recording page set-up: the top 2.5 inches of page 1, "
            "left blank for the County Clerk's recording stamp, are no longer kept"
        )


def _clerk_space_kept(document: object, archive: zipfile.ZipFile) -> bool:
    """Whether page 1 still opens with the blank clerk's space: its first paragraph in the
    frame's Clerk Space style (2.5 in before it) or with that much space of its own."""
    from lxml import etree

    first = next(iter(document.iter(f"{W}p")), None)  # type: ignore[attr-defined]
    if first is None:
        return False
    spacing = first.find(f"{W}pPr/{W}spacing")
    if spacing is not None and int(spacing.get(f"{W}before", 0)) >= CLERK_SPACE_TWIPS:
        return True
    style = first.find(f"{W}pPr/{W}pStyle")
    if style is None or "word/styles.xml" not in archive.namelist():
        return False
    styles = etree.fromstring(archive.read("word/styles.xml"))
    for node in styles.iter(f"{W}style"):
        if node.get(f"{W}styleId") == style.get(f"{W}val"):
            before = node.find(f"{W}pPr/{W}spacing")
            return before is not None and int(before.get(f"{W}before", 0)) >= CLERK_SPACE_TWIPS
    return False


def redline(draft: bytes, edited: bytes, author: str = "Counsel") -> bytes:
    """The edited DOCX with every change from ``draft`` as a Word tracked change."""
    check_final(draft, "the draft")
    check_final(edited, "the edited document")
    from python_redlines import DocxodusEngine

    out, _, _ = DocxodusEngine().run_redline(author, original=draft, modified=edited)
    return bytes(out)


def pdf_a(final: bytes) -> bytes:
    """The final DOCX as PDF/A-2b, through LibreOffice headless (a profile of its own)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise DocgenError(
            "LibreOffice is not installed: the PDF/A of counsel's final is LibreOffice's "
            "export (apt-get install libreoffice-writer)"
        )
    with tempfile.TemporaryDirectory(prefix="docgen-pdfa-") as tmp:
        folder = Path(tmp)
        (folder / "final.docx").write_bytes(final)
        run = subprocess.run(
            [
                soffice,
                f"-env:UserInstallation={(folder / 'profile').as_uri()}",
                "--headless",
                "--convert-to",
                'pdf:writer_pdf_Export:{"SelectPdfVersion":{"type":"long","value":"2"}}',
                "--outdir",
                str(folder),
                str(folder / "final.docx"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "HOME": str(folder)},
        )
        made = folder / "final.pdf"
        if run.returncode != 0 or not made.exists():
            raise DocgenError(f"LibreOffice could not make the PDF/A: {run.stderr.strip()}")
        return made.read_bytes()
