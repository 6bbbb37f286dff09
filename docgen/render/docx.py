"""Stage 2b: the same HTML written into a docxtpl frame as a Word document.

The frame (templates/base/frame.docx, built by scripts/build_frame.py) holds the Word
styles, Letter page with 1-inch margins, the header with ``{{ running_head }}`` and the
footer "Page X of Y". docxtpl renders the frame with autoescape on, always (without it a
``&`` or ``<`` in case data silently truncates the document). The body is then written
from the rendered HTML, element by element, onto the frame's named styles:

    h1 Title · h2 Heading 1 · h3 Heading 2 · h4 Heading 3 · p Normal (or its class's
    style) · ol/ul Word numbering (restarting per list, nested levels) · table with
    repeated header rows · strong/em/u/mark · br · .page-break · section.document
    (a new Word section with its own page numbering and running head)

Classes map to styles through STYLE_FOR_CLASS; an element with ``data-docx-style``
names its style directly. Archives carry fixed timestamps, so equal input gives equal
bytes.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import datetime
from functools import cache
from typing import Any

from docx.enum.section import WD_SECTION
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_BREAK
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Emu, Inches, Pt
from docxtpl import DocxTemplate
from lxml import html as lxml_html

from docgen.render.environment import assets_dir
from docgen.render.html import HtmlDocument

STYLE_FOR_CLASS = {
    "letterhead": "Letterhead",
    "letterhead-name": "Letterhead Name",
    "doc-title": "Title",
    "subtitle": "Subtitle",
    "signature": "Signature",
    "sig-line": "Signature",
    "small": "Small",
    "note": "Small",
    "center": "Centered",
    "address": "Address",
    "quote": "Quote",
    "statement": "Quote",
    "placard": "Placard",
    "placard-heading": "Placard Heading",
    "clerk-space": "Clerk Space",
}
HEADING_STYLE = {"h1": "Title", "h2": "Heading 1", "h3": "Heading 2", "h4": "Heading 3"}
BLOCK_CONTAINERS = {
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "body",
    "blockquote",
    "figure",
}
SPACE = re.compile(r"[ \t\r\n\f]+")
# The frame defines these numbering definitions (scripts/build_frame.py).
ABSTRACT_DECIMAL, ABSTRACT_BULLET = 10, 11


@cache
def _frame_bytes() -> bytes:
    return (assets_dir() / "frame.docx").read_bytes()


# Paragraph style name -> the frame's style id (None for its default style). Every
# document starts from the same frame, so the answers hold for the whole process.
_STYLE_IDS: dict[str, str | None] = {}


class _Writer:
    def __init__(self, document: Any):
        self.doc = document
        self.numbering = document.part.numbering_part.element
        self._next_num = 1000
        self.sectioned = False  # a packet: each document counts its own pages

    def add_paragraph(self, style: str | None = None) -> Any:
        """A body paragraph in ``style``, its id looked up once per process (one frame).

        (python-docx resolves a style name by scanning every style of the frame, for
        each paragraph: two thirds of the DOCX time before this cache.)
        """
        para = self.doc.add_paragraph()
        if style is not None:
            para._p.style = self.style_id(style)
        return para

    def style_id(self, name: str) -> str | None:
        if name not in _STYLE_IDS:
            _STYLE_IDS[name] = self.doc.part.get_style_id(name, WD_STYLE_TYPE.PARAGRAPH)
        return _STYLE_IDS[name]

    # -- lists -------------------------------------------------------------------------
    def new_num(self, ordered: bool, start: int = 1) -> int:
        self._next_num += 1
        num = OxmlElement("w:num")
        num.set(qn("w:numId"), str(self._next_num))
        abstract = OxmlElement("w:abstractNumId")
        abstract.set(qn("w:val"), str(ABSTRACT_DECIMAL if ordered else ABSTRACT_BULLET))
        num.append(abstract)
        for level in range(3):
            override = OxmlElement("w:lvlOverride")
            override.set(qn("w:ilvl"), str(level))
            start_el = OxmlElement("w:startOverride")
            start_el.set(qn("w:val"), str(start if level == 0 else 1))
            override.append(start_el)
            num.append(override)
        self.numbering.append(num)
        return self._next_num

    # -- blocks ------------------------------------------------------------------------
    def block(self, el: Any, list_ctx: tuple[int, int] | None = None) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        classes = set((el.get("class") or "").split())
        if tag in ("script", "style", "head", "title", "meta", "link"):
            return
        if "page-break" in classes:
            self.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
            return
        if tag == "section" and "document" in classes:
            self.section(el)
            return
        if tag in HEADING_STYLE:
            self.paragraph(el, self.style_of(el, classes, HEADING_STYLE[tag]))
        elif tag == "p" or tag == "address":
            self.paragraph(el, self.style_of(el, classes, "Normal"))
        elif tag in ("ol", "ul"):
            self.list(el, tag == "ol", level=(list_ctx[1] + 1) if list_ctx else 0)
        elif tag == "table":
            self.table(el)
        elif tag == "hr":
            self.add_paragraph("Rule")
        elif tag in BLOCK_CONTAINERS or tag == "":
            self.children(el, classes)
        else:  # an inline element standing alone: its own paragraph
            self.paragraph(el, self.style_of(el, classes, "Normal"))

    def children(self, el: Any, classes: set[str]) -> None:
        """Block children in order; loose inline text between them becomes paragraphs."""
        pending: list[Any] = []
        text = el.text or ""
        if SPACE.sub("", text):
            pending.append(text)
        for child in el:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in INLINE:
                pending.append(child)
            else:
                self.flush(pending, self.style_of(el, classes, "Normal"))
                pending = []
                self.block(child)
            if child.tail and SPACE.sub("", child.tail):
                pending.append(child.tail)
        self.flush(pending, self.style_of(el, classes, "Normal"))

    def flush(self, pending: list[Any], style: str) -> None:
        if not pending:
            return
        para = self.add_paragraph(style)
        state = _Inline(para)
        for item in pending:
            if isinstance(item, str):
                state.text(item, {})
            else:
                state.element(item, {})
                if item.tail:
                    state.text(item.tail, {})
        state.finish()

    def style_of(self, el: Any, classes: set[str], default: str) -> str:
        named = el.get("data-docx-style")
        if named:
            return named
        for cls in classes:
            if cls in STYLE_FOR_CLASS:
                return STYLE_FOR_CLASS[cls]
        return default

    def paragraph(self, el: Any, style: str, num: tuple[int, int] | None = None) -> Any:
        para = self.add_paragraph(style)
        if num is not None:
            _set_num(para, *num)
        if "keep" in (el.get("class") or "").split():
            para.paragraph_format.keep_with_next = True
        state = _Inline(para)
        state.contents(el, {})
        state.finish()
        return para

    def list(self, el: Any, ordered: bool, level: int = 0, num_id: int | None = None) -> None:
        if num_id is None or level == 0:
            start = int(el.get("start") or 1)
            num_id = self.new_num(ordered, start)
        style = "List Number" if ordered else "List Bullet"
        for li in el:
            if not isinstance(li.tag, str) or li.tag != "li":
                continue
            self.list_item(li, style, num_id, min(level, 2), ordered)

    def list_item(self, li: Any, style: str, num_id: int, level: int, ordered: bool) -> None:
        # The item's own text (and inline children) is the numbered paragraph; nested
        # lists continue the numbering one level down; further paragraphs are unnumbered.
        first_blocks = [c for c in li if isinstance(c.tag, str) and c.tag not in INLINE]
        style_name = self.style_of(li, set((li.get("class") or "").split()), style)
        para = self.add_paragraph(style_name)
        _set_num(para, num_id, level)
        state = _Inline(para)
        if li.text:
            state.text(li.text, {})
        numbered_done = False
        for child in li:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in INLINE:
                state.element(child, {})
            elif tag in ("ol", "ul"):
                state.finish()
                numbered_done = True
                nested = num_id if (tag == "ol") == ordered else self.new_num(tag == "ol")
                self.list(child, tag == "ol", level + 1, nested)
            elif (
                tag == "p" and not numbered_done and child is first_blocks[0] and not state.has_text
            ):
                state.contents(child, {})
            else:
                state.finish()
                numbered_done = True
                follow = self.add_paragraph("List Continue")
                follow.paragraph_format.left_indent = Pt(36 * (level + 1))
                inner = _Inline(follow)
                inner.contents(child, {})
                inner.finish()
            if child.tail and SPACE.sub("", child.tail):
                if numbered_done:
                    tail_para = self.add_paragraph("List Continue")
                    tail_state = _Inline(tail_para)
                    tail_state.text(child.tail, {})
                    tail_state.finish()
                else:
                    state.text(child.tail, {})
        state.finish()

    def table(self, el: Any) -> None:
        rows = []
        for part in el:
            tag = part.tag if isinstance(part.tag, str) else ""
            if tag in ("thead", "tbody", "tfoot"):
                rows += [(r, tag == "thead") for r in part if r.tag == "tr"]
            elif tag == "tr":
                rows.append((part, all(c.tag == "th" for c in part)))
        if not rows:
            return
        width = max(
            sum(int(c.get("colspan") or 1) for c in r if isinstance(c.tag, str)) for r, _ in rows
        )
        table = self.doc.add_table(rows=0, cols=width)
        table.style = self.style_of(el, set((el.get("class") or "").split()), "Table Grid")
        for row_el, is_head in rows:
            row = table.add_row()
            if is_head:
                tr_pr = row._tr.get_or_add_trPr()
                header = OxmlElement("w:tblHeader")
                tr_pr.append(header)
            col = 0
            for cell_el in row_el:
                if not isinstance(cell_el.tag, str):
                    continue
                span = int(cell_el.get("colspan") or 1)
                cell = row.cells[col]
                if span > 1:
                    cell = cell.merge(row.cells[col + span - 1])
                para = cell.paragraphs[0]
                para._p.style = self.style_id("Table Text")
                state = _Inline(para)
                state.contents(cell_el, {"bold": True} if cell_el.tag == "th" or is_head else {})
                state.finish()
                col += span
        _fit_columns(table, rows, width)
        self.add_paragraph("After Table")

    def section(self, el: Any) -> None:
        """A document within a packet: new page, page numbers from 1, its own running head."""
        body = self.doc.element.body
        has_content = any(child.tag != qn("w:sectPr") for child in body)
        if has_content:
            new = self.doc.add_section(WD_SECTION.NEW_PAGE)
            head = el.get("data-head")
            if head:
                new.header.is_linked_to_previous = False
                first = new.header.paragraphs[0]
                first.style = self.doc.styles["Header"]
                first.text = head
        self.sectioned = True
        section = self.doc.sections[-1]
        pg = section._sectPr.find(qn("w:pgNumType"))
        if pg is None:
            pg = OxmlElement("w:pgNumType")
            section._sectPr.append(pg)
        pg.set(qn("w:start"), "1")
        self.children(el, set())


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


class _Inline:
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
        classes = (el.get("class") or "").split()
        if "case" in classes and "review" in classes:
            new["highlight"] = True
        if "smallcaps" in classes:
            new["smallcaps"] = True
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
        if fmt.get("smallcaps"):
            run.font.small_caps = True
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


def _property(text: str, limit: int = 255) -> str:
    """A core property value: Word's limit is 255 characters (a long number is cut, with …)."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


TEXT_WIDTH = Inches(6.5)  # Letter, 1-inch margins (the frame's page)


def _fit_columns(table: Any, rows: list[tuple[Any, bool]], count: int) -> None:
    """Column widths in proportion to what each column holds, as the PDF's table layout
    does; left alone, Word and LibreOffice split the page evenly (a wide "No." column)."""
    weights, longest = [4] * count, [0] * count
    for row_el, _ in rows:
        col = 0
        for cell_el in (c for c in row_el if isinstance(c.tag, str)):
            span = int(cell_el.get("colspan") or 1)
            if span == 1 and col < count:
                words = cell_el.text_content().split()
                weights[col] = max(weights[col], min(len(" ".join(words)), 60) + 4)
                longest[col] = max([longest[col], *(len(w) for w in words)])
            col += span
    # Each column first gets room for its longest word (about 0.09 inch a character, plus
    # the cell's padding), then the rest of the line in proportion to its text.
    floors = [int(Inches(0.09) * n + Inches(0.2)) for n in longest]
    if sum(floors) >= TEXT_WIDTH:
        widths = [int(TEXT_WIDTH * f / sum(floors)) for f in floors]
    else:
        spare, total = TEXT_WIDTH - sum(floors), sum(weights)
        widths = [f + int(spare * w / total) for f, w in zip(floors, weights, strict=True)]
    table.autofit = False
    for grid_col, w in zip(table._tbl.tblGrid.gridCol_lst, widths, strict=False):
        grid_col.w = Emu(w)
    for tr in table._tbl.tr_lst:
        col = 0
        for tc in tr.tc_lst:
            span = tc.grid_span
            tc.width = Emu(sum(widths[col : col + span]))
            col += span


def _set_num(paragraph: Any, num_id: int, level: int) -> None:
    p_pr = paragraph._p.get_or_add_pPr()
    num_pr = OxmlElement("w:numPr")
    ilvl = OxmlElement("w:ilvl")
    ilvl.set(qn("w:val"), str(level))
    num = OxmlElement("w:numId")
    num.set(qn("w:val"), str(num_id))
    num_pr.append(ilvl)
    num_pr.append(num)
    p_pr.append(num_pr)


def _fixed_zip(data: bytes, when: datetime, section_pages: bool = False) -> bytes:
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


def render_docx(doc: HtmlDocument) -> bytes:
    """The Word document for ``doc``: the frame rendered (escaped), the body from the HTML."""
    template = DocxTemplate(io.BytesIO(_frame_bytes()))
    template.render({"running_head": doc.running_head, "title": doc.title}, autoescape=True)
    word = template.docx
    body = word.element.body
    for child in list(body):
        if child.tag != qn("w:sectPr"):
            body.remove(child)

    tree = lxml_html.document_fromstring(doc.html)
    writer = _Writer(word)
    main = tree.find(".//main")
    writer.block(main if main is not None else tree.find("body"))
    if tree.find(".//*[@class='clerk-space']") is not None:
        # A recorded instrument: the top of page 1 is the County Clerk's, so no running
        # head there (the frame's empty first-page header; its footer still numbers).
        word.sections[0].different_first_page_header_footer = True

    # The document's own date, or (none in the case) the zip format's epoch: never the clock.
    day = doc.date
    when = datetime(day.year, day.month, day.day) if day else datetime(1980, 1, 1)
    props = word.core_properties
    props.title = _property(doc.title)
    props.subject = doc.kind
    props.author = "docgen"
    props.last_modified_by = "docgen"
    if day:
        props.created = props.modified = props.last_printed = when
    props.revision = 1
    props.language = doc.lang
    props.keywords = _property(doc.number)
    buf = io.BytesIO()
    word.save(buf)
    return _fixed_zip(buf.getvalue(), when, section_pages=writer.sectioned)
