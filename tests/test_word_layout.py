"""The DOCX as Word users see it: every sample converted by LibreOffice headless (one
soffice run for all of them) and read back page by page. No page without body text;
each certification's signature on the page of its statement; each signature block, the
certificate of service and the appeal section each on one page."""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLE_IDS, SAMPLES

from tests.helpers.office import office_pdfs
from tests.helpers.readback import pdf_pages

PAGE = re.compile(r"Page \d+ of \d+")


@pytest.fixture(scope="module")
def word_pages(renders, tmp_path_factory) -> dict[str, list[str]]:
    """Each sample's DOCX as LibreOffice lays it out: sample id -> the text of each page."""
    docx = {f"{kind}--{path.stem}": renders.get(kind, path)["docx"] for kind, path in SAMPLES}
    pdfs = office_pdfs(docx, tmp_path_factory.mktemp("word"))
    return {sid: pdf_pages(pdf) for sid, pdf in zip(SAMPLE_IDS, pdfs.values(), strict=True)}


def body(page: str, head: str) -> str:
    """A page's text without its running head and its "Page X of Y"."""
    lines = [ln for ln in page.splitlines() if ln.strip() and ln.strip() != head.strip()]
    return PAGE.sub("", " ".join(lines)).strip()


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


@pytest.mark.parametrize("sample_id", SAMPLE_IDS)
def test_no_page_without_body_text(word_pages, renders, sample_id):
    kind, path = SAMPLES[SAMPLE_IDS.index(sample_id)]
    head = renders.get(kind, path)["doc"].running_head
    for number, page in enumerate(word_pages[sample_id], 1):
        assert body(page, head), f"{sample_id}: page {number} has no body text"


@pytest.mark.parametrize("sample_id", [s for s in SAMPLE_IDS if "certification" in s])
def test_each_certifications_signature_is_on_the_page_of_its_statement(word_pages, sample_id):
    statements = 0
    for page in word_pages[sample_id]:
        text = flat(page)
        for found in re.finditer("I certify under penalty of law", text):
            statements += 1
            assert "Signature:" in text[found.end() :], f"{sample_id}: signature on another page"
    assert statements >= 1


@pytest.mark.parametrize("sample_id", [s for s in SAMPLE_IDS if "maintenance" in s])
def test_the_signatures_stay_together_with_in_witness_whereof(word_pages, sample_id):
    pages = [flat(p) for p in word_pages[sample_id]]
    (page,) = [p for p in pages if "In witness whereof" in p]
    after = page[page.index("In witness whereof") :]
    assert "By: ____" in after and "under Resolution No." in after  # the municipality's block


@pytest.mark.parametrize(
    "sample_id",
    [s for s in SAMPLE_IDS if s.startswith(("notice-of-violation", "stop-work-order"))],
)
def test_the_certificate_of_service_is_on_one_page(word_pages, sample_id):
    # (the notice lifting an order is not served: it has no certificate of service). The
    # certificate of the service recorded (on the landowner) comes first; each other person
    # served has a blank certificate of their own after it (LAW.md § 10).
    pages = [flat(p) for p in word_pages[sample_id]]
    page = next(p for p in pages if "Certificate of Service" in p)
    after = page[page.index("Certificate of Service") :]
    assert re.search(r"certify that on .* I served .* Date: \w+ \d+, \d{4}", after), sample_id


@pytest.mark.parametrize(
    "sample_id", [s for s in SAMPLE_IDS if s.startswith("notice-of-violation")]
)
def test_the_last_day_to_appeal_stays_with_section_f(word_pages, sample_id):
    pages = [flat(p) for p in word_pages[sample_id]]
    (page,) = [p for p in pages if "Last day to file a written notice of appeal" in p]
    assert "(f) Right to appeal" in page
