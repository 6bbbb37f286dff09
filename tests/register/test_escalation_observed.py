"""An escalation states only what was observed (issue 47; LAW.md § 11, § 4 reading 4): a
notice of violation or stop-work order escalated from a notice of deficiency says a
deficiency was "not corrected by" the day of the latest reinspection that found it not
corrected, naming that report, and counts the weeks it continued through that day
(§ 228-79C(4)); with no reinspection on or after the deficiency's date it is refused in
plain words. On SQLite and PostgreSQL, read back from the PDF and the DOCX."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.errors import DocgenError
from docgen.register.matter.inspections import escalate, notify_deficiency
from docgen.register.reading.due import calendar
from tests.helpers.inspection_cases import INSPECTION, inspection, reinspection
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of

FORMATS = ("pdf", "docx")


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def served_notice(reg, tmp_path):
    """A notice of deficiency of an inspection on November 2, 2026, served November 3: the
    silt fence (§ 228-78D(1)) to be corrected by November 6, the washout by November 25."""
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-25"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg.issue("inspection-report", case, formats=("html",)).number
    nod = notify_deficiency(reg, inspected, date(2026, 11, 3), formats=("html",)).number
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 3)), formats=("html",))
    return inspected, nod


def rechecked(reg, tmp_path, nod: str, on: str, still_open: bool, corrects=1) -> str:
    finding = {"practice": "Silt fence", "corrects": corrects}
    if still_open:
        finding |= {
            "found": "Fence still down; sediment in the inlet",
            "result": "deficient",
            "requirement": "§ 228-78D(1)",
            "corrective_action": "Reinstall the silt fence",
            "due": on,
        }
    else:
        finding |= {"found": "Reinstalled, trenched", "result": "satisfactory"}
    return reg.issue(
        "inspection-report", reinspection(tmp_path, nod, on, [finding]), formats=("html",)
    ).number


def test_no_reinspection_after_the_date_refuses_in_plain_words(reg, tmp_path, served_notice):
    _, nod = served_notice
    before = reg.count()
    with pytest.raises(DocgenError) as refused:
        escalate(reg, nod, "notice-of-violation", date(2026, 11, 20), date(2026, 11, 27))
    said = str(refused.value)
    assert (
        f"deficiency 1 of Notice of Deficiency No. {nod} (Silt fence) was to be corrected by "
        "November 6, 2026, and no reinspection on or after that day, up to November 20, 2026, "
        "found it not corrected: a document states only what was observed."
    ) in flat(said)
    assert "Record the reinspection of the notice first" in said
    assert "(§ 228-79A(1); Village of Homer practice)" in said
    assert "deficiencies[" not in said.split("Record")[0]  # plain words, no field path
    assert reg.count() == before  # nothing recorded, no number used


def test_a_reinspection_before_the_date_is_not_a_failure_to_correct(reg, tmp_path, served_notice):
    _, nod = served_notice
    rechecked(reg, tmp_path, nod, "2026-11-05", still_open=True)  # the day before its date
    with pytest.raises(DocgenError, match="no reinspection on or after that day"):
        escalate(reg, nod, "stop-work-order", date(2026, 11, 20), date(2026, 11, 27))


def test_the_notice_names_the_reinspection_and_counts_the_weeks_it_saw(
    reg, tmp_path, served_notice
):
    inspected, nod = served_notice
    rechecked(reg, tmp_path, nod, "2026-11-09", still_open=True)
    later = rechecked(reg, tmp_path, nod, "2026-11-16", still_open=True)
    issued = escalate(
        reg, nod, "notice-of-violation", date(2026, 11, 20), date(2026, 11, 27), formats=FORMATS
    )
    (violation,) = reg.document(issued.number).case["violations"]
    assert violation["observed"] == "2026-11-02"
    assert violation["continued_through"] == "2026-11-16"  # what the reinspections saw
    for text in (pdf_text(issued.files["pdf"]), docx_text(issued.files["docx"])):
        words = flat(text)
        assert (
            f"found at Inspection Report No. {inspected}, to be corrected by November 6, 2026; "
            f"not corrected by November 16, 2026, as found at Inspection Report No. {later} of "
            "that day"
        ) in words
        assert "not corrected by November 6, 2026" not in words
        assert "November 2, 2026, continued through November 16, 2026" in words
        # § 228-79C(4): each week's continued violation is a separate additional violation
        assert "November 16, 2026 (fourteen days later)" in words
        assert "not continued" not in words


def test_a_reinspection_recorded_on_the_desk_is_seen(reg, tmp_path, served_notice):
    """The desk's form sends the deficiency a finding corrects as typed ("1"): the case
    keeps it so, and the escalation still reads that reinspection (it was never seen)."""
    _, nod = served_notice
    later = rechecked(reg, tmp_path, nod, "2026-11-16", still_open=True, corrects="1")
    issued = escalate(reg, nod, "stop-work-order", date(2026, 11, 20), date(2026, 11, 27))
    (violation,) = reg.document(issued.number).case["violations"]
    assert violation["continued_through"] == "2026-11-16"
    assert later in flat(" ".join(str(v) for v in violation.values()))


def test_a_deficiency_found_corrected_since_is_not_escalated(reg, tmp_path, served_notice):
    _, nod = served_notice
    rechecked(reg, tmp_path, nod, "2026-11-09", still_open=True)
    rechecked(reg, tmp_path, nod, "2026-11-12", still_open=False)  # not yet approved
    with pytest.raises(
        DocgenError, match=r"\(deficiency 1 found corrected on reinspection: approve the work\)"
    ):
        escalate(reg, nod, "notice-of-violation", date(2026, 11, 20), date(2026, 11, 27))


def test_the_escalated_notices_remedy_is_on_the_calendar_on_its_date(reg, tmp_path, served_notice):
    """The notice's remedial measures are due on the date the escalation gives them, and the
    calendar shows them on that date while the offense is pending (§ 228-79C(1)(d)). Found by
    the model of the matter, whose notices escalated had no remedial date of their own."""
    _, nod = served_notice
    rechecked(reg, tmp_path, nod, "2026-11-16", still_open=True)
    issued = escalate(reg, nod, "notice-of-violation", date(2026, 11, 20), date(2026, 11, 27))
    remedies = reg.document(issued.number).case["remedies"]
    assert remedies and {r["due"] for r in remedies} == {"2026-11-27"}
    shown = [i.day for i in calendar(reg) if i.number == issued.number and i.category == "remedy"]
    assert shown == [date(2026, 11, 27)]
