"""A map exhibit attached to a recorded instrument (LAW.md § 8: the easement area can be
found from the recorded instrument alone, the approved plans being unrecorded).

The case names a file (``easement.exhibit``): a PNG, a JPEG, or a PDF whose first page is
the map. It is checked for existence, type (by its first bytes, never its name) and size,
and becomes one image that the PDF, the DOCX and the HTML all embed on the exhibit page:
a PDF page is drawn at 200 dots per inch by PDFium (pypdfium2).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from docgen.errors import Problem
from docgen.render.html import Attachment

MAX_BYTES = 20 * 1024 * 1024  # a scanned survey map is a few megabytes
PDF_DPI = 200
# The room on a letter page with 1-inch margins, below the exhibit's heading.
PAGE_WIDTH_IN, PAGE_HEIGHT_IN = 6.5, 7.5
KINDS = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg", b"%PDF-": "pdf"}


class ExhibitError(ValueError):
    """What is wrong with the file a case names as its exhibit."""


def exhibit_path(name: str, case_dir: Path | None) -> Path:
    path = Path(name).expanduser()
    return path if path.is_absolute() else (case_dir or Path.cwd()) / path


def file_kind(head: bytes) -> str | None:
    return next((kind for magic, kind in KINDS.items() if head.startswith(magic)), None)


def load_exhibit(name: str, case_dir: Path | None) -> Attachment:
    """The exhibit a case names, as one image; ExhibitError says what is wrong."""
    from PIL import Image

    path = exhibit_path(name, case_dir)
    if not path.is_file():
        raise ExhibitError(f"{path} does not exist or is not a file")
    size = path.stat().st_size
    if size == 0 or size > MAX_BYTES:
        raise ExhibitError(
            f"{path} is {size:,} bytes; a map exhibit is between 1 byte and "
            f"{MAX_BYTES // (1024 * 1024)} MB"
        )
    data = path.read_bytes()
    kind = file_kind(data[:8])
    if kind is None:
        raise ExhibitError(f"{path} is not a PNG, JPEG or PDF file (read from its first bytes)")
    try:
        if kind == "pdf":
            data, kind = _pdf_first_page(data), "png"
        image = Image.open(io.BytesIO(data))
        image.load()
    except ExhibitError as err:
        raise ExhibitError(f"{path} {err}") from None
    except Exception as err:  # a damaged file: Pillow and PDFium raise many kinds
        raise ExhibitError(f"{path} cannot be read as a {kind.upper()} file ({err})") from None
    # The map as large as the page allows, its proportions kept.
    ratio = image.size[0] / image.size[1]
    if ratio >= PAGE_WIDTH_IN / PAGE_HEIGHT_IN:
        width, height = PAGE_WIDTH_IN, PAGE_WIDTH_IN / ratio
    else:
        width, height = PAGE_HEIGHT_IN * ratio, PAGE_HEIGHT_IN
    return Attachment("exhibit-1", f"image/{kind}", data, round(width, 3), round(height, 3))


def _pdf_first_page(data: bytes) -> bytes:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as err:
        raise ExhibitError(f"is not a readable PDF ({err})") from None
    try:
        if len(pdf) == 0:
            raise ExhibitError("is a PDF without pages")
        bitmap = pdf[0].render(scale=PDF_DPI / 72)
        out = io.BytesIO()
        bitmap.to_pil().save(out, format="PNG", dpi=(PDF_DPI, PDF_DPI))
        return out.getvalue()
    finally:
        pdf.close()


def exhibit_problems(case: Any, case_dir: Path | None, provision: str) -> list[Problem]:
    """The case's exhibit, if it names one, that cannot be attached."""
    if case.easement.exhibit is None:
        return []
    try:
        load_exhibit(case.easement.exhibit, case_dir)
    except ExhibitError as err:
        return [Problem("easement.exhibit", str(err), provision)]
    return []
