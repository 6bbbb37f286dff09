"""A service recorded by an older docgen is found after `docgen register upgrade`: the
same event recorded again is "already recorded" (LAW.md § 10: one event, one affidavit),
on SQLite and PostgreSQL.

The older registers are made as an older docgen left them (tests/helpers/old_registers.py):
at revision 0005, before each person served was an event of its own (migration 0006: no
person named, no time of delivery kept), and at 0012, before migrations 0013-0016.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from docgen.register import Register, RegisterError
from tests.helpers.cli import docgen
from tests.helpers.old_registers import downgraded, old_layout_row
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

HTML = ("html",)
LANDOWNER = "Tioughnioga Ridge Development LLC"
SERVED = date(2026, 10, 6)

# A personal delivery on the landowner, as each older docgen recorded it.
LAYOUTS = {
    "0005": {},  # no served_on, role, time, place...: the columns came with 0006
    "0012": {
        "served_on": LANDOWNER,
        "role": "landowner",
        "time": "10:45",
        "place": "41 Route 281, Homer, NY 13077",
    },
}


@pytest.mark.parametrize("revision", LAYOUTS)
def test_a_service_recorded_before_an_upgrade_is_already_recorded_after_it(
    register_url, tmp_path, revision
):
    with Register.open(register_url) as reg:
        issued = reg.issue("notice-of-violation", notice("2026-10-05"), formats=HTML)
        document_id = reg.document(issued.number).id
    downgraded(register_url, revision)
    old_layout_row(
        register_url,
        "service_events",
        {
            "document_id": document_id,
            "method": "personal-delivery",
            "date": SERVED,
            "served_by": "Dana R. Whitcomb, Code Enforcement Officer",
            "appeal_deadline": date(2026, 10, 21),
            "recorded_at": datetime(2026, 10, 6, 15, 0, tzinfo=UTC),
            "recorded_by": "Clerk Ames",
            **LAYOUTS[revision],
        },
    )
    upgraded = docgen("register", "upgrade", cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"migrated from {revision} to revision" in upgraded.stdout

    with Register.open(register_url) as reg:
        # As the clerk records it again, with the time (a delivery's time is required now):
        # an event of 0005 kept no time, so it is the same event whatever time is typed.
        for typed in ("10:45",):
            with pytest.raises(RegisterError) as refused:
                reg.record_service(
                    issued.number, service_of("personal-delivery", SERVED, time=typed), formats=HTML
                )
            said = str(refused.value)
            assert f"service on {LANDOWNER} by personal delivery on {SERVED}" in said
            assert "is already recorded" in said and "LAW.md" not in said
        assert len(reg.document(issued.number).services) == 1
        assert reg.documents(kind="affidavit-of-service") == []  # none made by the refusal
        # Another day's delivery is another event, recorded with its own affidavit.
        again = reg.record_service(
            issued.number, service_of("personal-delivery", date(2026, 10, 7)), formats=HTML
        )
        assert again.affidavit is not None
        assert len(reg.document(issued.number).services) == 2
