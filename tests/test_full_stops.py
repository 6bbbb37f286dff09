"""A name or a description that ends in a period ("Inc.", "Corp.", "L.L.C.", an initial)
never gets a second one where the sentence ends (the `full_stop` filter, used wherever a
template ends a sentence with a value). Every fixture of every kind, its names and
descriptions made to end in a period, read back from the HTML; a notice and an affidavit
also from the PDF and the DOCX."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.documents.kind import Options
from docgen.render.filters import full_stop
from tests.helpers.readback import docx_text, pdf_text

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted(p for p in (ROOT / "fixtures").glob("*/*.yaml"))
NAMES = ("name", "individual", "capacity")  # a person or firm: "Inc.", "Corp."
WORDS = ("nature", "description", "area_description", "location", "title")
DOUBLE = re.compile(r"(?<!\.)\.\s*\.(?!\.)")  # ".." or ". ." but not an ellipsis


def ending_in_periods(value, key=""):
    """The case with every name ending in "Corp." or "L.L.C." and every description in "Inc."."""
    if isinstance(value, dict):
        return {k: ending_in_periods(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [ending_in_periods(v, key) for v in value]
    if isinstance(value, str) and key in NAMES:
        return value.rstrip(".") + (" L.L.C." if len(value) % 2 else " Corp.")
    if isinstance(value, str) and key in WORDS:
        return value.rstrip(".") + ", Acme Co. and J. Smith, Inc."
    return value


def doubled(text: str) -> list[str]:
    text = " ".join(text.replace("\u00a0", " ").split())
    return [text[max(0, m.start() - 50) : m.end() + 5] for m in DOUBLE.finditer(text)]


def test_the_filter_adds_a_period_only_where_none_ends_the_text():
    assert full_stop("Acme Inc.") == "Acme Inc." and full_stop("Acme LLC") == "Acme LLC."
    assert full_stop("John Q. Public, J.") == "John Q. Public, J."


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_value_ending_in_a_period_gets_a_second(path):
    kind = path.parent.name
    data = ending_in_periods(read_case_file(path))
    html = api.build(kind, data, Options(case_dir=path.parent)).standalone()
    text = re.sub(r"<[^>]+>", " ", html)
    assert "Corp." in text or "L.L.C." in text or "Inc." in text
    assert doubled(text) == []


@pytest.mark.parametrize(
    "kind, name",
    [
        ("notice-of-violation", "homer-deadline-thanksgiving"),
        ("affidavit-of-service", "homer-affirmed-personal"),
    ],
)
def test_nor_in_the_pdf_and_the_docx(kind, name):
    path = ROOT / "fixtures" / kind / f"{name}.yaml"
    data = ending_in_periods(read_case_file(path))
    _, blobs = api.render_bytes(kind, data, ("pdf", "docx"), Options(case_dir=path.parent))
    assert doubled(pdf_text(blobs["pdf"])) == []
    assert doubled(docx_text(blobs["docx"])) == []
