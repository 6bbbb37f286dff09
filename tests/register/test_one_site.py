"""One site, one truth (issue 47; LAW.md §§ 3 and 11): no document of a site says work may
resume while another halt or order at that site stands. An approval of corrected work names
the stop-work order still in effect there; a notice lifting an order names the notice of
deficiency whose halt still stands. On SQLite and PostgreSQL, read back from the PDF and
the DOCX."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.register.matter.inspections import approve_work, escalate, notify_deficiency
from docgen.register.matter.lifting import lift
from docgen.register.matter.service_event import Service
from tests.helpers.inspection_cases import INSPECTION, inspection, reinspection
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of

FORMATS = ("pdf", "docx")


def flat(text: str) -> str:
    return " ".join(text.split())


def delivered(on: date) -> Service:
    return service_of(
        "personal-delivery",
        on,
        time="10:15",
        place="120 Cayuga Street, Homer, New York, at the site trailer",
        person="Sam Keller",
        capacity="site superintendent, authorized to accept service",
        description="male, about 45, 5 ft 10 in, 180 lb, gray hair",
    )


@pytest.fixture
def site_halted(reg, tmp_path):
    """A notice of deficiency served on November 3, 2026 (two deficiencies, each cited to
    the article), a reinspection on November 18 that found both still open, and a stop-work
    order escalated from it, served on November 20."""
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-09"
    findings[2]["requirement"] = "§ 228-78D(1)"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg.issue("inspection-report", case, formats=("html",)).number
    nod = notify_deficiency(reg, inspected, date(2026, 11, 3), formats=("html",)).number
    reg.record_service(nod, delivered(date(2026, 11, 3)), formats=("html",))
    reinspected(reg, tmp_path, nod, "2026-11-18", fixed=())  # both still open: escalated
    order = escalate(reg, nod, "stop-work-order", date(2026, 11, 19), date(2026, 11, 30))
    reg.record_service(order.number, delivered(date(2026, 11, 20)), formats=("html",))
    return nod, order.number


def reinspected(reg, tmp_path, nod: str, on: str, fixed: tuple[int, ...]) -> str:
    findings = [
        {
            "practice": practice,
            "found": "Corrected" if n in fixed else "Still not done",
            "result": "satisfactory" if n in fixed else "deficient",
            **(
                {}
                if n in fixed
                else {
                    "requirement": "§ 228-78D(1)",
                    "corrective_action": "Do it",
                    "due": "2026-12-10",
                }
            ),
            "corrects": n,
        }
        for n, practice in ((1, "Silt fence"), (2, "Concrete washout"))
    ]
    return reg.issue("inspection-report", reinspection(tmp_path, nod, on, findings)).number


def test_an_approval_never_says_work_may_resume_while_the_sites_order_stands(
    reg, tmp_path, site_halted
):
    nod, order = site_halted
    again = reinspected(reg, tmp_path, nod, "2026-11-25", fixed=(1, 2))
    approval = approve_work(reg, nod, again, date(2026, 11, 25), formats=FORMATS)
    for text in (pdf_text(approval.files["pdf"]), docx_text(approval.files["docx"])):
        words = flat(text)
        assert "approved: work may resume" not in words  # the pack's sentence when none stands
        assert "All deficiencies of the notice are corrected" in words
        assert (
            f"Work may not resume yet: Stop-Work Order No. {order}, served November 20, 2026, "
            "is in effect at this site, and work resumes only when it is lifted in writing."
        ) in words
        assert "The stop-work order shall be in effect until the Village of Homer confirms" in words


def test_a_lifting_never_says_activities_may_resume_while_a_notices_halt_stands(
    reg, tmp_path, site_halted
):
    nod, order = site_halted
    again = reinspected(reg, tmp_path, nod, "2026-11-25", fixed=(1,))
    approve_work(reg, nod, again, date(2026, 11, 25), formats=("html",))  # partial
    lifted = lift(reg, order, date(2026, 11, 26), formats=FORMATS)
    for text in (pdf_text(lifted.files["pdf"]), docx_text(lifted.files["docx"])):
        words = flat(text)
        assert "may resume" not in words
        assert "is lifted as of November 26, 2026. (§ 228-79C(2))" in words
        assert (
            f"Land development activities may not resume yet: the halt of Notice of Deficiency "
            f"No. {nod}, served November 3, 2026 (deficiency 2 still open), stands at this "
            "site until the deficiencies are corrected and the work is approved in writing."
        ) in words
        assert "No further work shall be conducted except for site stabilization" in words


def test_once_nothing_else_stands_each_says_work_may_resume(reg, tmp_path, site_halted):
    nod, order = site_halted
    again = reinspected(reg, tmp_path, nod, "2026-11-25", fixed=(1, 2))
    approve_work(reg, nod, again, date(2026, 11, 25), formats=("html",))
    lifted = lift(reg, order, date(2026, 11, 26), formats=("pdf",))
    assert "land development activities may resume" in flat(pdf_text(lifted.files["pdf"]))
