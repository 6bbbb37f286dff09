"""Read rendered documents back as text, the way a person or a screen reader would.

PDF through PDFium (pypdfium2, the engine of Chrome's viewer; pypdf's text extraction took
twenty-five times as long), DOCX through python-docx (body paragraphs and tables in
document order), HTML through lxml. ``words`` normalizes the three so a parity test can compare
them: running heads and "Page X of Y" footers are dropped, list markers are dropped
(Word numbers lists itself), white space and quotation marks are folded.
"""

from __future__ import annotations

import io
import re

import docx
import pypdfium2 as pdfium
from docx.oxml.ns import qn
from lxml import html as lxml_html

MARKER = re.compile(r"^(\d+\.|\([a-z]{1,4}\)|[a-z]\.|[ivx]+\.|[•–\u2022\u2013-])$")
PAGE = re.compile(r"Page \d+ of \d+")


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text in reading order, lines ending in "\\n". PDFium reads a hyphen that
    ends a line as U+FFFE and joins the line to the next: it is given back as "-\\n"."""
    document = pdfium.PdfDocument(data)
    try:
        return [_page_text(page) for page in document]
    finally:
        document.close()


def _page_text(page) -> str:
    text = page.get_textpage()
    try:
        return text.get_text_range().replace("\r\n", "\n").replace("\ufffe", "-\n")
    finally:
        text.close()
        page.close()


def pdf_text(data: bytes) -> str:
    """The PDF's text; a hard hyphen that ended a line joins its word again ("acre-feet")."""
    return re.sub(r"(?<=\w)-\n(?=\w)", "-", "\n".join(pdf_pages(data)))


def docx_paragraphs(data: bytes) -> list[str]:
    """Body text in document order: paragraphs, and table cells row by row."""
    document = docx.Document(io.BytesIO(data))
    out: list[str] = []
    for child in document.element.body.iterchildren():
        if child.tag == qn("w:p"):
            out.append(docx.text.paragraph.Paragraph(child, document).text)
        elif child.tag == qn("w:tbl"):
            table = docx.table.Table(child, document)
            for row in table.rows:
                seen = []
                for cell in row.cells:
                    if cell._tc in seen:
                        continue
                    seen.append(cell._tc)
                    out.append(cell.text)
    return out


def docx_text(data: bytes) -> str:
    return "\n".join(docx_paragraphs(data))


def docx_text_in(data: bytes, lang: str) -> str:
    """The body's runs whose w:lang is ``lang`` (the words Word reads in that language)."""
    return "".join(
        run.text
        for para in docx.Document(io.BytesIO(data)).paragraphs
        for run in para.runs
        if (mark := run._r.find(".//" + qn("w:lang"))) is not None and mark.get(qn("w:val")) == lang
    )


def docx_header_footer(data: bytes) -> str:
    document = docx.Document(io.BytesIO(data))
    parts = []
    for section in document.sections:
        parts += [p.text for p in section.header.paragraphs]
        parts += [p.text for p in section.footer.paragraphs]
    return "\n".join(parts)


BLOCKS = {
    "p",
    "li",
    "td",
    "th",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "div",
    "section",
    "table",
    "ol",
    "ul",
    "header",
    "footer",
    "address",
    "blockquote",
}


def html_text(html: str) -> str:
    """Body text with a line break wherever a block ends (as the PDF and DOCX have one)."""
    tree = lxml_html.document_fromstring(html)
    body = tree.find("body")
    # an image's description (an SVG's title) is not the page's text, as in the PDF
    for bad in list(body.iter("style", "script", "svg")):
        bad.getparent().remove(bad)
    for el in body.iter():
        if el.tag in BLOCKS or el.tag == "br":
            el.tail = "\n" + (el.tail or "")
    return body.text_content()


def table_heads(html: str) -> list[list[str]]:
    """The words of each table's header row (the PDF repeats them on every page)."""
    tree = lxml_html.document_fromstring(html)
    return [
        [w for cell in head.iter("th", "td") for w in words(cell.text_content())]
        for head in tree.iter("thead")
    ]


def parity_diff(expected: list[str], actual: list[str], repeatable: list[list[str]]) -> list[str]:
    """Differences between two word lists, allowing repeats of table header rows."""
    import difflib

    problems = []
    matcher = difflib.SequenceMatcher(a=expected, b=actual, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            continue
        inserted = actual[b1:b2]
        if op == "insert" and _only_heads(inserted, repeatable):
            continue
        problems.append(
            f"{op}: expected {expected[a1:a2][:12]} got {inserted[:12]} "
            f"near {expected[max(0, a1 - 5) : a1]}"
        )
    return problems


def _only_heads(inserted: list[str], heads: list[list[str]]) -> bool:
    rest = list(inserted)
    while rest:
        for head in heads:
            if head and rest[: len(head)] == head:
                rest = rest[len(head) :]
                break
        else:
            return False
    return True


# Hebrew, Arabic and Bengali letters: a PDF's text of these scripts comes back shaped
# (joined, reordered, a conjunct as the letters of its glyph), never word for word.
COMPLEX_SCRIPT = re.compile(r"[\u0590-\u08ff\u0980-\u09ff\ufb1d-\ufefc]")


def without_complex_script(text: str) -> str:
    """``text`` without its lines in a complex script (the language-access block's Arabic,
    Urdu, Yiddish and Bengali lines, which tests/test_taglines.py reads back on their own)."""
    return "\n".join(line for line in text.splitlines() if not COMPLEX_SCRIPT.search(line))


def complex_script_lines(text: str) -> str:
    """Only the lines of ``text`` in a complex script (see :func:`without_complex_script`)."""
    return "\n".join(line for line in text.splitlines() if COMPLEX_SCRIPT.search(line))


def words(text: str, running_heads: tuple[str, ...] = ()) -> list[str]:
    for head in running_heads:
        text = text.replace(head, " ")
    text = PAGE.sub(" ", text)
    text = text.replace("\u00a0", " ").replace("\u2019", "'").replace("\u201c", '"')
    text = text.replace("\u201d", '"').replace("\u00ad", "")
    return [w for w in text.split() if not MARKER.match(w)]
