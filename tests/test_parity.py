"""PDF, DOCX and HTML of every sample case say the same words in the same order."""

from __future__ import annotations

import pytest
from conftest import SAMPLE_IDS, SAMPLES, running_head

from tests.helpers.readback import (
    docx_header_footer,
    docx_text,
    html_text,
    parity_diff,
    pdf_text,
    table_heads,
    without_complex_script,
    words,
)


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=SAMPLE_IDS)
def test_pdf_docx_html_carry_the_same_words(renders, kind, path):
    r = renders.get(kind, path)
    heads = tuple(h for h in running_head(r["html"]).split("\n") if h)
    expected = words(html_text(r["html"]))
    assert len(expected) > 50
    pdf_words = words(without_complex_script(pdf_text(r["pdf"])), heads)
    docx_words = words(docx_text(r["docx"]))
    shaped = words(without_complex_script(html_text(r["html"])))
    assert parity_diff(shaped, pdf_words, table_heads(r["html"])) == []
    assert parity_diff(expected, docx_words, []) == []


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=SAMPLE_IDS)
def test_every_page_carries_the_running_head_and_page_x_of_y(renders, kind, path):
    from tests.helpers.readback import pdf_pages

    r = renders.get(kind, path)
    pages = pdf_pages(r["pdf"])
    recorded = 'class="clerk-space"' in r["html"]  # page 1's top is the County Clerk's
    for number, text in enumerate(pages, 1):
        assert f"Page {number} of {len(pages)}" in text
        if recorded and number == 1:
            assert r["doc"].running_head not in " ".join(text.split())
        else:
            assert r["doc"].running_head in " ".join(text.split())
    frame = docx_header_footer(r["docx"])
    assert r["doc"].running_head in frame
    assert "Page" in frame
