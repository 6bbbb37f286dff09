"""Page 1 of every served document fits a #10 window envelope (LAW.md § 9), in the PDF and
in Word (the DOCX as LibreOffice lays it out): the addressee's name and address, and the
certified mail article number above them when given, begin about 2 in from the top and
3/4 to 1 in from the left edge, fit 4 x 1 1/8 in, and nothing else is printed there.
So does the affidavit of a service by mail, addressed to the person served (the article
number is stated in its facts). The first-offense notice stays within the four pages it
had before the window."""

from __future__ import annotations

import pytest
from conftest import ROOT, SAMPLE_IDS, SAMPLES

from docgen.cases.loader import read_case_file
from docgen.documents.affidavit_of_service import MAIL
from tests.helpers.envelope import window_block, window_lines
from tests.helpers.office import office_pdfs
from tests.helpers.readback import pdf_pages

SERVED_KINDS = ("notice-of-violation", "stop-work-order", "penalty-statement", "stop-work-lifted")
AFFIDAVIT = "affidavit-of-service"
AFFIDAVITS = [(k, p) for k, p in SAMPLES if k == AFFIDAVIT]
MAILED = [(k, p) for k, p in AFFIDAVITS if read_case_file(p)["service"]["method"] in MAIL]
SERVED = [(k, p) for k, p in SAMPLES if k in SERVED_KINDS] + MAILED
SERVED_IDS = [SAMPLE_IDS[SAMPLES.index(s)] for s in SERVED]
FIRST_OFFENSE = (
    "notice-of-violation",
    ROOT / "fixtures/notice-of-violation/homer-first-offense.yaml",
)


@pytest.fixture(scope="module")
def word_pdfs(renders, tmp_path_factory) -> dict[str, bytes]:
    """Each served sample's DOCX converted to PDF by LibreOffice headless (one run)."""
    names = {
        sid.replace("/", "--"): (sid, kind, path)
        for sid, (kind, path) in zip(SERVED_IDS, SERVED, strict=True)
    }
    docx = {name: renders.get(kind, path)["docx"] for name, (_, kind, path) in names.items()}
    pdfs = office_pdfs(docx, tmp_path_factory.mktemp("window"))
    return {names[name][0]: pdf for name, pdf in pdfs.items()}


def check_window(pdf: bytes, lines: list[str], where: str) -> None:
    block = window_block(pdf)
    assert block.words == " ".join(lines).split(), f"{where}: the window shows {block.words}"
    assert 1.95 <= block.top <= 2.1, f"{where}: the address starts {block.top:.3f} in down"
    assert 0.75 <= block.left <= 1.01, f"{where}: the address starts {block.left:.3f} in in"
    assert block.height <= 1.125, f"{where}: the address is {block.height:.3f} in tall"
    assert block.width <= 4.0, f"{where}: the address is {block.width:.3f} in wide"


def addressee_lines(kind: str, path) -> list[str]:
    """The window's lines as the case file gives them: article number, name, address (an
    affidavit's window has no article number: its facts state the one served by)."""
    to = read_case_file(path)["recipient"]
    article = "" if kind == AFFIDAVIT else "".join(str(to.get("certified_article", "")).split())
    lines = [f"CERTIFIED MAIL {' '.join(article[i : i + 4] for i in range(0, len(article), 4))}"]
    a = to["address"]
    return (lines if article else []) + [
        to["name"],
        a["street"],
        f"{a['city']}, {a['state']} {a['zip']}",
    ]


@pytest.mark.parametrize(("kind", "path"), SERVED, ids=SERVED_IDS)
def test_the_addressee_is_in_the_window_of_the_pdf(renders, kind, path):
    r = renders.get(kind, path)
    lines = window_lines(r["html"])
    assert lines == addressee_lines(kind, path)
    check_window(r["pdf"], lines, "PDF")


@pytest.mark.parametrize(("kind", "path"), SERVED, ids=SERVED_IDS)
def test_the_addressee_is_in_the_window_of_the_docx(renders, word_pdfs, kind, path):
    lines = addressee_lines(kind, path)
    check_window(word_pdfs[SERVED_IDS[SERVED.index((kind, path))]], lines, "DOCX")


def test_copies_to_is_printed_outside_the_window(renders):
    kind, path = (
        "notice-of-violation",
        ROOT / "fixtures/notice-of-violation/homer-second-offense-continued.yaml",
    )
    r = renders.get(kind, path)
    assert "Copies to:" in pdf_pages(r["pdf"])[0]
    assert "Copies" not in window_block(r["pdf"]).words


def test_the_first_offense_notice_stays_within_four_pages(renders, word_pdfs):
    r = renders.get(*FIRST_OFFENSE)
    assert len(pdf_pages(r["pdf"])) <= 4
    assert len(pdf_pages(word_pdfs[SERVED_IDS[SERVED.index(FIRST_OFFENSE)]])) <= 4


def test_the_mailed_affidavit_is_one_page_and_the_others_keep_the_letterhead(renders, word_pdfs):
    """The window does not push the jurat onto a page of its own: the mailed affidavit is
    one page in the PDF and in Word; an affidavit of delivery by hand is not mailed and
    keeps the letterhead at the top of its page."""
    assert MAILED, "a sample affidavit of service by mail"
    for kind, path in MAILED:
        assert len(pdf_pages(renders.get(kind, path)["pdf"])) == 1
        assert len(pdf_pages(word_pdfs[SERVED_IDS[SERVED.index((kind, path))]])) == 1
    delivered = [s for s in AFFIDAVITS if s not in MAILED]
    assert delivered, "a sample affidavit of service by other means"
    for kind, path in delivered:
        r = renders.get(kind, path)
        assert window_lines(r["html"]) == []
        assert "window-page" not in r["html"]
