"""A reinspection and an escalation answer a served notice of deficiency (§ 228-79A(1);
LAW.md § 11; issue 47): neither is dated before the day the register keeps as the
notice's service, nor made from a notice not served yet. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

import pytest
import yaml

from docgen.errors import DocgenError
from docgen.register.matter.inspections import (
    NOTICE,
    escalate,
    notify_deficiency,
    started_by_register,
)
from tests.helpers.inspection_cases import INSPECTION, LANDOWNER, inspection, reinspection
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of

HTML = ("html",)


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def notice_of(reg, tmp_path):
    """A notice of deficiency of an inspection on November 2, 2026, issued November 3, not
    served: the silt fence (§ 228-78D(1)) to be corrected by November 6."""
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-25"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg.issue("inspection-report", case, formats=HTML).number
    return notify_deficiency(reg, inspected, date(2026, 11, 3), formats=HTML).number


FOUND = {
    "found": "Still down; sediment in the inlet",
    "result": "deficient",
    "requirement": "§ 228-78D(1)",
    "corrective_action": "Reinstall it",
    "due": "2026-12-10",
}


def still_down(tmp_path, nod: str, on: str):
    finding = {
        "practice": "Silt fence",
        "corrects": 1,
        "found": "Fence still down; sediment in the inlet",
        "result": "deficient",
        "requirement": "§ 228-78D(1)",
        "corrective_action": "Reinstall the silt fence",
        "due": on,
    }
    return reinspection(tmp_path, nod, on, [finding])


def test_a_reinspection_before_the_notice_is_served_is_refused(reg, tmp_path, notice_of):
    nod = notice_of
    before = reg.count()
    with pytest.raises(DocgenError) as refused:
        reg.issue("inspection-report", still_down(tmp_path, nod, "2026-11-07"), formats=HTML)
    said = flat(str(refused.value))
    assert f"Notice of Deficiency No. {nod} is not served yet: a reinspection answers" in said
    assert "record the notice's service first (§ 228-79A(1); Village of Homer practice)" in said
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 10)), formats=HTML)
    with pytest.raises(DocgenError) as refused:
        reg.issue("inspection-report", still_down(tmp_path, nod, "2026-11-07"), formats=HTML)
    said = flat(str(refused.value))
    assert (
        f"November 7, 2026 is before Notice of Deficiency No. {nod} was served (November 10, "
        "2026): a reinspection answers a served notice, so a reinspection of it is made on or "
        "after November 10, 2026"
    ) in said
    assert reg.count() == before + 1  # the affidavit of service alone
    made = reg.issue("inspection-report", still_down(tmp_path, nod, "2026-11-10"), formats=HTML)
    assert made.kind == "inspection-report"


def test_an_escalation_dated_before_the_notice_is_served_is_refused(reg, tmp_path, notice_of):
    # Served first on the landowner (copied) on November 3, and the reinspection of
    # November 7 saw the fence still down; served on the developer it is addressed to only
    # on November 10: the register keeps November 10 as its service.
    nod = notice_of
    owner = service_of("personal-delivery", date(2026, 11, 3), to=LANDOWNER["name"])
    reg.record_service(nod, owner, formats=HTML)
    reg.issue("inspection-report", still_down(tmp_path, nod, "2026-11-07"), formats=HTML)
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 10)), formats=HTML)
    before = reg.count()
    with pytest.raises(DocgenError) as refused:
        escalate(reg, nod, "notice-of-violation", date(2026, 11, 8), date(2026, 11, 20))
    said = flat(str(refused.value))
    assert (
        f"November 8, 2026 is before Notice of Deficiency No. {nod} was served (November 10, "
        "2026): a notice of violation escalated from it answers a served notice, so it is "
        "dated on or after November 10, 2026"
    ) in said
    assert reg.count() == before
    issued = escalate(reg, nod, "notice-of-violation", date(2026, 11, 10), date(2026, 11, 20))
    assert issued.kind == "notice-of-violation"


def test_a_reinspection_dated_before_its_notice_is_refused(reg, tmp_path):
    # A notice of deficiency issued on paper before the register (not held by it): the
    # reinspection's report names it and its date, and was made two days before it.
    case = still_down(tmp_path, "NOD-2025-0099", "2026-11-01")
    data = yaml.safe_load(case.read_text(encoding="utf-8"))
    data["reinspects"]["issued"] = "2026-11-03"
    case.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    before = reg.count()
    with pytest.raises(DocgenError) as refused:
        reg.issue("inspection-report", case, formats=HTML)
    said = flat(str(refused.value))
    assert (
        "November 1, 2026 is before Notice of Deficiency No. NOD-2025-0099 (issued November 3, "
        "2026): a reinspection re-checks the work that notice required, so it is made on or after "
        "that day"
    ) in said
    assert "§ 228-79A(1)" in said
    assert reg.count() == before


def test_a_reinspection_states_its_notices_date_as_the_register_holds_it(reg, tmp_path, notice_of):
    nod = notice_of  # issued November 3, 2026
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 4)), formats=HTML)
    case = still_down(tmp_path, nod, "2026-11-10")
    data = yaml.safe_load(case.read_text(encoding="utf-8"))
    data["reinspects"]["issued"] = "2026-11-01"  # what the report would print: not its date
    case.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    before = reg.count()
    with pytest.raises(DocgenError) as refused:
        reg.issue("inspection-report", case, formats=HTML)
    said = flat(str(refused.value))
    assert (
        f"Notice of Deficiency No. {nod} was issued November 3, 2026, not November 1, 2026"
    ) in said
    assert reg.count() == before
    data["reinspects"]["issued"] = "2026-11-03"
    case.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    made = reg.issue("inspection-report", case, formats=("pdf",))
    assert (
        f"Reinspection of the corrective work required by Notice of Deficiency No. {nod}, "
        "issued November 3, 2026."
    ) in flat(pdf_text(made.files["pdf"]))


def reinspected_both_open(reg, tmp_path, served_to: str | None = None) -> tuple[str, str]:
    """A notice of deficiency issued November 3, 2026 (both deficiencies due November 6),
    served by hand on November 4 (on ``served_to``; None: the person it is addressed to)
    and reinspected on November 12 with both still open: (its number, the report's)."""
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-06"
    findings[2]["requirement"] = "§ 228-78D(1)"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg.issue("inspection-report", case, formats=HTML).number
    nod = notify_deficiency(reg, inspected, date(2026, 11, 3), formats=HTML).number
    served = service_of("personal-delivery", date(2026, 11, 4), to=served_to)
    reg.record_service(nod, served, formats=HTML)
    rechecked = [
        {**FOUND, "practice": practice, "corrects": n}
        for n, practice in ((1, "Silt fence"), (2, "Concrete washout"))
    ]
    again = reinspection(tmp_path, nod, "2026-11-12", rechecked)
    return nod, reg.issue("inspection-report", again, formats=HTML).number


def test_an_escalation_drafted_then_dated_before_the_notices_service_is_refused(reg, tmp_path):
    # A notice of deficiency issued November 3 (both deficiencies due November 6), served on
    # the landowner (copied) on November 4 and reinspected on November 12 (both still open),
    # served on the developer it is addressed to only on November 20: the register keeps
    # November 20 as its service. The desk's draft of a notice of violation from it (as the
    # register fills it, dated today) is issued with its date typed as November 14: before
    # that service, as `docgen escalate` refuses it.
    nod, report = reinspected_both_open(reg, tmp_path, served_to=LANDOWNER["name"])
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 20)), formats=HTML)
    kind = "notice-of-violation"
    draft = started_by_register(NOTICE, kind)(reg, nod)
    for remedy in draft["remedies"]:
        remedy["due"] = "2026-12-10"  # what the officer types
    before = reg.count()
    draft["issued"] = "2026-11-14"
    with pytest.raises(DocgenError) as refused:
        reg.issue(kind, draft, formats=HTML)
    said = flat(str(refused.value))
    assert (
        f"November 14, 2026 is before Notice of Deficiency No. {nod} was served (November 20, "
        "2026): a notice of violation escalated from it answers a served notice, so it is "
        "dated on or after November 20, 2026 (§ 228-79A(1); Village of Homer practice)"
    ) in said
    assert reg.count() == before
    draft["issued"] = "2026-11-20"
    issued = reg.issue(kind, draft, formats=("pdf",))
    assert (
        f"not corrected by November 12, 2026, as found at Inspection Report No. {report} of "
        "that day"
    ) in flat(pdf_text(issued.files["pdf"]))


def test_a_stop_work_order_drafted_then_dated_before_the_reinspection_it_names_is_refused(
    reg, tmp_path
):
    # Found by the model of the matter (invariant 22): a stop-work order from the desk's
    # draft, dated between the notice's service and the reinspection its violations name,
    # was issued saying "not corrected by November 12, 2026, as found at Inspection Report
    # No. ... of that day" on November 10 (a notice of violation refused it: its penalty
    # counts the weeks continued).
    nod, report = reinspected_both_open(reg, tmp_path)
    kind = "stop-work-order"
    draft = started_by_register(NOTICE, kind)(reg, nod)
    for remedy in draft["remedies"]:
        remedy["due"] = "2026-12-10"
    before = reg.count()
    draft["issued"] = "2026-11-10"
    with pytest.raises(DocgenError) as refused:
        reg.issue(kind, draft, formats=HTML)
    said = flat(str(refused.value))
    assert (
        "continued through November 12, 2026, after the issue date November 10, 2026; it "
        "states what was already observed"
    ) in said
    assert reg.count() == before
    draft["issued"] = "2026-11-12"
    issued = reg.issue(kind, draft, formats=("pdf", "docx"))
    for text in (pdf_text(issued.files["pdf"]), docx_text(issued.files["docx"])):
        assert (
            f"not corrected by November 12, 2026, as found at Inspection Report No. {report} "
            "of that day"
        ) in flat(text)
