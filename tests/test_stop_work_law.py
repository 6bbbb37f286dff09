"""Stop-work orders as the law reads them (§ 228-79C(2); § 228-79A(1)): effective never
before service, served on the landowner and the developer or applicant, allowed work as
examples inside the statutory exception, and a placard that is the order alone, read back
from the PDF and the DOCX."""

from __future__ import annotations

import io

import docx
import pytest
from pypdf import PdfReader

from docgen import api
from docgen.documents.kind import Options
from docgen.errors import CaseInvalid
from docgen.law.packs import load_pack
from tests.helpers.enforcement_cases import ORDERS, case_data, squash, write_yaml
from tests.helpers.readback import docx_text, pdf_text

HOMER = load_pack("homer")

KIND = "stop-work-order"
SILT = next(p for p in ORDERS if "silt" in p.stem)
GRADING = next(p for p in ORDERS if "grading" in p.stem)


def problems(tmp_path, data):
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, write_yaml(tmp_path, data))
    return {p.field: p for p in err.value.problems}


def texts(renders, path):
    r = renders.get(KIND, path)
    return squash(pdf_text(r["pdf"])), squash(docx_text(r["docx"]))


def test_effective_before_service_is_an_error(tmp_path):
    data = case_data(GRADING)  # issued November 18, served November 18
    data["served"]["date"] = "2026-11-24"  # after the effective date, November 23
    found = problems(tmp_path, data)
    assert "never before" in found["effective"].message
    assert found["effective"].provision == "§ 228-79C(2)"


def test_effective_on_the_day_of_service_is_fine(tmp_path):
    data = case_data(GRADING)
    data["effective"] = str(data["served"]["date"])
    assert api.check(KIND, write_yaml(tmp_path, data)) == []


def test_served_on_the_landowner_and_the_developer(renders):
    for text in texts(renders, SILT):
        assert squash("To the landowner: Cayuga Street Holdings LLC") in text
        assert squash("Also served on: Tioughnioga Ridge Development LLC (developer)") in text
        ordered = (
            "Cayuga Street Holdings LLC (landowner), Tioughnioga Ridge Development LLC "
            "(developer), and all persons working at this site, are ordered to halt"
        )
        assert squash(ordered) in text
        # One certificate per person served (LAW.md § 10): the service recorded is on the
        # landowner; the developer's certificate is its own, left for whoever serves them.
        assert squash("and on Tioughnioga Ridge Development LLC") not in text
        assert squash("SWO-2026-0003 on Cayuga Street Holdings LLC by") in text
        blank = "served this Stop-Work Order No. SWO-2026-0003 on Tioughnioga Ridge Development LLC"
        assert squash(f"{blank} (developer) on the date, at the time") in text


def test_an_order_addressed_to_the_developer_alone_is_an_error(tmp_path):
    data = case_data(SILT)
    data["recipient"] = data.pop("copies_to")[0]
    found = problems(tmp_path, data)
    assert "landowner" in found["recipient.role"].message


@pytest.mark.parametrize("path", ORDERS, ids=[p.stem for p in ORDERS])
def test_allowed_work_is_the_statutory_exception(renders, path):
    exception = (
        "only work that addresses the violations leading to this stop-work order, site "
        "stabilization among it. (§ 228-79C(2))"
    )
    for text in texts(renders, path):
        assert squash(exception) in text
        assert squash("only the following work may be done") not in text


def test_listed_work_is_framed_as_examples_inside_the_exception(renders):
    data = case_data(GRADING)
    for text in texts(renders, GRADING):
        intro = squash(
            "Within that exception, and only as examples of it, the allowed work includes:"
        )
        assert intro in text
        assert text.index(intro) < text.index(squash(data["allowed_work"][0]))


@pytest.fixture(scope="module")
def placard():
    doc = api.build(KIND, SILT, Options(layout="placard"))
    return api.to_bytes(doc, "pdf"), api.to_bytes(doc, "docx")


def test_the_placard_has_no_page_number_and_no_running_head(placard):
    pdf, word = placard
    for text in (pdf_text(pdf), docx_text(word)):
        assert "Page 1 of 1" not in text and "Stop-Work Order No." not in text
    section = docx.Document(io.BytesIO(word)).sections[0]
    assert section.header.is_linked_to_previous and section.footer.is_linked_to_previous
    assert all(not p.text for p in section.header.paragraphs + section.footer.paragraphs)


def test_the_placard_has_a_posting_date_and_the_officers_signature_line(placard):
    for text in (pdf_text(placard[0]), docx_text(placard[1])):
        flat = " ".join(text.split())
        assert "Posted at this site on: ____" in flat
        assert "Officer’s signature: ____" in flat or "Officer's signature: ____" in flat


def test_the_placard_fills_the_page_in_type_read_from_a_distance(placard):
    """The order on its first sheet, in 18 points or more, its last line near the bottom;
    a second sheet for the language-access block, which at the placard's 14 pt (LAW.md
    § 3: every line of the posted copy) does not fit beside the order."""
    page = PdfReader(io.BytesIO(placard[0])).pages
    assert len(page) == 2
    assert "AVISO LEGAL IMPORTANTE" in page[1].extract_text()
    runs: list[tuple[float, float, str]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            runs.append((tm[5] * cm[3] + cm[5], size * tm[0] * cm[0], text))

    page[0].extract_text(visitor_text=visit)
    order = [size for _, size, text in runs if "ordered" in text]  # in points
    assert order and min(order) >= 18
    lowest = min(y for y, _, _ in runs)
    assert lowest < 792 * 0.2  # within the bottom fifth of a Letter page (points)


def test_every_line_of_the_placard_is_at_least_14_points(placard):
    """Read from a distance (LAW.md § 3): the letterhead's lines too."""
    sizes: list[tuple[float, str]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            sizes.append((size * (tm[0] or 1) * (cm[0] or 1), text.strip()))

    PdfReader(io.BytesIO(placard[0])).pages[0].extract_text(visitor_text=visit)
    small = [(round(size, 1), text[:40]) for size, text in sizes if size < 14 - 0.05]
    assert sizes and small == []


def test_the_placard_puts_stabilization_inside_c2_and_says_what_failure_brings(placard):
    """Site stabilization is inside § 228-79C(2)'s exception, cited to C(2), never A(1)'s
    narrower rule beside it; the placard carries C(2)'s failure-to-comply sentence."""
    for text in (pdf_text(placard[0]), docx_text(placard[1])):
        flat = squash(text)
        assert squash("stop-work order, site stabilization among it. (§ 228-79C(2))") in flat
        assert squash(HOMER.enforcement.stabilization.value) not in flat
        assert "228-79A(1)" not in flat
        failure = HOMER.enforcement.stop_work_failure
        assert squash(f"{failure.value} (§ 228-79C(2))") in flat


def test_an_order_issued_before_service_takes_effect_on_service(tmp_path):
    data = {k: v for k, v in case_data(GRADING).items() if k not in ("served", "effective")}
    assert api.check(KIND, write_yaml(tmp_path, data)) == []
    _, files = api.render_bytes(KIND, write_yaml(tmp_path, data), ("pdf", "docx"))
    for text in (pdf_text(files["pdf"]), docx_text(files["docx"])):
        flat = " ".join(text.split())
        assert "Effective: on service" in flat
        assert (
            "This order takes effect on service: on the day it is handed to you or posted" in flat
        )
        assert "Date and time of service: ______" in flat  # left for the server


def test_an_order_served_by_mail_alone_is_not_effective_before_mail_service_is_complete(
    tmp_path,
):
    data = case_data(GRADING)
    data["served"] = {"date": str(data["issued"]), "means": "mail", "method": "certified mail"}
    data["effective"] = str(data["issued"])
    found = problems(tmp_path, data)
    assert "before service was complete" in found["effective"].message
