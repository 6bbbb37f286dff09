"""Inline HTML (strong, em, u, mark, br, q...) as the runs of one Word paragraph."""

from __future__ import annotations

import re
from typing import Any

from docx.shared import Pt

SPACE = re.compile(r"[ \t\r\n\f]+")

INLINE = {
    "span",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "mark",
    "br",
    "a",
    "small",
    "sup",
    "sub",
    "code",
    "abbr",
    "cite",
    "time",
    "q",
    "var",
    "ins",
    "s",
}


class Inline:
    """Collects inline HTML into runs of one paragraph, folding white space like HTML."""

    def __init__(self, paragraph: Any):
        self.para = paragraph
        self.has_text = False
        self._space = False  # a space is owed before the next word

    def contents(self, el: Any, fmt: dict[str, bool]) -> None:
        if el.text:
            self.text(el.text, fmt)
        for child in el:
            self.element(child, fmt)
            if child.tail:
                self.text(child.tail, fmt)

    def element(self, el: Any, fmt: dict[str, bool]) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag == "br":
            self.para.add_run().add_break()
            self._space = False
            return
        new = dict(fmt)
        if tag in ("strong", "b"):
            new["bold"] = True
        elif tag in ("em", "i", "cite", "var"):
            new["italic"] = True
        elif tag in ("u", "ins"):
            new["underline"] = True
        elif tag == "mark":
            new["highlight"] = True
        elif tag == "small":
            new["small"] = True
        elif tag == "sup":
            new["superscript"] = True
        elif tag == "q":
            self.text("\u201c", new)
        self.contents(el, new)
        if tag == "q":
            self.text("\u201d", new)

    def text(self, raw: str, fmt: dict[str, bool]) -> None:
        if not raw:
            return
        lead = raw[0] in " \t\r\n\f"
        trail = raw[-1] in " \t\r\n\f"
        words = SPACE.sub(" ", raw).strip()
        if not words:
            if self.has_text:
                self._space = True
            return
        text = words
        if (lead or self._space) and self.has_text:
            text = " " + text
        self._space = trail
        run = self.para.add_run(text)
        if fmt.get("bold"):
            run.bold = True
        if fmt.get("italic"):
            run.italic = True
        if fmt.get("underline"):
            run.underline = True
        if fmt.get("superscript"):
            run.font.superscript = True
        if fmt.get("small"):
            run.font.size = Pt(9)
        if fmt.get("highlight"):
            from docx.enum.text import WD_COLOR_INDEX

            run.font.highlight_color = WD_COLOR_INDEX.YELLOW
        self.has_text = True

    def finish(self) -> None:
        self._space = False
