"""Long content: a 50,000-character violation description, 200 remedies, 60 contractors, a
20-page legal description (and 200 prior offenses). Each makes a correct multi-page
document: the running head and "Page X of Y" on every page, tables split across pages
with their header rows repeated (PDF) or marked to repeat (DOCX w:tblHeader), every word
printed, and nothing off the page.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from lxml import html as lxml_html
from pypdf import PdfReader

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.demo import sample_cases
from tests.helpers.casewalk import set_in
from tests.helpers.readback import (
    complex_script_lines,
    docx_header_footer,
    docx_text,
    html_text,
    pdf_pages,
    table_heads,
    without_complex_script,
    words,
)

LETTER = (612, 792)  # points


def prose(length: int) -> str:
    """Plain sentences, numbered so that every stretch of the text is distinct."""
    parts, n, size = [], 0, 0
    while size < length:
        n += 1
        part = (
            f"Observation {n}: sediment laden runoff left the site at the north swale "
            "and reached the roadside ditch after the silt fence failed. "
        )
        parts.append(part)
        size += len(part)
    return "".join(parts)[:length].rstrip()


def first_sample(kind: str) -> dict:
    path = next(p for k, p in sample_cases() if k == kind)
    return read_case_file(path)


def many(data: dict, key: str, count: int, make: Callable[[dict, int], dict]) -> dict:
    template = data[key][0]
    return set_in(data, (key,), [make(dict(template), n) for n in range(1, count + 1)])


@dataclass(frozen=True)
class Long:
    name: str
    kind: str
    build: Callable[[dict], dict]
    min_pages: int
    table: tuple[str, str] | None = None  # text in the table's first and last rows
    head_from: int = 1  # an instrument for recording leaves page 1's top to the clerk


LAST_OBSERVATION = re.findall(r"Observation \d+:", prose(50_000))[-1]


CASES = [
    Long(
        "50,000-character violation description",
        "notice-of-violation",
        lambda d: set_in(d, ("violations", 0, "nature"), prose(50_000)),
        15,
        ("Observation 1:", LAST_OBSERVATION),
    ),
    Long(
        "200 remedies",
        "notice-of-violation",
        lambda d: many(
            d, "remedies", 200, lambda r, n: {**r, "measure": f"Remedy {n}: reset fence {n}."}
        ),
        6,
        ("Remedy 1:", "Remedy 200:"),
    ),
    Long(
        "60 contractors",
        "contractor-certification",
        lambda d: many(
            d,
            "contractors",
            60,
            lambda c, n: {**c, "firm": f"Contractor Number {n} Excavating LLC"},
        ),
        30,
    ),
    Long(
        "20-page legal description",
        "maintenance-agreement",
        lambda d: set_in(d, ("property", "legal_description"), prose(20 * 3_700)),
        20,
        head_from=2,
    ),
    Long(
        # 200 convictions that count (a served statement prints only those: LAW.md § 4,
        # reading 10), each entered on its own day (reading 8) before the current offense.
        "200 prior offenses",
        "penalty-statement",
        lambda d: set_in(
            d,
            ("prior_offenses",),
            [
                {
                    "committed": (date(2021, 12, 1) + timedelta(days=8 * n)).isoformat(),
                    "disposition": "convicted",
                    "convicted": (date(2021, 12, 4) + timedelta(days=8 * n)).isoformat(),
                    "reference": f"Docket {n}",
                }
                for n in range(200)
            ],
        ),
        5,
        ("Docket 0", "Docket 199"),
    ),
]


@pytest.fixture(scope="module")
def rendered():
    """Each long case laid out once: (case, document, laid-out pages, PDF, DOCX)."""
    from docgen.render.pdf import layout, write_pdf

    out = {}
    for case in CASES:
        doc = api.build(case.kind, case.build(first_sample(case.kind)))
        pages = layout(doc)
        out[case.name] = (case, doc, pages, write_pdf(pages), api.to_bytes(doc, "docx"))
    return out


@pytest.fixture(scope="module")
def pdf_texts(rendered):
    """Each long case's PDF read back once, page by page."""
    return {name: pdf_pages(pdf) for name, (_, _, _, pdf, _) in rendered.items()}


NAMES = [c.name for c in CASES]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", NAMES)
def test_every_page_has_the_running_head_and_page_x_of_y(rendered, pdf_texts, name):
    case, doc, _, _, _ = rendered[name]
    pages = [flat(text) for text in pdf_texts[name]]
    assert len(pages) >= case.min_pages, f"only {len(pages)} pages"
    for number, text in enumerate(pages, 1):
        assert f"Page {number} of {len(pages)}" in text, f"page {number}: {text[-200:]}"
        if number >= case.head_from:
            assert flat(doc.running_head) in text, f"page {number} lacks the running head"


@pytest.mark.parametrize("name", NAMES)
def test_every_word_is_printed(rendered, pdf_texts, name):
    """Every word of the HTML is in the PDF and the DOCX as often (extra: repeated heads)."""
    _, doc, _, _, docx_bytes = rendered[name]
    html = doc.standalone()
    expected = Counter(words(html_text(html)))
    repeated = {w for head in table_heads(html) for w in head}
    # A PDF's complex-script lines come back shaped (tests/test_taglines.py reads them):
    # the PDF is held to every other line.
    shaped = expected - Counter(words(complex_script_lines(html_text(html))))
    pdf_lines = without_complex_script("\n".join(pdf_texts[name]))
    pdf_words = Counter(words(pdf_lines, (flat(doc.running_head),)))
    docx_words = Counter(words(docx_text(docx_bytes)))
    for fmt, found, said in (("PDF", pdf_words, shaped), ("DOCX", docx_words, expected)):
        missing = said - found
        assert not missing, f"{fmt} lacks {sorted(missing.items())[:20]}"
        extra = set(found - expected) - repeated
        assert not extra, f"{fmt} has words the HTML has not: {sorted(extra)[:20]}"


@pytest.mark.parametrize("name", NAMES)
def test_nothing_is_off_the_page(rendered, name):
    _, _, laid_out, pdf, _ = rendered[name]
    from weasyprint.formatting_structure.boxes import TextBox

    for page in PdfReader(io.BytesIO(pdf)).pages:
        box = page.mediabox
        assert (round(box.width), round(box.height)) == LETTER
    for number, page in enumerate(laid_out.pages, 1):
        for box in page._page_box.descendants():
            if not isinstance(box, TextBox) or not box.text.strip():
                continue
            left, top = box.position_x, box.position_y
            right, bottom = left + box.width, top + box.height
            assert left >= -0.5 and top >= -0.5, f"page {number}: {box.text[:40]!r} starts off"
            assert right <= page.width + 0.5, f"page {number}: {box.text[:40]!r} runs off right"
            assert bottom <= page.height + 0.5, f"page {number}: {box.text[:40]!r} runs off bottom"


def cells_text(element) -> str:
    return flat(" ".join(cell.text_content() for cell in element.iter("td", "th")))


def table_texts(html: str) -> list[tuple[list[str], str]]:
    """(header words, body text) of each table with a header row."""
    tree = lxml_html.document_fromstring(html)
    out = []
    for table in tree.iter("table"):
        head = table.find("thead")
        if head is not None:
            body = [r for r in table.iter("tr") if r.getparent() is not head]
            out.append((cells_text(head).split(), " ".join(cells_text(r) for r in body)))
    return out


@pytest.mark.parametrize("name", [c.name for c in CASES if c.table])
def test_table_headers_repeat_on_every_page_a_table_reaches(rendered, pdf_texts, name):
    case, doc, _, _, _ = rendered[name]
    pages = [f" {flat(text)} " for text in pdf_texts[name]]
    start, end = case.table
    first = next(i for i, text in enumerate(pages) if f" {start} " in text)
    last = next(i for i in range(first, len(pages)) if f" {end} " in pages[i])
    assert last > first, "the table should run over at least one page break"
    head = next(h for h, rows in table_texts(doc.html) if start in rows)
    for i in range(first, last + 1):
        missing = [w for w in head if w not in pages[i].split()]
        assert not missing, f"page {i + 1} continues the table without its header {head}"


@pytest.mark.parametrize("name", NAMES)
def test_docx_repeats_table_headers_and_has_head_and_page_numbers(rendered, name):
    _, doc, _, _, docx_bytes = rendered[name]
    heads_in_html = len(list(lxml_html.document_fromstring(doc.html).iter("thead")))
    with zipfile.ZipFile(io.BytesIO(docx_bytes)) as archive:
        body = archive.read("word/document.xml").decode()
        footers = " ".join(
            archive.read(n).decode()
            for n in archive.namelist()
            if "footer" in n and n.endswith(".xml")
        )
    assert body.count("<w:tblHeader") >= heads_in_html
    assert re.search(r"\bPAGE\b", footers) and re.search(r"\b(NUM|SECTION)PAGES\b", footers)
    assert flat(doc.running_head) in flat(docx_header_footer(docx_bytes))
