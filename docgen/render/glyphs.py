"""Stage 2a, before layout: does every character of a document have a glyph in its fonts?

A character no font can draw prints as an empty box (a "tofu"), silently: a name in a
legal notice would be wrong without anyone noticing. So before a PDF is made, the
document's non-ASCII characters are checked against the characters of the font families
its stylesheets name (``font`` and ``font-family`` declarations), each family resolved to
a face the way the PDF engine resolves it, through fontconfig (docgen.fonts), which also
knows the face's characters. Faces are found once per process; ASCII is never checked
(every font has it), nor are invisible format characters (bidi marks, zero-width joiners),
which need no glyph.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from html import unescape

from docgen.fonts import Face, face
from docgen.render.html import stylesheet_text

log = logging.getLogger("docgen.pdf")

_DECLARATION = re.compile(r"\bfont(-family)?\s*:\s*([^;}]+)", re.IGNORECASE)
_NO_GLYPH_NEEDED = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def stylesheet_families(css: str) -> tuple[str, ...]:
    """Font family names in ``font``/``font-family`` declarations, in order, once each."""
    families: list[str] = []
    for match in _DECLARATION.finditer(re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)):
        shorthand = match.group(1) is None
        for index, part in enumerate(match.group(2).split(",")):
            name = part.strip()
            if shorthand and index == 0:  # '8.5pt "Liberation Sans"': the family follows the size
                quote = min((i for i in (name.find('"'), name.find("'")) if i >= 0), default=-1)
                name = name[quote:] if quote >= 0 else (name.split() or [""])[-1]
            name = name.strip().strip("'\"").strip()
            if name and name.lower() not in ("inherit", "initial") and name not in families:
                families.append(name)
    return tuple(families)


@dataclass(frozen=True)
class Coverage:
    """The faces the stylesheets' families resolve to, and those families."""

    faces: tuple[Face, ...]
    families: tuple[str, ...]

    def has(self, point: int) -> bool:
        return any(found.has(point) for found in self.faces)


@cache
def coverage(stylesheets: tuple[str, ...]) -> Coverage | None:
    """What the stylesheets' fonts can draw; None if unknown (no fontconfig, no face)."""
    families: list[str] = []
    for name in stylesheets:
        families += [f for f in stylesheet_families(stylesheet_text(name)) if f not in families]
    faces = tuple(found for found in map(face, families) if found is not None)
    return Coverage(faces, tuple(families)) if faces else None


def _drawable(char: str, known: Coverage) -> bool:
    if known.has(ord(char)) or unicodedata.category(char) in _NO_GLYPH_NEEDED:
        return True
    parts = unicodedata.normalize("NFKD", char)  # Pango composes from parts if it must
    return parts != char and all(_drawable(part, known) for part in parts)


def missing_glyphs(text: str, stylesheets: tuple[str, ...]) -> list[str]:
    """The characters of ``text`` that no font of ``stylesheets`` has, in order of code point."""
    known = coverage(tuple(stylesheets))
    if known is None:
        return []
    above_ascii = {ch for ch in text if ord(ch) > 127}
    return sorted((ch for ch in above_ascii if not _drawable(ch, known)), key=ord)


def describe(char: str) -> str:
    """'U+1D11E MUSICAL SYMBOL G CLEF'."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def warn_missing_glyphs(html: str, stylesheets: tuple[str, ...], label: str = "") -> list[str]:
    """Log one warning on "docgen.pdf" naming every character the PDF cannot draw."""
    missing = missing_glyphs(unescape(html), stylesheets)
    if missing:
        known = coverage(tuple(stylesheets))
        families = ", ".join(known.families) if known else ""
        names = "; ".join(describe(ch) for ch in missing[:20])
        more = f" and {len(missing) - 20} more" if len(missing) > 20 else ""
        log.warning(
            "%sno glyph in the document's fonts (%s) for %s%s: it prints as an empty box "
            "in the PDF; install a font that has it or correct the case data",
            f"{label}: " if label else "",
            families,
            names,
            more,
        )
    return missing
