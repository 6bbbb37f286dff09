"""Where page 1 puts the addressee, read from a PDF's text coordinates (pdfplumber).

A #10 window envelope shows, of a letter folded in three, about 4 1/2 x 1 1/8 in from
2 in down and 7/8 in from the left edge (LAW.md § 9). :func:`window_block` finds every
word printed in the window's area of page 1 and the box they fill, in inches.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pdfplumber
from lxml import html as lxml_html

PT = 72  # points per inch
# The area a window may show: the addressee's block and nothing else is printed there.
AREA_LEFT, AREA_RIGHT, AREA_TOP, AREA_BOTTOM = 0.75, 5.0, 1.9, 3.125


@dataclass(frozen=True)
class Block:
    words: list[str]  # every word printed in the window's area, in reading order
    top: float  # inches from the top edge of the page
    left: float  # inches from the left edge
    bottom: float
    right: float

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def width(self) -> float:
        return self.right - self.left


def window_block(pdf: bytes) -> Block:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[0]
        found = [
            w
            for w in page.extract_words()
            if w["x1"] > AREA_LEFT * PT
            and w["x0"] < AREA_RIGHT * PT
            and w["bottom"] > AREA_TOP * PT
            and w["top"] < AREA_BOTTOM * PT
        ]
    if not found:
        return Block([], 0, 0, 0, 0)
    found.sort(key=lambda w: (round(w["top"]), w["x0"]))
    return Block(
        words=[w["text"] for w in found],
        top=min(w["top"] for w in found) / PT,
        left=min(w["x0"] for w in found) / PT,
        bottom=max(w["bottom"] for w in found) / PT,
        right=max(w["x1"] for w in found) / PT,
    )


def window_lines(html: str) -> list[str]:
    """The lines the document puts in the window (templates/base/window.html.j2)."""
    tree = lxml_html.document_fromstring(html)
    return [" ".join(p.text_content().split()) for p in tree.find_class("window-line")]
