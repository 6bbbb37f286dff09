"""The document body: block HTML (headings, paragraphs, lists, tables, packet sections)
written onto the frame's named styles (docgen.render.docx.styles)."""

from __future__ import annotations

import io
import re
from typing import Any

from docx.enum.section import WD_SECTION
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Emu, Inches, Pt
from docx.text import paragraph as docx_paragraph

from docgen.render.docx.inline import INLINE, SPACE, Inline, bookmark_name, language
from docgen.render.docx.styles import (
    ABSTRACT_BULLET,
    ABSTRACT_DECIMAL,
    AFTER_TABLE,
    HEADING_STYLE,
    LIST_BULLET,
    LIST_CONTINUE,
    LIST_LEVELS,
    LIST_NUMBER,
    RULE,
    STYLE_FOR_CLASS,
    TABLE_TEXT,
    TEXT_WIDTH_INCHES,
)
from docgen.render.docx.window import drop_first_empty, window_table
from docgen.render.html import Attachment

# Blocks the PDF keeps on one page (break-inside: avoid in the stylesheets): in Word each
# of their paragraphs but the last keeps with the next, and none splits its lines.
KEEP_TOGETHER = frozenset(
    {"keep-together", "sign-block", "signature-block", "certificate", "acknowledgment", "approval"}
)

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


# Paragraph style name -> the frame's style id (None for its default style). Every
# document starts from the same frame, so the answers hold for the whole process.
_STYLE_IDS: dict[str, str | None] = {}


class Writer:
    def __init__(self, document: Any, attachments: tuple[Attachment, ...] = ()):
        self.doc = document
        self.attachments = {a.url: a for a in attachments}
        self._bookmarks = 0
        self.numbering = document.part.numbering_part.element
        self._next_num = 1000
        self.sectioned = False  # a packet: each document counts its own pages
        self.container = document  # where paragraphs go: the body, or a table cell
        self._break_before = False  # the next paragraph starts a new page
        # each paragraph style's size and spacing, as compacted() reads them: python-docx
        # finds a paragraph's style by searching the frame's styles, each time it is asked
        self._metrics: dict[str | None, tuple[float, tuple[Any, ...]]] = {}

    def add_paragraph(self, style: str | None = None) -> Any:
        """A body paragraph in ``style``, its id looked up once per process (one frame).

        (python-docx resolves a style name by scanning every style of the frame, for
        each paragraph: two thirds of the DOCX time before this cache.)
        """
        para = self.container.add_paragraph()
        if style is not None:
            para._p.style = self.style_id(style)
        if self._break_before:
            # A page break as a property of the page's first paragraph: a paragraph holding
            # only a break would itself fall on a new page when the last one was full,
            # leaving a blank page between the two.
            para.paragraph_format.page_break_before = True
            self._break_before = False
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
        for level in range(LIST_LEVELS):
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
        if tag in ("script", "style", "head", "title", "meta", "link", "svg"):
            return
        if "page-break" in classes:
            self._break_before = True
            return
        if tag == "section" and "document" in classes:
            self.section(el)
            return
        if "window-page" in classes:
            self.window_page(el)
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
            self.add_paragraph(RULE)
        elif tag == "img":
            self.image(el)
        elif tag in BLOCK_CONTAINERS or tag == "":
            if "compact" in classes:
                self.compacted(el, classes - {"compact"})
            elif classes & KEEP_TOGETHER:
                self.kept_together(el, classes)
            else:
                self.children(el, classes)
        else:  # an inline element standing alone: its own paragraph
            self.paragraph(el, self.style_of(el, classes, "Normal"))

    def window_page(self, el: Any) -> None:
        """Page 1's letterhead and window band (docgen.render.docx.window)."""
        cells = dict(
            zip(("window-top", "window", "window-side"), window_table(self.doc), strict=True)
        )
        for part in el.iter():
            classes = set((part.get("class") or "").split()) if isinstance(part.tag, str) else set()
            cell = next((cells[c] for c in classes if c in cells), None)
            if cell is None:
                continue
            self.container = cell
            self.children(part, classes)
            drop_first_empty(cell)
        self.container = self.doc

    def bookmark(self, para: Any, name: str) -> Any:
        """``name`` opened on the numbered paragraph, so a REF field can print its number;
        the caller appends the returned end after the paragraph's text."""
        self._bookmarks += 1
        start, end = OxmlElement("w:bookmarkStart"), OxmlElement("w:bookmarkEnd")
        start.set(qn("w:id"), str(self._bookmarks))
        start.set(qn("w:name"), name)
        end.set(qn("w:id"), str(self._bookmarks))
        para._p.append(start)
        return end

    def image(self, el: Any) -> None:
        """An image the document attaches (a map exhibit), centered, at its printed size;
        any other source is not the document's own and is left out, as the PDF does."""
        attached = self.attachments.get(el.get("src") or "")
        if attached is None:
            return
        para = self.add_paragraph("Normal")
        para.alignment = WD_ALIGN_PARAGRAPH.CENTER
        shape = para.add_run().add_picture(
            io.BytesIO(attached.data),
            width=Inches(attached.width_in),
            height=Inches(attached.height_in),
        )
        shape._inline.docPr.set("descr", el.get("alt") or attached.name)

    def compacted(self, el: Any, classes: set[str]) -> None:
        """A block set smaller (class ``compact``: a form that must fit one page, as its
        stylesheet sets it in the PDF): each run at COMPACT of its size, and paragraph
        spacing likewise, by direct formatting over the frame's styles."""
        body = self.doc.element.body
        before = len(body) - 1  # the section properties stay last
        if classes & KEEP_TOGETHER:
            self.kept_together(el, classes)
        else:
            self.children(el, classes)
        for p in (p for child in body[before:-1] for p in child.iter(qn("w:p"))):
            para = docx_paragraph.Paragraph(p, self.doc)
            style_id = p.style  # None: the frame's default
            if style_id not in self._metrics:
                style = para.style
                spacing = tuple(_style_spacing(style, name) for name in SPACING)
                self._metrics[style_id] = (self.style_size(style), spacing)
            size, spacing = self._metrics[style_id]
            fmt = para.paragraph_format
            for name, by_style in zip(SPACING, spacing, strict=True):
                value = getattr(fmt, name) or by_style
                if value:
                    setattr(fmt, name, Pt(value.pt * COMPACT))
            for run in para.runs:
                current = run.font.size.pt if run.font.size else size
                run.font.size = Pt(round(current * COMPACT * 2) / 2)

    def style_size(self, style: Any) -> float:
        """The font size ``style`` gives (through the styles it is based on), in points."""
        while style is not None:
            if style.font.size is not None:
                return float(style.font.size.pt)
            style = style.base_style
        return DEFAULT_SIZE

    def kept_together(self, el: Any, classes: set[str]) -> None:
        """A block on one page: its paragraphs keep with the next (the last excepted) and
        keep their lines together, as the PDF's break-inside: avoid does. A block kept
        ``with-previous`` (the language-access block: break-before: avoid) keeps the
        paragraph before it with it too, so it never begins a page alone."""
        body = self.doc.element.body
        if "with-previous" in classes:
            previous = list(body.iter(qn("w:p")))
            if previous:
                last = docx_paragraph.Paragraph(previous[-1], self.doc)
                last.paragraph_format.keep_with_next = True
        before = len(body.findall(qn("w:p")))
        self.children(el, classes)
        added = body.findall(qn("w:p"))[before:]
        for i, p in enumerate(added):
            fmt = docx_paragraph.Paragraph(p, self.doc).paragraph_format
            fmt.keep_together = True
            if i < len(added) - 1:
                fmt.keep_with_next = True

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
        state = Inline(para)
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
            return str(named)
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
        marks = language(el)
        if marks.get("rtl"):
            para._p.get_or_add_pPr().append(OxmlElement("w:bidi"))
        state = Inline(para)
        state.contents(el, marks)
        state.finish()
        return para

    def list(self, el: Any, ordered: bool, level: int = 0, num_id: int | None = None) -> None:
        if num_id is None or level == 0:
            start = int(el.get("start") or 1)
            num_id = self.new_num(ordered, start)
        style = LIST_NUMBER if ordered else LIST_BULLET
        for li in el:
            if not isinstance(li.tag, str) or li.tag != "li":
                continue
            self.list_item(li, style, num_id, min(level, LIST_LEVELS - 1), ordered)

    def list_item(self, li: Any, style: str, num_id: int, level: int, ordered: bool) -> None:
        # The item's own text (and inline children) is the numbered paragraph; nested
        # lists continue the numbering one level down; further paragraphs are unnumbered.
        first_blocks = [c for c in li if isinstance(c.tag, str) and c.tag not in INLINE]
        style_name = self.style_of(li, set((li.get("class") or "").split()), style)
        para = self.add_paragraph(style_name)
        _set_num(para, num_id, level)
        anchor = li.get("id")
        mark_end = self.bookmark(para, bookmark_name(anchor)) if anchor else None
        state = Inline(para)
        if li.text:
            state.text(li.text, {})
        numbered_done = False
        for child in li:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in INLINE:
                state.element(child, {})
                if child.tail:  # even a lone space: it parts two citations
                    state.text(child.tail, {})
                continue
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
                follow = self.add_paragraph(LIST_CONTINUE)
                follow.paragraph_format.left_indent = Pt(36 * (level + 1))
                inner = Inline(follow)
                inner.contents(child, {})
                inner.finish()
            if child.tail and SPACE.sub("", child.tail):
                if numbered_done:
                    tail_para = self.add_paragraph(LIST_CONTINUE)
                    tail_state = Inline(tail_para)
                    tail_state.text(child.tail, {})
                    tail_state.finish()
                else:
                    state.text(child.tail, {})
        state.finish()
        if mark_end is not None:
            para._p.append(mark_end)

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
            # A row never splits across pages (a prior offense keeps its "Why it counts" cell).
            row._tr.get_or_add_trPr().append(OxmlElement("w:cantSplit"))
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
                para._p.style = self.style_id(TABLE_TEXT)
                state = Inline(para)
                state.contents(cell_el, {"bold": True} if cell_el.tag == "th" or is_head else {})
                state.finish()
                col += span
        _fit_columns(table, rows, width, _col_shares(el, width))
        self.add_paragraph(AFTER_TABLE)

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
            # in the schema's order (ECMA-376 17.6.17), or Word repairs the file
            section._sectPr.insert_element_before(pg, *AFTER_PAGE_NUMBERING)
        pg.set(qn("w:start"), "1")
        self.children(el, set())


TEXT_WIDTH = Inches(TEXT_WIDTH_INCHES)
# What follows w:pgNumType in a section's properties (CT_SectPr, ECMA-376 Part 1 17.6.17).
AFTER_PAGE_NUMBERING = tuple(
    f"w:{name}"
    for name in (
        "cols",
        "formProt",
        "vAlign",
        "noEndnote",
        "titlePg",
        "textDirection",
        "bidi",
        "rtlGutter",
        "docGrid",
        "printerSettings",
        "sectPrChange",
    )
)
COMPACT = 0.85  # a compact block's sizes, as a share of the frame's
SPACING = ("space_before", "space_after")
DEFAULT_SIZE = 12.0  # the frame's Normal


def _style_spacing(style: Any, name: str) -> Any:
    while style is not None:
        value = getattr(style.paragraph_format, name)
        if value is not None:
            return value
        style = style.base_style
    return None


_SHARE = re.compile(r"(?:^|;)\s*width:\s*(\d+(?:\.\d+)?)%\s*(?:;|$)")


def _col_shares(el: Any, count: int) -> list[float] | None:
    """The share of the line each column gets when the template gives every column its
    width (``<colgroup><col style="width: 40%">``, as the PDF lays it out); else None."""
    cols = [c for c in el.iter("col") if isinstance(c.tag, str)]
    found = [_SHARE.search(c.get("style") or "") for c in cols]
    if len(cols) != count or not all(found):
        return None
    shares = [float(m[1]) for m in found if m]
    return [share / sum(shares) for share in shares]


def _fit_columns(
    table: Any, rows: list[tuple[Any, bool]], count: int, shares: list[float] | None = None
) -> None:
    """Column widths in proportion to what each column holds, as the PDF's table layout
    does; left alone, Word and LibreOffice split the page evenly (a wide "No." column).
    A cell of class "nowrap" (print.css keeps it on one line) gets room for all of it.
    ``shares``: the widths the template gives (:func:`_col_shares`), taken as they are."""
    if shares is not None:
        _set_widths(table, [int(TEXT_WIDTH * share) for share in shares])
        return
    weights, longest = [4] * count, [0] * count
    for row_el, _ in rows:
        col = 0
        for cell_el in (c for c in row_el if isinstance(c.tag, str)):
            span = int(cell_el.get("colspan") or 1)
            if span == 1 and col < count:
                words = cell_el.text_content().split()
                weights[col] = max(weights[col], min(len(" ".join(words)), 60) + 4)
                # a word longer than 30 characters (a URL) breaks inside its cell instead;
                # a cell the template holds on one line (class "nowrap": a certified
                # article number) is one word
                if "nowrap" in (cell_el.get("class") or "").split():
                    words = [" ".join(words)]
                    longest[col] = max(longest[col], len(words[0]))
                longest[col] = max([longest[col], *(min(len(w), 30) for w in words)])
            col += span
    # Each column first gets room for its longest word (about 0.09 inch a character, plus
    # the cell's padding), then the rest of the line in proportion to its text.
    floors = [int(Inches(0.09) * n + Inches(0.2)) for n in longest]
    if sum(floors) >= TEXT_WIDTH:
        widths = [int(TEXT_WIDTH * f / sum(floors)) for f in floors]
    else:
        spare, total = TEXT_WIDTH - sum(floors), sum(weights)
        widths = [f + int(spare * w / total) for f, w in zip(floors, weights, strict=True)]
    _set_widths(table, widths)


def _set_widths(table: Any, widths: list[int]) -> None:
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
