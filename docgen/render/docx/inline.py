"""Inline HTML (strong, em, u, mark, br, q...) as the runs of one Word paragraph."""

from __future__ import annotations

import re
from typing import Any

from docx.enum.text import WD_COLOR_INDEX
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
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
    "bdi",
}

# Word's font and language slots by script: w:ascii/w:hAnsi and w:val for Latin, Greek
# and Cyrillic; w:eastAsia for Chinese, Japanese and Korean; w:cs and w:bidi for the
# complex scripts (Arabic, Hebrew, the Indic scripts).
FONT_SLOTS = {"latin": ("w:ascii", "w:hAnsi"), "east-asian": ("w:eastAsia",), "complex": ("w:cs",)}
LANG_SLOT = {"latin": "w:val", "east-asian": "w:eastAsia", "complex": "w:bidi"}


def language(el: Any) -> dict[str, Any]:
    """The language marks of an HTML element (lang, dir, data-word-font), for its runs."""
    marks: dict[str, Any] = {}
    if el.get("lang"):
        marks["lang"] = el.get("lang")
    if el.get("dir") in ("rtl", "ltr"):
        marks["rtl"] = el.get("dir") == "rtl"
    if el.get("data-word-font"):
        marks["font"] = el.get("data-word-font")
    if el.get("data-word-script") in LANG_SLOT:
        marks["script"] = el.get("data-word-script")
    return marks


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
        href = el.get("href") or ""
        if tag == "a" and href.startswith("#") and "clause-ref" in (el.get("class") or "").split():
            self.reference(bookmark_name(href[1:]), el.text_content().strip(), fmt)
            return
        new = {**fmt, **language(el)}
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

    def reference(self, bookmark: str, shown: str, fmt: dict[str, bool]) -> None:
        """A REF field to ``bookmark``'s paragraph number, ``shown`` until fields update:
        Word and LibreOffice renumber it when a clause is inserted before the one it names.
        """
        if self._space and self.has_text:
            self.para.add_run(" ")
        self._space = False
        runs = [self.para.add_run() for _ in range(5)]
        runs[0]._r.append(_field_char("begin"))
        instr = OxmlElement("w:instrText")
        instr.set(qn("xml:space"), "preserve")
        instr.text = f" REF {bookmark} \\n \\h "
        runs[1]._r.append(instr)
        runs[2]._r.append(_field_char("separate"))
        runs[3].text = shown
        runs[4]._r.append(_field_char("end"))
        for run in runs:
            self.style(run, fmt)
        self.has_text = True

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
        run = self.para.add_run()
        # Its one <w:t>, as python-docx's run.text makes it, which reads the text character
        # by character for the tabs and line breaks SPACE has already taken out.
        run._r.add_t(text)
        self.style(run, fmt)
        self.has_text = True

    def style(self, run: Any, fmt: dict[str, bool]) -> None:
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
        if fmt.get("lang") or fmt.get("font") or fmt.get("rtl"):
            mark_language(run, fmt)
        if fmt.get("highlight"):
            run.font.highlight_color = WD_COLOR_INDEX.YELLOW

    def finish(self) -> None:
        self._space = False


def mark_language(run: Any, marks: dict[str, Any]) -> None:
    """Tag ``run`` with its language (w:lang, in the slot Word reads for its script), the
    font Word shows it in and right-to-left direction (w:rtl), so that Word and a screen
    reader read it as that language (marks: from :func:`language`)."""
    props = run._r.get_or_add_rPr()
    script = marks.get("script", "latin")
    if marks.get("font"):
        fonts = OxmlElement("w:rFonts")
        for slot in FONT_SLOTS[script]:
            fonts.set(qn(slot), marks["font"])
        props.insert(0, fonts)
    if marks.get("rtl"):
        props.append(OxmlElement("w:rtl"))
    if marks.get("lang"):
        mark = OxmlElement("w:lang")
        mark.set(qn(LANG_SLOT[script]), marks["lang"])
        props.append(mark)


def bookmark_name(anchor: str) -> str:
    """The Word bookmark for an HTML anchor ("clause-default" -> "Clause_default"): a
    letter first, letters, digits and underscores only, at most 40 characters."""
    name = re.sub(r"\W", "_", anchor)
    return (name[:1].upper() + name[1:])[:40]


def _field_char(kind: str) -> Any:
    char = OxmlElement("w:fldChar")
    char.set(qn("w:fldCharType"), kind)
    return char
