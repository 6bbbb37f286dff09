"""One log-book report typed on the desk (§ 228-78D(2); LAW.md § 12), over HTTP against a
real `docgen serve`: checked as a CSV row is, every problem named by the form's label with
what was typed kept and nothing recorded, and the gaps computed again once it is."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from desk_server import csrf_of, database, docgen, start_desk, stop_desk

from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack

SITE = "14 Water Street lot"
TODAY = municipal_today(load_pack("homer"))
STARTED = TODAY - timedelta(days=10)  # a qualified inspection was due by STARTED + 7


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the register's log-book reports (none,
    # then one).
    server = start_desk(tmp_path_factory.mktemp("desk"))
    opened = docgen(
        server.home,
        *("logbook", SITE, "--open", "--jurisdiction", "homer", "--started", str(STARTED)),
    )
    assert opened.returncode == 0, opened.stderr
    yield server
    stop_desk(server)


def entries(desk) -> list[tuple]:
    with database(desk) as db:
        return db.execute(
            "select day, time, inspector, qualification, role, rainfall, findings,"
            " corrective_actions, source from log_entries order by id"
        ).fetchall()


def report(**changes: str) -> dict[str, str]:
    typed = {
        "site": SITE,
        "date": str(TODAY - timedelta(days=4)),
        "time": "07:45",
        "inspector": "Ruth Okonkwo",
        "qualification": "CPESC",
        "role": "qualified-inspector",
        "rainfall": "0.2",
        "findings": "Silt fence intact along the east line.\nInlet protection in place.",
        "corrective_actions": "Clean the sediment trap by Friday",
    }
    return typed | changes


# Through today as the desk reads it (a run that passes the municipality's midnight says
# the new day; the gap is the same one).
GAP = f"no inspection within 7 days of {STARTED} (none through "


def test_bad_reports_name_the_field_keep_what_was_typed_and_record_nothing(desk):
    officer = desk.signed_in("otto")
    page = officer.get("/logbook", params={"site": SITE}).text
    assert GAP in page and "(§ 228-78D(2)(b))" in page
    token = csrf_of(page)
    # Two days ahead of the day this module was loaded: after the desk's today even when
    # the run passes the municipality's midnight in between (one day ahead was then
    # today, and recorded).
    ahead = str(TODAY + timedelta(days=2))
    future = officer.post("/logbook/entry", data=report(date=ahead, csrf_token=token))
    assert future.status_code == 400
    said = html.unescape(future.text)
    assert f"Date inspected: {ahead}: after today (§ 228-78D(2))" in said
    assert f'id="e-date" name="date" type="date" value="{ahead}"' in future.text
    assert 'aria-invalid="true"' in future.text.split('id="e-date"')[1].split(">")[0]
    assert 'value="Ruth Okonkwo"' in future.text and "Inlet protection in place." in said

    nobody = officer.post(
        "/logbook/entry", data=report(inspector="  ", time="7.45", csrf_token=token)
    )
    assert nobody.status_code == 400
    said = html.unescape(nobody.text)
    assert "2 problems to fix" in said
    assert "Inspector: missing (§ 228-78D(2))" in said
    assert "Time: '7.45' is not a time (HH:MM) (§ 228-78D(2))" in said
    assert 'value="CPESC"' in nobody.text and GAP in said  # kept; the gap still flagged
    assert entries(desk) == []


def test_a_good_report_is_recorded_as_written_and_its_gap_disappears(desk):
    officer = desk.signed_in("otto")
    token = csrf_of(officer.get("/logbook", params={"site": SITE}).text)
    posted = officer.post("/logbook/entry", data=report(csrf_token=token))
    assert posted.status_code == 303
    shown = html.unescape(officer.get(posted.headers["location"]).text)
    assert "1 report recorded" in shown
    assert "Missing inspections (0)" in shown and GAP not in shown
    assert "Ruth Okonkwo (CPESC; qualified-inspector)" in shown
    day = TODAY - timedelta(days=4)
    assert entries(desk) == [
        (
            str(day),
            "07:45",
            "Ruth Okonkwo",
            "CPESC",
            "qualified-inspector",
            "0.2",
            "Silt fence intact along the east line.\nInlet protection in place.",
            "Clean the sediment trap by Friday",
            "desk form",
        )
    ]
    # The next inspection is due seven days after this one (§ 228-78D(2)(b)).
    assert f"the next is due by {(day + timedelta(days=7)):%B} {(day + timedelta(days=7)).day}" in (
        shown
    )
