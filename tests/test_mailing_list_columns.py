"""The firm mailing list has PS Form 3877's columns (LAW.md § 9): the article number, the
addressee with the document, and postage, the certified fee and the return-receipt fee apart
with their total; an article number is never wrapped, in the PDF and in the DOCX."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest

from docgen import api
from tests.helpers.readback import pdf_text

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "mailing-list" / "homer-two-pieces.yaml"
COLUMNS = [
    "No.",
    "Article number",
    "Addressee, address and document",
    "Postage",
    "Certified fee",
    "Return receipt fee",
    "Total",
]
ARTICLE = "9589 0710 5270 0123 4567 81"  # the fixture's first piece, grouped as on the label


@pytest.fixture(scope="module")
def files():
    return api.render_bytes("mailing-list", CASE, ("pdf", "docx"))[1]


def test_the_pdf_has_the_form_s_columns_and_each_article_number_on_one_line(files):
    text = pdf_text(files["pdf"])
    flat = " ".join(text.split())
    for column in COLUMNS:
        assert column in flat, column
    assert any(ARTICLE in line for line in text.splitlines())  # never wrapped


def test_the_docx_has_the_form_s_columns_and_room_for_the_article_number(files):
    (table,) = docx.Document(io.BytesIO(files["docx"])).tables
    assert [cell.text for cell in table.rows[0].cells] == COLUMNS
    article = table.rows[1].cells[1]
    assert article.text == ARTICLE
    # 27 characters of 10.5 pt Times New Roman digits and spaces take about 1.6 in
    assert article.width.inches >= 1.6, article.width.inches
