"""docgen extend: a later date for a corrective action or a remedial measure, recorded with
who granted it, when and why, and a short letter to the person it binds (LAW.md § 11);
never an earlier or equal date. The calendar, the halt and escalation read the extended
date. On SQLite and PostgreSQL, the letter read back from PDF and DOCX."""

from __future__ import annotations

from datetime import date

import pytest
from icalendar import Calendar

from docgen.errors import DocgenError
from docgen.register import RegisterError
from docgen.register.matter.inspections import escalate, halts, notify_deficiency
from docgen.register.reading.due import calendar
from docgen.register.reading.feed import ics
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import INSPECTION, inspection, reinspection
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

OFFICER = "Dana R. Whitcomb"


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def served_nod(reg, tmp_path):
    """A notice of deficiency served November 3, 2026: deficiency 1 (the silt fence) to be
    corrected by November 6."""
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-25"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg.issue("inspection-report", case, formats=("html",)).number
    nod = notify_deficiency(reg, inspected, date(2026, 11, 3), formats=("html",)).number
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 3)), formats=("html",))
    return nod


def corrective_days(reg, nod):
    return [i.day for i in calendar(reg) if i.number == nod and i.category == "corrective action"]


def test_a_later_date_is_granted_in_writing_and_everything_reads_it(reg, tmp_path, served_nod):
    nod = served_nod
    assert date(2026, 11, 6) in corrective_days(reg, nod)
    with pytest.raises(RegisterError, match=r"--until 2026-11-06: not later than the date"):
        reg.extend(nod, 1, date(2026, 11, 6), granted_by=OFFICER, reason="Frozen ground")
    with pytest.raises(RegisterError, match=r"--until 2026-11-05: not later .* never shortened"):
        reg.extend(nod, 1, date(2026, 11, 5), granted_by=OFFICER, reason="Frozen ground")
    with pytest.raises(RegisterError, match=r"--item 9: .* has no deficiency 9"):
        reg.extend(nod, 9, date(2026, 11, 30), granted_by=OFFICER, reason="Frozen ground")
    letter = reg.extend(
        nod, 1, date(2026, 11, 20), granted_by=OFFICER, reason="Frozen ground; cannot trench.",
        on=date(2026, 11, 5), formats=("pdf", "docx"),
    )  # fmt: skip
    assert letter.kind == "extension-letter" and letter.number == "EXT-2026-0001"
    for text in (flat(pdf_text(letter.files["pdf"])), flat(docx_text(letter.files["docx"]))):
        assert "Extension of Time" in text
        assert f"corrective action of deficiency 1 in Notice of Deficiency No. {nod}" in text
        assert "Was due November 6, 2026" in text and "Now due November 20, 2026" in text
        assert "Why: Frozen ground; cannot trench." in text
        assert "Dana R. Whitcomb, Code Enforcement Officer" in text
        assert "No further work shall be conducted except for site stabilization" in text
    days = corrective_days(reg, nod)
    assert date(2026, 11, 20) in days and date(2026, 11, 6) not in days
    feed = Calendar.from_ical(ics(calendar(reg), "Officer", "America/New_York", date.today()))
    fixes = [e.decoded("dtstart") for e in feed.walk("VEVENT") if "deficiency 1:" in e["summary"]]
    assert fixes == [date(2026, 11, 20)]
    (halt,) = [h for h in halts(reg) if h.notice == nod]
    assert halt.earliest_due == date(2026, 11, 20)
    with pytest.raises(RegisterError, match=r"not later than the date now in force .* November 20"):
        reg.extend(nod, 1, date(2026, 11, 18), granted_by=OFFICER, reason="x")
    # A reinspection on November 9 saw it open: before the extended date, so no failure.
    finding = {
        "practice": "Silt fence", "corrects": 1, "found": "Fence still down",
        "result": "deficient", "requirement": "§ 228-78D(1)",
        "corrective_action": "Reinstall the silt fence", "due": "2026-11-20",
    }  # fmt: skip
    reg.issue(
        "inspection-report",
        reinspection(tmp_path, nod, "2026-11-09", [finding]),
        formats=("html",),
    )
    with pytest.raises(DocgenError, match="to be corrected by November 20, 2026, and no"):
        escalate(reg, nod, "notice-of-violation", date(2026, 11, 24), date(2026, 12, 1))


def test_a_remedy_date_of_a_notice_of_violation_is_extended_by_the_command(reg, tmp_path):
    issued = reg.issue("notice-of-violation", notice(issued="2026-11-10"), formats=("html",))
    reg.record_service(issued.number, service_of("personal-delivery", date(2026, 11, 11)))
    env = {"DOCGEN_DATABASE_URL": reg.url}
    run = docgen(
        "extend", issued.number, "--item", "1", "--until", "2026-11-10", "--granted-by",
        OFFICER, "--reason", "Rain", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "--until 2026-11-10: not later than the date now in force" in run.stderr
    overdue = lambda today: [d.number for d in reg.documents("remedies-overdue", today=today)]  # noqa: E731
    assert overdue(date(2026, 11, 20)) == [issued.number]  # due November 17
    run = docgen(
        "extend", issued.number, "--item", "1", "--until", "2026-12-04", "--granted-by",
        OFFICER, "--reason", "Rain", "--date", "2026-11-16", "-f", "pdf", "-o", f"{tmp_path}/",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert f"{issued.number}, item 1: due 2026-12-04 (was 2026-11-17)" in run.stdout
    (path,) = tmp_path.glob("EXT-*.pdf")
    text = flat(pdf_text(path.read_bytes()))
    assert f"remedial measure 1 in Notice of Violation No. {issued.number}" in text
    remedies = [i for i in calendar(reg) if i.number == issued.number and i.category == "remedy"]
    assert [i.day for i in remedies] == [date(2026, 12, 4)]
    # The clerk's list of remedies overdue reads the date as extended, as the calendar does.
    assert overdue(date(2026, 11, 20)) == [] and overdue(date(2026, 12, 5)) == [issued.number]


def test_a_correction_never_takes_back_a_later_date_granted(reg):
    """A notice's remedy extended to December 4 in writing, then corrected: a correction
    that goes back to the date first written (November 17) would shorten the date the
    person was granted, unsaid; it is refused naming the letter, and a correction stating
    the later date is issued and is on the calendar on it (before, the correction was
    issued and the calendar went back to November 17)."""
    issued = reg.issue("notice-of-violation", notice(issued="2026-11-10"), formats=("html",))
    reg.record_service(issued.number, service_of("personal-delivery", date(2026, 11, 11)))
    letter = reg.extend(
        issued.number, 1, date(2026, 12, 4), granted_by=OFFICER, reason="Rain", formats=("html",)
    ).number
    stored = reg.document(issued.number).case
    case = {k: v for k, v in stored.items() if k not in ("number", "prior_offenses")}
    case["violations"][0]["nature"] += " (corrected)"
    with pytest.raises(RegisterError) as refused:
        reg.supersede(issued.number, case, formats=("html",))
    said = str(refused.value)
    assert f"a correction of {issued.number}: remedial measure 1: 2026-11-17 is before " in said
    assert f"December 4, 2026, the later date granted in {letter}" in said
    assert "never shortened: give 2026-12-04 or later" in said
    assert reg.document(issued.number).superseded_by is None
    case["remedies"][0]["due"] = "2026-12-04"
    corrected = reg.supersede(issued.number, case, formats=("html",)).number
    remedies = [(i.number, i.day) for i in calendar(reg) if i.category == "remedy"]
    assert remedies == [(corrected, date(2026, 12, 4))]


def test_a_letter_corrected_keeps_its_dates_and_rests_on_its_notice(reg, served_nod):
    """The letter granting a later date is made by its step (docgen extend): corrected, it
    keeps the item and its dates (a reason or a name may be corrected), rests on the same
    notice, and the date in force is the correction's (the letter it corrects no longer
    counts)."""
    nod = served_nod
    letter = reg.extend(nod, 1, date(2026, 11, 20), granted_by=OFFICER, reason="Frozen ground")
    case = dict(reg.document(letter.number).case)
    case.pop("number", None)
    moved = {**case, "item": {**case["item"], "now": "2026-11-30"}}
    with pytest.raises(
        RegisterError,
        match="keeps what the register made of it; this one "
        "changes the item, the date it replaces and the date granted",
    ):
        reg.supersede(letter.number, moved, formats=("html",))
    fixed = reg.supersede(letter.number, {**case, "reason": "Frozen ground; no trenching."},
                          formats=("html",))  # fmt: skip
    assert reg.document(fixed.number).about == nod
    assert date(2026, 11, 20) in corrective_days(reg, nod)
    assert date(2026, 11, 6) not in corrective_days(reg, nod)
