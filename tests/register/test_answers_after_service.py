"""A reinspection and an escalation answer a served notice of deficiency (§ 228-79A(1);
LAW.md § 11; issue 47): neither is dated before the day the register keeps as the
notice's service, nor made from a notice not served yet. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.errors import DocgenError
from docgen.register.matter.inspections import escalate, notify_deficiency
from tests.helpers.inspection_cases import INSPECTION, LANDOWNER, inspection, reinspection
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
