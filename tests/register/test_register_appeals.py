"""docgen appeal: a written notice of appeal recorded as received, on time or late counted
from the service the register holds (§ 228-79C(1)(f); GCL §§ 24, 25-a), acknowledged in
writing; its hearing before the board the municipality chose; its written decision. A
pending appeal is on the calendar; a reversed notice counts for no penalty (LAW.md §§ 4,
14). On SQLite and PostgreSQL, the documents read back from PDF and DOCX."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from icalendar import Calendar

from docgen.documents import get_kind
from docgen.register import RegisterError
from docgen.register.reading.due import calendar
from docgen.register.reading.feed import ics
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

CLERK = "Marion T. Ashby"


def flat(text: str) -> str:
    return " ".join(text.split())


def served_notice(reg, issued: str = "2026-11-10", served: date = date(2026, 11, 11)):
    issued_notice = reg.issue("notice-of-violation", notice(issued=issued), formats=("html",))
    reg.record_service(
        issued_notice.number, service_of("personal-delivery", served), formats=("html",)
    )
    return issued_notice.number


def test_an_unserved_notice_is_refused_and_a_late_appeal_is_acknowledged_late(reg):
    unserved = reg.issue("notice-of-violation", notice(issued="2026-11-10"), formats=("html",))
    with pytest.raises(RegisterError, match=r"no service on the landowner .* stands"):
        reg.record_appeal(unserved.number, date(2026, 11, 20), received_by=CLERK)
    number = served_notice(reg)
    # Served November 11: day 15 is Thanksgiving, the last day Friday, November 27.
    ack = reg.record_appeal(number, date(2026, 11, 30), received_by=CLERK, formats=("pdf", "docx"))
    assert ack.kind == "appeal-acknowledgment" and ack.number == "APA-2026-0001"
    for text in (flat(pdf_text(ack.files["pdf"])), flat(docx_text(ack.files["docx"]))):
        assert "Acknowledgment of Notice of Appeal" in text
        assert "complete on November 11, 2026" in text
        assert "Day 15 was November 26, 2026. November 26, 2026 is Thanksgiving Day:" in text
        assert "The last day to file was November 27, 2026." in text
        assert "The notice of appeal was filed late" in text
        assert "filed on time" not in text
        assert "Village of Homer Zoning Board of Appeals" in text
    with pytest.raises(RegisterError, match=f"already recorded: Acknowledgment No. {ack.number}"):
        reg.record_appeal(number, date(2026, 11, 30), received_by=CLERK)
    items = [i for i in calendar(reg) if i.number == number]
    assert [i.category for i in items if i.category.startswith("appeal")] == ["appeal pending"]
    assert "late" in next(i.what for i in items if i.category == "appeal pending")


def test_an_appeal_on_the_last_day_is_on_time_and_dates_are_checked(reg):
    number = served_notice(reg)
    with pytest.raises(RegisterError, match=r"--received 2026-11-09: before .* was issued"):
        reg.record_appeal(number, date(2026, 11, 9), received_by=CLERK)
    ahead = date.today() + timedelta(days=3)
    with pytest.raises(RegisterError, match=r"--received .*: after today"):
        reg.record_appeal(number, ahead, received_by=CLERK)
    with pytest.raises(RegisterError, match="--filed-by 'Someone Else' is not a person"):
        reg.record_appeal(number, date(2026, 11, 27), received_by=CLERK, filed_by="Someone Else")
    ack = reg.record_appeal(number, date(2026, 11, 27), received_by=CLERK, formats=("pdf",))
    text = flat(pdf_text(ack.files["pdf"]))
    assert "The notice of appeal was filed on time" in text


def test_a_reversed_notice_counts_for_no_penalty_and_leaves_the_calendar(reg):
    number = served_notice(reg)
    reg.record_appeal(number, date(2026, 11, 20), received_by=CLERK, formats=("html",))
    with pytest.raises(RegisterError, match="no hearing of the appeal"):
        reg.decide_appeal(
            number, "reversed", ["x"], on=date(2026, 12, 1), signed_by="P", title="Chair"
        )
    hearing = reg.schedule_hearing(
        number, date(2026, 12, 1), "7:00 p.m.", on=date(2026, 11, 23), formats=("pdf", "docx")
    )
    for text in (flat(pdf_text(hearing.files["pdf"])), flat(docx_text(hearing.files["docx"]))):
        assert "Notice of Hearing of Appeal" in text
        assert "Date December 1, 2026" in text and "Time 7:00 p.m." in text
        assert "Before the Village of Homer Zoning Board of Appeals" in text
        assert "has chosen the Village of Homer Zoning Board of Appeals" in text
    assert "appeal hearing" in {i.category for i in calendar(reg) if i.number == number}
    feed = Calendar.from_ical(ics(calendar(reg), "Clerk", "America/New_York", date.today()))
    events = {str(e["summary"]): e.decoded("dtstart") for e in feed.walk("VEVENT")}
    said = f"appeal pending: {number}: appeal pending, received 2026-11-20 (on time; "
    assert any(s.startswith(said) for s in events)
    # the hearing's day has passed with no decision: overdue, the decision awaited
    hearing_on = [
        d for s, d in events.items() if s.startswith(f"OVERDUE: appeal hearing: {number}")
    ]
    assert hearing_on == [date(2026, 12, 1)]
    with pytest.raises(RegisterError, match=r"--date 2026-11-30: before the hearing"):
        reg.decide_appeal(
            number, "reversed", ["x"], on=date(2026, 11, 30), signed_by="P", title="Chair"
        )
    reg.record_disposition(number, "convicted", date(2026, 11, 20), court="Village Court")
    decision = reg.decide_appeal(
        number,
        "reversed",
        ["The certification statement was in the SWPPP at the site."],
        on=date(2026, 12, 2),
        signed_by="Peter J. Lindqvist",
        title="Chair, Zoning Board of Appeals",
        formats=("pdf", "docx"),
    )
    for text in (flat(pdf_text(decision.files["pdf"])), flat(docx_text(decision.files["docx"]))):
        assert f"Notice of Violation No. {number} is reversed." in text
        assert "The certification statement was in the SWPPP at the site." in text
    later = reg.issue("notice-of-violation", notice(issued="2026-12-01"), formats=("html",))
    assert later.priors == ()  # convicted before the reversal, yet no prior: LAW.md § 4
    with pytest.raises(RegisterError, match="reversed on appeal"):
        reg.record_disposition(number, "convicted", date(2026, 11, 21))
    items = {i.category for i in calendar(reg) if i.number == number}
    assert not items & {"appeal pending", "appeal hearing", "remedy", "appeal deadline"}
    with pytest.raises(RegisterError, match="was decided"):
        reg.schedule_hearing(number, date(2026, 12, 9), "7:00 p.m.")


def test_a_modified_decision_says_how_and_the_commands_refuse_in_one_line(reg, tmp_path):
    number = served_notice(reg)
    env = {"DOCGEN_DATABASE_URL": reg.url}
    run = docgen(
        "appeal", "record", number, "--received", "2026-11-20", "--received-by", CLERK,
        "-f", "pdf", "-o", f"{tmp_path}/", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert (
        f"{number}: appeal received 2026-11-20, filed on time (last day 2026-11-27)" in run.stdout
    )
    run = docgen(
        "appeal", "hearing", number, "--hearing", "2026-12-01", "--time", "7:00 p.m.",
        "--date", "2026-11-23", "-f", "html", "-o", f"{tmp_path}/", cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = docgen(
        "appeal", "decide", number, "--outcome", "modified", "--reason", "Only part was shown.",
        "--date", "2026-12-02", "--signed-by", "P. Lindqvist", "--title", "Chair",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "--modification missing: say how it is modified" in run.stderr
    run = docgen(
        "appeal", "decide", number, "--outcome", "modified", "--reason", "Only part was shown.",
        "--modification", "The remedy date is December 18, 2026.", "--date", "2026-12-02",
        "--signed-by", "P. Lindqvist", "--title", "Chair", "-f", "docx", "-o", f"{tmp_path}/",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    (path,) = tmp_path.glob("APD-*.docx")
    text = flat(docx_text(path.read_bytes()))
    assert "is modified." in text and "The remedy date is December 18, 2026." in text
    # The letterhead names the board that decided, not the signer's title as an office.
    assert "Office of the Village of Homer Zoning Board of Appeals" in text
    assert "Office of the Chair" not in text


def test_macedon_has_no_appeal(reg):
    from docgen.errors import UnsupportedKind
    from docgen.law.packs import load_pack

    with pytest.raises(UnsupportedKind, match="cannot issue an acknowledgment of a notice of "):
        load_pack("macedon").require(get_kind("appeal-acknowledgment"))


def two_remedies(reg) -> str:
    """A notice issued November 10, 2026 and served the next day: remedial measure 1 due
    November 17, measure 2 (the stockpile) due November 24."""
    case = notice(issued="2026-11-10")
    case["remedies"].append(
        {"measure": "Seed and mulch the topsoil stockpile", "due": "2026-11-24"}
    )
    issued = reg.issue("notice-of-violation", case, formats=("html",)).number
    reg.record_service(issued, service_of("personal-delivery", date(2026, 11, 11)), formats=HTML)
    reg.record_appeal(issued, date(2026, 11, 20), received_by=CLERK, formats=HTML)
    reg.schedule_hearing(
        issued, date(2026, 12, 1), "7:00 p.m.", on=date(2026, 11, 23), formats=HTML
    )
    return issued


HTML = ("html",)
DECIDED = {"signed_by": "Peter J. Lindqvist", "title": "Chair, Zoning Board of Appeals"}


def remedy_days(reg, number: str) -> list[date]:
    return [i.day for i in calendar(reg) if i.number == number and i.category == "remedy"]


def test_a_modified_decision_sets_a_remedy_date_and_the_register_reads_it(reg):
    """The decision that modifies a notice by setting its remedial measures' dates states
    them as data, prints each with its date before and after, and the register reads them
    wherever it reads the dates as extended: the calendar and its feed, the clerk's list
    of remedies overdue, a later extension and a correction (the latest act by its date
    wins). Before, the date was free text only: the calendar kept the old date."""
    number = two_remedies(reg)
    letter = reg.extend(
        number, 1, date(2026, 11, 30), granted_by="Dana R. Whitcomb", reason="Rain",
        on=date(2026, 11, 16), formats=HTML,
    ).number  # fmt: skip
    assert remedy_days(reg, number) == [date(2026, 11, 24)]
    modified = {"modification": "The remedies are due later.", **DECIDED}
    with pytest.raises(RegisterError) as refused:
        reg.decide_appeal(
            number, "modified", ["Only part was shown."], on=date(2026, 12, 2),
            remedies={2: date(2026, 12, 1), 3: date(2026, 12, 18)}, **modified,
        )  # fmt: skip
    said = str(refused.value)
    assert "--remedy 2=2026-12-01: before the decision (December 2, 2026)" in said
    assert "sets its date (§ 228-79C(1)(f))" in said
    assert f"--remedy 3=2026-12-18: Notice of Violation No. {number} has no remedial" in said
    with pytest.raises(RegisterError, match=r"--remedy 1=2026-12-18: given, but .* affirmed"):
        reg.decide_appeal(
            number, "affirmed", ["Seen."], on=date(2026, 12, 2),
            remedies={1: date(2026, 12, 18)}, **DECIDED,
        )  # fmt: skip
    decision = reg.decide_appeal(
        number, "modified", ["Only part was shown."], on=date(2026, 12, 2),
        remedies={1: date(2026, 12, 10), 2: date(2026, 12, 18)}, formats=("pdf", "docx"),
        **modified,
    )  # fmt: skip
    for text in (flat(pdf_text(decision.files["pdf"])), flat(docx_text(decision.files["docx"]))):
        assert "Remedial measure 1 (Stabilize all disturbed soil, work area" in text
        assert "was due November 30, 2026; now due December 10, 2026." in text
        assert "Remedial measure 2 (Seed and mulch the topsoil stockpile): was due " in text
        assert "November 24, 2026; now due December 18, 2026." in text
    # The calendar, its feed and the overdue list read the decided dates, never the old.
    assert remedy_days(reg, number) == [date(2026, 12, 10)]
    feed = Calendar.from_ical(ics(calendar(reg), "Clerk", "America/New_York", date.today()))
    remedies = [
        e.decoded("dtstart")
        for e in feed.walk("VEVENT")
        if number in str(e["summary"]) and "remedial measures" in str(e["summary"])
    ]
    assert remedies == [date(2026, 12, 10)]
    overdue = lambda today: [d.number for d in reg.documents("remedies-overdue", today=today)]  # noqa: E731
    assert number not in overdue(date(2026, 12, 5))  # due November 30 as extended, before
    assert number in overdue(date(2026, 12, 11))
    # A later date granted after the decision still extends it; never to an earlier one.
    with pytest.raises(RegisterError, match=r"not later than the date now in force"):
        reg.extend(number, 1, date(2026, 12, 9), granted_by="Dana R. Whitcomb", reason="x")
    reg.extend(
        number, 1, date(2026, 12, 21), granted_by="Dana R. Whitcomb", reason="Frozen ground",
        on=date(2026, 12, 3), formats=HTML,
    )  # fmt: skip
    assert remedy_days(reg, number) == [date(2026, 12, 18)]  # measure 2, as decided
    # A correction never goes back before the decided date.
    stored = reg.document(number).case
    case = {k: v for k, v in stored.items() if k not in ("number", "prior_offenses")}
    case["remedies"][0]["due"] = "2026-12-21"
    with pytest.raises(RegisterError) as refused:
        reg.supersede(number, case, formats=HTML)
    said = str(refused.value)
    assert "remedial measure 2: 2026-11-24 is before December 18, 2026, the date decided" in said
    assert f"on appeal in {decision.number}; a date is extended, never shortened" in said
    assert letter not in said


def test_the_decided_dates_are_given_on_the_command_line(reg, tmp_path):
    number = two_remedies(reg)
    env = {"DOCGEN_DATABASE_URL": reg.url}
    common = (
        "appeal", "decide", number, "--outcome", "modified", "--reason", "Only part was shown.",
        "--modification", "The stockpile is due later.", "--date", "2026-12-02",
        "--signed-by", "P. Lindqvist", "--title", "Chair",
    )  # fmt: skip
    run = docgen(*common, "--remedy", "2=2026-11-30", cwd=tmp_path, env=env)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "--remedy 2=2026-11-30: before the decision (December 2, 2026)" in run.stderr
    run = docgen(*common, "--remedy", "2=soon", cwd=tmp_path, env=env)
    assert run.returncode != 0 and "give the measure's number and its new date" in run.stderr
    run = docgen(
        *common, "--remedy", "2=2026-12-18", "-f", "pdf", "-o", f"{tmp_path}/",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert f"{number}, remedial measure 2: due 2026-12-18 (was 2026-11-24)" in run.stdout
    (path,) = tmp_path.glob("APD-*.pdf")
    text = flat(pdf_text(path.read_bytes()))
    assert "Remedial measure 2 (Seed and mulch the topsoil stockpile): was due " in text
    assert "November 24, 2026; now due December 18, 2026." in text
    assert remedy_days(reg, number) == [date(2026, 11, 17)]  # measure 1, as the notice said
