"""Long unbreakable text (a 200-character URL) wraps inside the page in every format:
PDF (WeasyPrint), DOCX as LibreOffice lays it out, and HTML in a browser; nothing is
clipped or pushed off the page."""

from __future__ import annotations

import re
import subprocess

import pytest
from conftest import ROOT, write_case

from docgen import api
from tests.helpers.readback import pdf_text

CASE = ROOT / "fixtures" / "notice-of-violation" / "homer-first-offense.yaml"
URL = "https://gis.example.org/?sheet=" + "Zq7Kx2Wv9Lm4" * 15  # no break opportunity


@pytest.fixture(scope="module")
def long_words(tmp_path_factory):
    """The notice with the URL in the site description (a paragraph) and in a remedy (a
    table cell)."""
    assert len(URL) >= 180 and " " not in URL
    text = CASE.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^  description: .*$", f"  description: See {URL}", text, count=1)
    text = re.sub(r"(?m)^  - measure: .*$", f"  - measure: Follow {URL}", text, count=1)
    case = write_case(tmp_path_factory.mktemp("wrap"), text)
    return api.build("notice-of-violation", case)


def assert_wrapped(text: str) -> None:
    """The URL is all there, twice, and no line of the page holds it whole."""
    assert "".join(text.replace("\u200b", "").split()).count(URL) == 2, "the URL was clipped"
    # (Measured by the URL itself: the 6 pt language-access lines are longer in characters.)
    lines = [line.replace("\u200b", "") for line in text.splitlines()]
    assert not any(URL in line for line in lines), "a line ran off the page"


def test_pdf_wraps_a_long_url(long_words):
    from docgen.render.pdf import layout

    text = pdf_text(api.to_bytes(long_words, "pdf")).replace("\u200b", "")
    assert "".join(text.split()).count(URL) == 2
    for number, page in enumerate(layout(long_words).pages, start=1):
        body = page._page_box  # WeasyPrint's laid-out page: every line's real geometry
        right = body.content_box_x() + body.width
        for box in body.descendants():
            if type(box).__name__ == "TextBox":
                end = box.position_x + box.width
                assert end <= right + 0.5, f"page {number}: {box.text[:30]!r} ends at {end:.0f}"


def test_docx_wraps_a_long_url_as_libreoffice_lays_it_out(long_words, tmp_path, soffice):
    source = tmp_path / "notice.docx"
    source.write_bytes(api.to_bytes(long_words, "docx"))
    profile = (tmp_path / "profile").as_uri()
    subprocess.run(
        [soffice, f"-env:UserInstallation={profile}", "--headless",
         "--convert-to", "pdf", "--outdir", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    assert_wrapped(pdf_text((tmp_path / "notice.pdf").read_bytes()))


def test_html_wraps_a_long_url_in_a_browser(long_words, browser):
    page = browser.new_page(viewport={"width": 640, "height": 900})
    try:
        page.set_content(long_words.standalone())
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
    finally:
        page.close()
    assert overflow <= 0, f"the page is {overflow}px wider than the window"
