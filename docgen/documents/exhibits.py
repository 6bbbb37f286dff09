"""A map exhibit attached to a recorded instrument (LAW.md § 8: the easement area can be
found from the recorded instrument alone, the approved plans being unrecorded).

The case names a file (``easement.exhibit``): a PNG, a JPEG, or a PDF whose first page is
the map. It is checked for existence, type (by its first bytes, never its name) and size,
and becomes one image that the PDF, the DOCX and the HTML all embed on the exhibit page:
a PDF page is drawn at 200 dots per inch by PDFium (pypdfium2).

An exhibit is one of the case's files, never the server's: its name is resolved in the case
file's folder and may not leave it (an absolute path, ``~``, ``..`` or a link out are all
refused with one message that does not say whether such a file exists). A case with no
folder (the desk's) names no file at all. A PDF is bounded before PDFium draws it: its size,
its objects, what its streams inflate to, its pages, and the pixels its first page makes.
"""

from __future__ import annotations

import io
import re
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from docgen.errors import Problem
from docgen.render.html import Attachment

MAX_BYTES = 20 * 1024 * 1024  # a scanned survey map is a few megabytes
PDF_DPI = 200
# The room on a letter page with 1-inch margins, below the exhibit's heading.
PAGE_WIDTH_IN, PAGE_HEIGHT_IN = 6.5, 7.5
KINDS = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg", b"%PDF-": "pdf"}
# A PDF map, bounded before it is drawn: a survey sheet is one page of a few thousand
# objects; its streams inflate to tens of megabytes; its first page, drawn, fits the exhibit
# page at 200 dpi many times over (a 36 x 48 in sheet is drawn smaller, never larger).
PDF_MAX_PAGES = 200
PDF_MAX_OBJECTS = 200_000
PDF_MAX_INFLATED = 128 * 1024 * 1024
PDF_MAX_PIXELS = 8_000_000  # 2,400 x 3,300: letter at 200 dpi is 3.7 million
PDF_MAX_IMAGE_PIXELS = 100_000_000  # an image a page holds, as its dictionary declares it
PDF_MAX_SIDE_POINTS = 60 * 72  # 60 in: the largest drawing sheet (ARCH E) is 36 x 48 in
STREAM = re.compile(rb"stream\r?\n")


class ExhibitError(ValueError):
    """What is wrong with the file a case names as its exhibit."""


@dataclass(frozen=True)
class SentFiles:
    """The files sent with a case rather than kept beside it (a queued desk draft's photos,
    docgen.queue.tasks): written by whoever received them into a private ``folder`` under
    names it made itself, and found by the names the case gives them (``names``: the
    case's name, the file's own name in ``folder``). A name the case gives is a key here,
    never a path: it cannot reach any file but those sent."""

    folder: Path
    names: tuple[tuple[str, str], ...]
    # What to do about a name that is not one of them (the desk: upload the file).
    advice: str = "send the file with the case"


CaseFiles = Path | SentFiles  # where the files a case names are read from


def outside(name: str) -> ExhibitError:
    """One refusal for every name that leaves the case's folder, existing or not."""
    return ExhibitError(
        f"{name!r} is not a file in the case file's folder; name a PNG, JPEG or PDF file in "
        "that folder (or a folder below it), by its name there"
    )


def exhibit_path(name: str, case_dir: CaseFiles | None) -> Path:
    """The file ``name`` in ``case_dir``, confined to it: no absolute path, no ``~``, no
    ``..``, and no link that resolves outside it; ExhibitError otherwise. Files sent with
    the case (SentFiles): the one sent under ``name``, or none."""
    if isinstance(case_dir, SentFiles):
        own = dict(case_dir.names).get(name)
        if own is None:
            raise ExhibitError(
                f"{name!r} is not one of the files sent with the case; {case_dir.advice}"
            )
        return case_dir.folder / own
    if case_dir is None:
        raise ExhibitError(
            f"{name!r} names a file, and this case has no folder to read it from (the desk "
            "reads no file on the server): describe the area by metes and bounds instead, or "
            "issue the easement from a case file beside its map (`docgen issue`)"
        )
    relative = PurePath(name)
    if relative.is_absolute() or name.startswith(("~", "\\")) or ".." in relative.parts:
        raise outside(name)
    if any(":" in part or "\\" in part for part in relative.parts):
        raise outside(name)
    folder = case_dir.resolve()
    resolved = (folder / relative).resolve()
    if not resolved.is_relative_to(folder):
        raise outside(name)
    return resolved


def file_kind(head: bytes) -> str | None:
    return next((kind for magic, kind in KINDS.items() if head.startswith(magic)), None)


def read_case_file(
    name: str, case_dir: CaseFiles | None, most: int, what: str
) -> tuple[bytes, str | None]:
    """The bytes of the file ``name`` in the case file's folder (confined to it, at most
    ``most`` bytes) and its type by its first bytes (None: not PNG, JPEG or PDF)."""
    path = exhibit_path(name, case_dir)
    if not path.is_file():
        raise ExhibitError(f"{name!r} does not exist in the case file's folder, or is not a file")
    size = path.stat().st_size
    if size == 0 or size > most:
        raise ExhibitError(
            f"{name!r} is {size:,} bytes; {what} is between 1 byte and {most // (1024 * 1024)} MB"
        )
    data = path.read_bytes()
    return data, file_kind(data[:8])


def load_exhibit(name: str, case_dir: CaseFiles | None) -> Attachment:
    """The exhibit a case names, as one image; ExhibitError says what is wrong."""
    data, _ = read_case_file(name, case_dir, MAX_BYTES, "a map exhibit")
    return exhibit_of(data, name)


def exhibit_of(data: bytes, name: str) -> Attachment:
    """The map exhibit ``data`` (a file called ``name``), as one image: its type read from
    its first bytes, a PDF bounded (pdf_bounds) before its first page is drawn."""
    # PIL takes 12 ms to import: loaded on first use
    from PIL import Image

    kind = file_kind(data[:8])
    if kind is None:
        raise ExhibitError(f"{name!r} is not a PNG, JPEG or PDF file (read from its first bytes)")
    try:
        if kind == "pdf":
            data, kind = _pdf_first_page(data), "png"
        image = Image.open(io.BytesIO(data))
        image.load()
    except ExhibitError as err:
        raise ExhibitError(f"{name!r} {err}") from None
    except Exception as err:  # a damaged file: Pillow and PDFium raise many kinds
        raise ExhibitError(f"{name!r} cannot be read as a {kind.upper()} file ({err})") from None
    # The map as large as the page allows, its proportions kept.
    ratio = image.size[0] / image.size[1]
    if ratio >= PAGE_WIDTH_IN / PAGE_HEIGHT_IN:
        width, height = PAGE_WIDTH_IN, PAGE_WIDTH_IN / ratio
    else:
        width, height = PAGE_HEIGHT_IN * ratio, PAGE_HEIGHT_IN
    return Attachment("exhibit-1", f"image/{kind}", data, round(width, 3), round(height, 3))


def _pdf_first_page(data: bytes) -> bytes:
    """The first page drawn, after the PDF's bounds are checked (pdf_bounds)."""
    # pypdfium2, ctypes take 17 ms to import: loaded on first use
    import pypdfium2 as pdfium

    pdf_bounds(data)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as err:
        raise ExhibitError(f"is not a readable PDF ({err})") from None
    try:
        pages = len(pdf)
        if pages == 0:
            raise ExhibitError("is a PDF without pages")
        if pages > PDF_MAX_PAGES:
            raise ExhibitError(
                f"is a PDF of {pages:,} pages; attach the map's page alone (at most "
                f"{PDF_MAX_PAGES} pages are read)"
            )
        page = pdf[0]
        width, height = page.get_size()
        if not (0 < width <= PDF_MAX_SIDE_POINTS and 0 < height <= PDF_MAX_SIDE_POINTS):
            raise ExhibitError(
                f"is a PDF whose first page is {width / 72:,.0f} x {height / 72:,.0f} in, "
                f"larger than any map sheet ({PDF_MAX_SIDE_POINTS // 72} in a side); it is "
                "refused undrawn"
            )
        # the pixels rounded up by PDFium stay within the bound
        scale = min(PDF_DPI / 72, 0.999 * (PDF_MAX_PIXELS / (width * height)) ** 0.5)
        bitmap = page.render(scale=scale)
        out = io.BytesIO()
        dpi = round(scale * 72)
        bitmap.to_pil().save(out, format="PNG", dpi=(dpi, dpi))
        return out.getvalue()
    finally:
        pdf.close()


def pdf_bounds(data: bytes) -> None:
    """Refuse a PDF with more objects than a map has, or whose Flate streams would inflate
    past the limit (read with a bounded inflater, never whole)."""
    objects = len(re.findall(rb"\d+\s+\d+\s+obj\b", data)) + sum(
        int(n) for n in re.findall(rb"/N\s+(\d{1,9})", data)
    )
    if objects > PDF_MAX_OBJECTS:
        raise ExhibitError(
            f"is a PDF of about {objects:,} objects, more than a map has ({PDF_MAX_OBJECTS:,}); "
            "it is refused unread"
        )
    widths = [int(n) for n in re.findall(rb"/Width\s+(\d{1,12})", data)]
    heights = [int(n) for n in re.findall(rb"/Height\s+(\d{1,12})", data)]
    if widths and heights and max(widths) * max(heights) > PDF_MAX_IMAGE_PIXELS:
        raise ExhibitError(
            f"is a PDF holding an image of {max(widths):,} x {max(heights):,} pixels, more "
            "than a scanned map has; it is refused unread"
        )
    inflated = 0
    for start in STREAM.finditer(data):
        inflated += _inflated_size(data, start.end(), PDF_MAX_INFLATED - inflated)
        if inflated > PDF_MAX_INFLATED:
            raise ExhibitError(
                f"is a PDF whose streams inflate past {PDF_MAX_INFLATED // 2**20} MB; a "
                "map's do not. It is refused unread"
            )


def _inflated_size(data: bytes, at: int, most: int) -> int:
    """How far the Flate stream starting at ``at`` inflates, counted a few megabytes at a
    time and no further than ``most`` + 1 (0 when it is not a Flate stream)."""
    inflater = zlib.decompressobj()
    size = 0
    pending = memoryview(data)[at:]
    while pending and size <= most and not inflater.eof:
        try:
            size += len(inflater.decompress(pending[: 2**20], 4 * 2**20))
        except zlib.error:
            return size  # not Flate (or its end): PDFium reads it, bounded by pixels
        used = min(len(pending), 2**20) - len(inflater.unconsumed_tail)
        pending = pending[used:]
    return size


def exhibit_problems(case: Any, case_dir: CaseFiles | None, provision: str) -> list[Problem]:
    """The case's exhibit, if it names one, that cannot be attached."""
    if case.easement.exhibit is None:
        return []
    try:
        load_exhibit(case.easement.exhibit, case_dir)
    except ExhibitError as err:
        return [Problem("easement.exhibit", str(err), provision)]
    return []
