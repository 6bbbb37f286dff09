"""A municipality is one file: a fictional village's pack (tests/data/packs/alderbrook.yaml,
its own chapter and sections, fines, appeal period, offices and certification wording)
renders every kind it provides, and no word of Homer's or Macedon's law appears."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import ROOT

from docgen import api
from docgen.demo import bundle_cases, sample_cases
from docgen.documents import KINDS
from docgen.documents.swppp_review import fitted_to
from docgen.law.packs import ENV, load_pack
from docgen.pack_check import moved_into
from tests.helpers.readback import docx_text, html_text, pdf_text

PACKS = ROOT / "tests" / "data" / "packs"
FOREIGN = re.compile(r"Homer|Macedon|Cortland|Wayne|228-|301-")
# The fixtures' own places, moved to the fictional village (case data, not law); the
# sections they cite are renumbered through the two packs' section maps, as pack check does.
PLACES = {"Homer": "Alderbrook", "Cortland": "Greenvale", "Tioughnioga": "Mill"}


def moved(value: Any) -> Any:
    if isinstance(value, str):
        for old, new in PLACES.items():
            value = value.replace(old, new)
        return value
    if isinstance(value, dict):
        return {k: moved(v) for k, v in value.items()}
    if isinstance(value, list):
        return [moved(v) for v in value]
    return value


def into_alderbrook(case: dict[str, Any]) -> dict[str, Any]:
    """A case moved into the fictional village: its sections and its places (the pack is
    read from the folder the environment names)."""
    return moved(moved_into(case, load_pack("alderbrook")))


def alderbrook_case(path: Any) -> dict[str, Any]:
    return into_alderbrook(api.load(path)[0])


def first_samples() -> list[tuple[str, Any]]:
    chosen: dict[str, Any] = {}
    for kind, path in sample_cases() + bundle_cases():
        chosen.setdefault(kind, path)
    return list(chosen.items())


@pytest.fixture(autouse=True)
def alderbrook(monkeypatch):
    monkeypatch.setenv(ENV, str(PACKS))


def test_the_pack_provides_every_kind():
    pack = load_pack("alderbrook")
    assert pack.kinds() == list(KINDS)
    assert pack.code.sections.value == "§§ 412-30 to 412-32"


@pytest.mark.parametrize(("kind", "path"), first_samples(), ids=[k for k, _ in first_samples()])
def test_every_kind_renders_with_no_word_of_another_municipality(kind, path):
    data = fitted_to(kind, alderbrook_case(path), load_pack("alderbrook"))
    _, blobs = api.render_bytes(kind, data)
    texts = {
        "html": html_text(blobs["html"].decode("utf-8")),
        "pdf": pdf_text(blobs["pdf"]),
        "docx": docx_text(blobs["docx"]),
    }
    for fmt, text in texts.items():
        assert not FOREIGN.findall(text), (fmt, sorted(set(FOREIGN.findall(text))))
        assert "Alderbrook" in text, fmt


def rendered(kind: str) -> str:
    path = dict(first_samples())[kind]
    data = alderbrook_case(path)
    return html_text(api.build(kind, data).html)


def test_its_figures_offices_and_wording_are_printed():
    statement = rendered("penalty-statement")
    assert "four hundred dollars ($400.00)" in statement
    assert "§\u00a0412-32C(4)" in statement
    notice = rendered("notice-of-violation")
    assert "within 20 days of service" in notice
    assert "Code of the Village of Alderbrook, Chapter 412, Article IX" in notice
    assert "I hereby certify under penalty of law" in rendered("contractor-certification")
    agreement = rendered("maintenance-agreement")
    assert "7 Mill Pond Road" in agreement and "Greenvale County" in agreement


@pytest.mark.parametrize("kind", ["maintenance-easement", "maintenance-agreement"])
def test_counsels_final_of_its_instruments_is_compared_and_made_pdf_a(kind):
    """The attorney's loop (docgen compare, issue --final) on the fictional village's
    instruments: its draft keeps the recording page set-up, counsel's Word edit becomes a
    redline of tracked changes and a PDF/A-2b of the final text."""
    import io
    import zipfile

    import docx
    from pypdf import PdfReader

    from docgen.instruments.final import check_final, pdf_a, redline

    path = dict(first_samples())[kind]
    data = alderbrook_case(path)
    draft = api.render_bytes(kind, data)[1]["docx"]
    check_final(draft, "the draft")
    edited = docx.Document(io.BytesIO(draft))
    edited.add_paragraph("Counsel for the Village of Alderbrook adds this sentence.")
    final = io.BytesIO()
    edited.save(final)
    marked = zipfile.ZipFile(io.BytesIO(redline(draft, final.getvalue()))).read("word/document.xml")
    assert b"<w:ins " in marked and b"adds this sentence" in marked
    archived = pdf_a(final.getvalue())
    assert "adds this sentence" in pdf_text(archived)
    xmp = PdfReader(io.BytesIO(archived)).trailer["/Root"]["/Metadata"].get_object()
    assert b"pdfaid:part>2<" in xmp.get_data().replace(b" ", b"")
