"""The saved archive: core properties and one fixed timestamp, so equal input gives equal bytes."""

from __future__ import annotations

import io
import zipfile
from datetime import datetime


def core_property(text: str, limit: int = 255) -> str:
    """A core property value: Word's limit is 255 characters (a long number is cut, with …)."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def fixed_zip(data: bytes, when: datetime, section_pages: bool = False) -> bytes:
    """Rewrite the archive with one fixed timestamp on every entry (same input, same bytes).

    With ``section_pages`` (a packet), the footers' "of Y" counts each document's own pages:
    NUMPAGES becomes SECTIONPAGES (done on the XML, since docxtpl holds the rendered
    footers as bytes).
    """
    stamp = (max(when.year, 1980), when.month, when.day, 0, 0, 0)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            blob = src.read(info.filename)
            if section_pages and info.filename.startswith("word/footer"):
                blob = blob.replace(b" NUMPAGES ", b" SECTIONPAGES ")
            dst.writestr(entry, blob, compresslevel=6)
    return out.getvalue()
