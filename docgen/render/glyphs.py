"""Stage 2a, before layout: does every character of a document have a glyph in its fonts?

A character no font can draw prints as an empty box (a "tofu"), silently: a name in a
legal notice would be wrong without anyone noticing. So before a PDF is made, the
document's non-ASCII characters are checked against the character maps of the font
families its stylesheets name (``font`` and ``font-family`` declarations), each family
resolved to a file the way the PDF engine resolves it, through fontconfig's ``fc-match``.
The maps are read once per process; ASCII is never checked (every font has it), nor are
invisible format characters (bidi marks, zero-width joiners), which need no glyph.
"""

from __future__ import annotations

import logging
import re
import subprocess
import unicodedata
from functools import cache
from html import unescape

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


@cache
def font_file(family: str) -> tuple[str, int] | None:
    """The font file (and face index) fontconfig uses for ``family``; None without fontconfig."""
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}\n%{index}\n", f"{family}:style=Regular"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return None
    if len(found) < 2 or not found[0]:
        return None
    return found[0], int(found[1] or 0)


@cache
def _codepoints(path: str, index: int) -> frozenset[int]:
    # fontTools takes 12 ms to import: loaded on first use
    from fontTools.ttLib import TTFont

    try:
        with TTFont(path, fontNumber=index, lazy=True) as font:
            return frozenset(font.getBestCmap() or {})
    except Exception as err:  # a damaged or unreadable font: say so, check nothing against it
        log.warning("cannot read the character map of %s: %s", path, err)
        return frozenset()


@cache
def coverage(stylesheets: tuple[str, ...]) -> tuple[frozenset[int], tuple[str, ...]] | None:
    """The code points the stylesheets' fonts can draw and the families read; None if unknown."""
    families: list[str] = []
    for name in stylesheets:
        families += [f for f in stylesheet_families(stylesheet_text(name)) if f not in families]
    files = {found for found in map(font_file, families) if found is not None}
    if not files:
        return None
    points: set[int] = set()
    for path, index in sorted(files):
        points |= _codepoints(path, index)
    return frozenset(points), tuple(families)


def _drawable(char: str, points: frozenset[int]) -> bool:
    if ord(char) in points or unicodedata.category(char) in _NO_GLYPH_NEEDED:
        return True
    parts = unicodedata.normalize("NFKD", char)  # Pango composes from parts if it must
    return parts != char and all(_drawable(part, points) for part in parts)


def missing_glyphs(text: str, stylesheets: tuple[str, ...]) -> list[str]:
    """The characters of ``text`` that no font of ``stylesheets`` has, in order of code point."""
    known = coverage(tuple(stylesheets))
    if known is None:
        return []
    points, _ = known
    return sorted({ch for ch in text if ord(ch) > 127 and not _drawable(ch, points)}, key=ord)


def describe(char: str) -> str:
    """'U+1D11E MUSICAL SYMBOL G CLEF'."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def warn_missing_glyphs(html: str, stylesheets: tuple[str, ...], label: str = "") -> list[str]:
    """Log one warning on "docgen.pdf" naming every character the PDF cannot draw."""
    missing = missing_glyphs(unescape(html), stylesheets)
    if missing:
        known = coverage(tuple(stylesheets))
        families = ", ".join(known[1]) if known else ""
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
