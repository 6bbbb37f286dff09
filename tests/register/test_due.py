"""The matter's calendar, derived from the register (LAW.md § 12), and the site log book
(§ 228-78D(2); § 301-73A(2)), on SQLite and PostgreSQL; the calendar feed read back with
the icalendar library."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from desk_server import add_users
from icalendar import Calendar

from docgen.errors import CaseInvalid
from docgen.law.deadlines import appeal_deadline
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import RegisterError
from docgen.register.matter.inspections import (
    ask_reinspection,
    notify_deficiency,
    record_inspection_case,
)
from docgen.register.reading.due import calendar
from docgen.register.reading.feed import ics, new_token, revoke, user_of
from docgen.register.sites.logbook import add_entries, logbook, open_log
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import inspection
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

HEADER = "date,time,inspector,qualification,role,rainfall,findings,corrective_actions\n"


def served_notice_of_deficiency(reg, tmp_path: Path) -> str:
    inspected = record_inspection_case(reg, inspection(tmp_path, photos=0), formats=("html",))
    number = notify_deficiency(reg, inspected.number, date(2026, 11, 30), formats=("html",)).number
    reg.record_service(
        number, service_of("personal-delivery", date(2026, 12, 1)), formats=("html",)
    )
    return number


def test_the_calendar_lists_what_is_due_overdue_first_with_provisions(reg, tmp_path):
    nod = served_notice_of_deficiency(reg, tmp_path)
    today = municipal_today(load_pack("homer"))
    nov = reg.issue("notice-of-violation", notice(str(today)), formats=("html",)).number
    reg.record_service(nov, service_of("personal-delivery", today), formats=("html",))
    ask_reinspection(reg, nod, date(2026, 12, 2), "Sam Keller, Tioughnioga Ridge Development")
    today = municipal_today(load_pack("homer"))
    items = calendar(reg)
    by = {(i.category, i.number, i.what.split(": ")[-1]): i for i in items}
    fence = next(i for i in items if "deficiency 1" in i.what)
    washout = next(i for i in items if "deficiency 2" in i.what)
    assert (fence.day, washout.day) == (date(2026, 12, 4), date(2026, 12, 7))
    # the date is the Village's to set (the article names corrective actions, no date):
    # cited as its practice, never to § 228-79A(1), whose words it is not (LAW.md § 7)
    assert fence.provision == "Village of Homer practice"
    assert fence.category == "corrective action"
    assert fence.overdue == (fence.day < today)
    appeal = next(i for i in items if i.category == "appeal deadline")
    assert appeal.day == appeal_deadline(today, load_pack("homer")).last_day
    assert appeal.provision == "§ 228-79C(1)(f)" and appeal.number == nov
    asked = next(i for i in items if i.category == "reinspection asked for")
    assert asked.day == date(2026, 12, 2) and "Sam Keller" in asked.what
    halt = next(i for i in items if i.category == "halt in effect")
    assert halt.ongoing and halt.day == date(2026, 12, 1) and halt.provision == "§ 228-79A(1)"
    remedy = next(i for i in items if i.category == "remedy")
    assert remedy.number == nov and remedy.provision == "§ 228-79C(1)(d)"
    # Overdue first, then by day; what is in effect last.
    overdue = [i.overdue for i in items]
    assert overdue == sorted(overdue, reverse=True)
    dated = [i.day for i in items if not i.overdue and not i.ongoing]
    assert dated == sorted(dated) and items[-1].ongoing
    assert len(by) == len(items)
    # --through leaves later dated items out, never what is in effect; --site narrows.
    assert all(
        i.day <= date(2026, 12, 5) or i.ongoing for i in calendar(reg, through=date(2026, 12, 5))
    )
    assert not any("deficiency 2" in i.what for i in calendar(reg, through=date(2026, 12, 5)))
    assert {i.site for i in calendar(reg, site="120 CAYUGA")} == {
        "120 Cayuga Street, Homer, NY 13077"
    }
    run = docgen("due", "--json", "--through", "2026-12-31")
    assert run.returncode == 0, run.stderr
    listed = json.loads(run.stdout)
    assert {i["category"] for i in listed} >= {
        "corrective action",
        "appeal deadline",
        "halt in effect",
    }
    text = docgen("due", "--site", "120 Cayuga").stdout
    assert "corrective action: NOD-2026-0001, deficiency 1" in text
    # The reinspection asked for leaves the calendar once one is recorded.
    again = inspection(
        tmp_path,
        photos=0,
        issued=str(today),
        inspected=str(today),
        reinspects={"notice": nod},
        findings=[
            {"practice": "Silt fence", "found": "Fixed", "result": "satisfactory", "corrects": 1}
        ],
    )
    record_inspection_case(reg, again, formats=("html",))
    assert not any(i.category == "reinspection asked for" for i in calendar(reg))


def test_the_feed_is_an_icalendar_at_a_revocable_secret(reg, register_url, tmp_path):
    nod = served_notice_of_deficiency(reg, tmp_path)
    with pytest.raises(RegisterError, match="'otto' is not a user of the desk"):
        new_token(reg, "otto")  # a feed is made only for someone who may sign in
    add_users(register_url)
    token = new_token(reg, "otto")
    assert user_of(reg, token) == "otto"
    parsed = Calendar.from_ical(
        ics(calendar(reg), "due for otto", "America/New_York", date(2026, 12, 2))
    )
    events = {str(e["summary"]): e for e in parsed.walk("VEVENT")}
    fence = next(e for s, e in events.items() if "deficiency 1" in s)
    assert fence.decoded("dtstart") == date(2026, 12, 4)  # an all-day event, the Village's day
    assert "(Village of Homer practice)" in str(fence["description"])
    assert nod in str(fence["summary"])
    assert str(parsed["x-wr-timezone"]) == "America/New_York"
    second = new_token(reg, "otto")  # a new address revokes the earlier one
    with pytest.raises(RegisterError):
        user_of(reg, token)
    assert revoke(reg, "otto") == 1
    with pytest.raises(RegisterError, match="no calendar at this address"):
        user_of(reg, second)


def test_each_user_has_their_own_calendar_and_the_clerk_everything(reg, tmp_path):
    """A calendar per user, derived from who recorded what (docgen.register.reading.due): the
    officer who recorded an inspection has its notice's corrective actions, halt and
    reinspections asked for, as has whoever issued the notice; a notice of violation's
    appeal deadline and remedies are its issuer's; a log book's next inspection is for
    whoever opened it; without a user, everything."""
    inspected = record_inspection_case(
        reg, inspection(tmp_path, photos=0), formats=("html",), by="otto"
    )
    nod = notify_deficiency(
        reg, inspected.number, date(2026, 11, 30), formats=("html",), by="ann"
    ).number
    reg.record_service(
        nod, service_of("personal-delivery", date(2026, 12, 1)), formats=("html",), by="ann"
    )
    ask_reinspection(reg, nod, date(2026, 12, 2), "Sam Keller", by="ann")
    today = municipal_today(load_pack("homer"))
    nov = reg.issue("notice-of-violation", notice(str(today)), formats=("html",), by="vera")
    reg.record_service(
        nov.number, service_of("personal-delivery", today), formats=("html",), by="ann"
    )
    open_log(reg, "Lot 4, Clinton Street", "homer", today - timedelta(days=3), by="otto")

    def mine(user: str) -> set[tuple[str, str | None]]:
        return {(i.category, i.number) for i in calendar(reg, user=user)}

    deficiency = {
        ("corrective action", nod),
        ("halt in effect", nod),
        ("reinspection asked for", nod),
    }
    assert mine("otto") == deficiency | {("log-book inspection", None)}
    assert mine("ann") == deficiency  # she issued the notice (serving the NOV is not issuing)
    assert mine("vera") == {("appeal deadline", nov.number), ("remedy", nov.number)}
    assert mine("nobody") == set()
    everything = calendar(reg)
    assert {(i.category, i.number) for i in everything} == mine("otto") | mine("vera")
    fence = next(i for i in everything if "deficiency 1" in i.what)
    assert fence.users == ("ann", "otto")
    run = docgen("due", "--json", "--user", "vera")
    assert run.returncode == 0, run.stderr
    assert {(i["category"], i["number"], tuple(i["users"])) for i in json.loads(run.stdout)} == {
        ("appeal deadline", nov.number, ("vera",)),
        ("remedy", nov.number, ("vera",)),
    }
    # The feed of a user is theirs alone (read back with the icalendar library).
    parsed = Calendar.from_ical(ics(calendar(reg, user="vera"), "due for vera", "UTC", today))
    assert sorted(str(e["categories"].cats[0]) for e in parsed.walk("VEVENT")) == [
        "appeal deadline",
        "remedy",
    ]


def csv_file(tmp_path: Path, rows: str, name: str = "log.csv") -> Path:
    path = tmp_path / name
    path.write_text(HEADER + rows, encoding="utf-8")
    return path


def test_a_homer_log_book_flags_gaps_over_seven_days_and_twice_with_an_acre(reg, tmp_path):
    open_log(reg, "120 Cayuga Street, Homer, NY 13077", "homer", date(2026, 10, 1))
    rows = (
        "2026-10-08,08:00,Ann Pike,CPESC,qualified-inspector,,ok,\n"  # exactly 7 days: fine
        "2026-10-16,08:00,Ann Pike,CPESC,qualified-inspector,0.2,fence sagging,retension\n"
        "2026-10-16,17:00,Bo Lind,trained contractor,trained-contractor,,ok,\n"
    )
    assert add_entries(reg, "120 cayuga", csv_file(tmp_path, rows)).recorded == 3
    log = logbook(reg, "120 Cayuga", through=date(2026, 10, 20))
    assert [(g.start, g.due) for g in log.gaps] == [(date(2026, 10, 8), date(2026, 10, 15))]
    assert log.gaps[0].provision == "§ 228-78D(2)(b)" and "next on 2026-10-16" in log.gaps[0].why
    assert log.next_due == date(2026, 10, 23)
    open_log(reg, "Lot 4, Clinton Street", "homer", date(2026, 10, 1), acre_authorized=True)
    rows = "".join(
        f"{d},09:00,Ann Pike,CPESC,qualified-inspector,,ok,\n"
        for d in ("2026-10-03", "2026-10-07", "2026-10-10", "2026-10-18")
    )
    add_entries(reg, "Lot 4", csv_file(tmp_path, rows, "acre.csv"))
    log = logbook(reg, "Lot 4", through=date(2026, 10, 18))
    assert log.rule.per_interval == 2 and log.rule.provision == "§ 228-78D(2)(d)"
    # Oct 7 -> Oct 18 is more than seven days with only Oct 10 between.
    assert [g.due for g in log.gaps] == [date(2026, 10, 14), date(2026, 10, 17)]
    open_log(reg, "9 Clinton Street", "homer", date(2026, 10, 1), exemption="[3]")
    log = logbook(reg, "9 Clinton", through=date(2026, 12, 1))
    assert log.gaps == () and log.next_due is None and log.rule.provision == "§ 228-78D(2)(c)"
    run = docgen("logbook", "120 Cayuga", "--through", "2026-10-20")
    assert run.returncode == 0, run.stderr
    assert "GAP due 2026-10-15: no inspection within 7 days of 2026-10-08" in run.stdout
    assert "(§ 228-78D(2)(b))" in run.stdout
    due = [i for i in calendar(reg) if i.category == "log-book inspection"]
    assert {i.site for i in due} == {"120 Cayuga Street, Homer, NY 13077", "Lot 4, Clinton Street"}


def test_macedon_flags_no_inspection_within_24_hours_of_a_half_inch_storm(reg, tmp_path):
    run = docgen(
        "logbook",
        "Wayneport Road site",
        "--open",
        "--jurisdiction",
        "macedon",
        "--started",
        "2026-10-01",
    )
    assert run.returncode == 0, run.stderr
    rows = (
        "2026-10-05,08:00,Cy Ruiz,P.E.,qualified-inspector,,ok,\n"
        "2026-10-06,18:00,site gauge,rain gauge,rain-gauge,0.5,storm,\n"
        "2026-10-07,17:59,Cy Ruiz,P.E.,qualified-inspector,,ok after storm,\n"  # within 24 h
        "2026-10-09,06:00,site gauge,rain gauge,rain-gauge,0.7,storm,\n"
        "2026-10-10,07:00,Cy Ruiz,P.E.,qualified-inspector,,ok,\n"  # 25 hours: late
        "2026-10-11,06:00,site gauge,rain gauge,rain-gauge,0.49,rain,\n"  # under 0.5
    )
    add_entries(reg, "Wayneport", csv_file(tmp_path, rows))
    log = logbook(reg, "Wayneport", through=date(2026, 10, 12))
    assert [g.why for g in log.gaps] == [
        "no inspection within 24 hours after 0.7 inch of rain recorded 2026-10-09 06:00"
    ]
    assert log.gaps[0].provision == "§ 301-73A(2)"
    with pytest.raises(CaseInvalid, match=r"exemption: '\[3\]' is not an exemption"):
        open_log(reg, "Elsewhere", "macedon", date(2026, 10, 1), exemption="[3]")


def test_a_bad_log_book_csv_is_refused_whole_naming_row_and_column(reg, tmp_path):
    open_log(reg, "120 Cayuga Street, Homer, NY 13077", "homer", date(2026, 10, 1))
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "date,time,inspector,qualification,role,rainfall,findings,weather\n"
        "2026-10-08,08:00,Ann Pike,CPESC,qualified-inspector,,ok,sunny\n",
        encoding="utf-8",
    )
    run = docgen("logbook", "120 Cayuga", "--add", bad)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "header: unknown column 'weather'" in run.stderr and "(§ 228-78D(2))" in run.stderr
    rows = (
        "2026-10-08,08:00,Ann Pike,CPESC,qualified-inspector,,ok,\n"
        "2026-02-30,08:00,Ann Pike,CPESC,qualified-inspector,,ok,\n"
        "2026-10-09,8am,Ann Pike,CPESC,inspector,lots,ok,\n"
    )
    run = docgen("logbook", "120 Cayuga", "--add", csv_file(tmp_path, rows))
    assert run.returncode == 1
    for said in (
        "row 3, date: '2026-02-30' is not a date",
        "row 4, time: '8am' is not a time",
        "row 4, role: 'inspector'",
        "row 4, rainfall: 'lots' is not inches of rain",
    ):
        assert said in run.stderr
    assert logbook(reg, "120 Cayuga").entries == ()  # nothing recorded from a bad file
    later = str(municipal_today(load_pack("homer")) + timedelta(days=1))
    run = docgen(
        "logbook",
        "120 Cayuga",
        "--add",
        csv_file(tmp_path, f"{later},08:00,A,B,qualified-inspector,,ok,\n", "x.csv"),
    )
    assert run.returncode == 1 and "after today" in run.stderr


def test_the_officer_requires_the_reports_in_a_letter_made_from_the_gaps(reg, tmp_path):
    record_inspection_case(reg, inspection(tmp_path, photos=0), formats=("html",))
    open_log(reg, "120 Cayuga Street, Homer, NY 13077", "homer", date(2026, 10, 1))
    rows = "2026-10-12,08:00,Ann Pike,CPESC,qualified-inspector,,ok,\n"
    add_entries(reg, "120 Cayuga", csv_file(tmp_path, rows))
    run = docgen(
        "require-reports",
        "120 Cayuga",
        "--date",
        "2026-11-30",
        "--submit-by",
        "2026-12-10",
        "-o",
        tmp_path / "r/",
    )
    assert run.returncode == 0, run.stderr
    number = re.search(r"issued (\S+) \(", run.stdout)[1]
    assert number == "LBR-2026-0001"
    files = reg.files(number)
    for text in (pdf_text(files["pdf"]), docx_text(files["docx"])):
        words = " ".join(text.split())
        assert "Requirement to Submit Inspection Reports" in words
        assert "To: Tioughnioga Ridge Development LLC (developer)" in words
        assert "may require monitoring and reporting" in words and "(§ 228-79A(4))" in words
        assert "no inspection within 7 days of 2026-10-01 (next on 2026-10-12)" in words
        assert "no inspection within 7 days of 2026-10-12 (none through 2026-11-30)" in words
        assert "by December 10, 2026" in words
    run = docgen(
        "require-reports", "120 Cayuga", "--date", "2026-11-30", "--submit-by", "2026-11-30"
    )
    assert run.returncode == 1 and "Submit by: November 30, 2026 is not after" in run.stderr
