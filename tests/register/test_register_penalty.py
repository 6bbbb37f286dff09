"""The penalty of § 228-79C(4) as the register supplies it (LAW.md § 4): an offense is never
its own prior (reading 11), counts convicted together are one prior (8), a conviction after
the current offense does not raise it (9), matters without a conviction are never printed
(10), and a disposition dated ahead of today or before its offense is refused (13). Each on
SQLite and on the PostgreSQL server the tests start."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from docgen.law.packs import load_pack
from docgen.register import RegisterError
from tests.helpers import cli
from tests.helpers.enforcement_cases import squash
from tests.helpers.readback import docx_text, html_text, pdf_text
from tests.helpers.register_cases import notice

HTML = ("html",)
COURT = "Homer Village Court"


def words(issued) -> str:
    return " ".join(html_text(issued.files["html"].decode()).split())


def statement_on(data: dict, **extra) -> dict:
    """A penalty statement about the violations of the notice case ``data``."""
    keep = ("jurisdiction", "issued", "officer", "recipient", "site", "violations")
    return {k: data[k] for k in keep} | extra


def test_a_statement_on_a_convicted_notices_own_violations_is_not_its_own_prior(reg):
    """Reading 11: the notice's offense is the current one; its conviction is no prior."""
    case = notice("2026-03-09", committed="2026-03-02")
    charged = reg.issue("notice-of-violation", case, formats=HTML)
    reg.record_disposition(charged.number, "convicted", date(2026, 5, 4), court=COURT)
    statement = reg.issue(
        "penalty-statement", statement_on(case, issued="2026-05-11"), formats=HTML
    )
    assert statement.priors == ()
    text = words(statement)
    assert "If convicted, this would be a first offense" in text
    assert "second offense" not in text and COURT not in text


def test_a_statement_naming_the_notice_it_follows_takes_that_offense_as_current(reg):
    case = notice("2026-03-09", committed="2026-03-02")
    charged = reg.issue("notice-of-violation", case, formats=HTML)
    reg.record_disposition(charged.number, "convicted", date(2026, 5, 4), court=COURT)
    # The statement dates the violation in the offense form, naming the notice.
    offense = {
        "committed": "2026-03-02",
        "nature": "Land disturbed without an approved plan",
        "provision": "§ 228-78B(1)",
    }
    data = statement_on(case, issued="2026-05-11", notice=charged.number, offense=offense)
    del data["violations"]
    statement = reg.issue("penalty-statement", data, formats=HTML)
    assert statement.priors == ()
    text = words(statement)
    assert f"This statement follows Notice of Violation No. {charged.number}" in text
    assert "If convicted, this would be a first offense" in text


def test_a_statement_naming_a_notice_not_in_the_register_is_refused(reg):
    case = notice("2026-03-09", committed="2026-03-02")
    with pytest.raises(RegisterError, match=r"notice: NOV-2026-0042 is not a notice of violation"):
        reg.issue("penalty-statement", statement_on(case, notice="NOV-2026-0042"), formats=HTML)
    assert reg.count() == 0


def test_another_notices_conviction_still_counts_beside_the_current_offense(reg):
    earlier = reg.issue("notice-of-violation", notice("2026-03-09", "2026-03-02"), formats=HTML)
    reg.record_disposition(earlier.number, "convicted", date(2026, 5, 4), court=COURT)
    case = notice("2026-11-16", committed="2026-11-09")
    current = reg.issue("notice-of-violation", case, formats=HTML)
    assert "second offense within five years" in words(current)
    statement = reg.issue(
        "penalty-statement",
        statement_on(case, issued="2026-11-20", notice=current.number),
        formats=HTML,
    )
    assert [p.reference.split(",")[0] for p in statement.priors] == [earlier.number]
    assert "second offense within five years" in words(statement)


def test_counts_convicted_together_are_one_prior(reg):
    """Reading 8: two notices disposed of together on one date count once."""
    for issued, committed in (("2026-03-09", "2026-03-02"), ("2026-03-16", "2026-03-10")):
        first = reg.issue("notice-of-violation", notice(issued, committed), formats=HTML)
        reg.record_disposition(
            first.number, "convicted", date(2026, 5, 4), court=COURT, docket="26-17"
        )
    third = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML)
    text = words(third)
    assert "second offense within five years" in text and "third offense" not in text
    counted = [p for p in third.priors if p.reason.startswith("counted:")]
    assert len(counted) == 1 and "one prior with the other conviction" in counted[0].reason


def test_a_conviction_entered_after_the_current_offense_does_not_count(reg):
    """Reading 9 (revised): convicted after the current offense was committed."""
    first = reg.issue("notice-of-violation", notice("2026-06-09", "2026-06-02"), formats=HTML)
    reg.record_disposition(first.number, "convicted", date(2026, 11, 20), court=COURT)
    later = reg.issue(
        "notice-of-violation", notice("2026-11-25", committed="2026-11-09"), formats=HTML
    )
    assert "If convicted, this would be a first offense" in words(later)
    (prior,) = later.priors
    assert "not before the current offense was committed (November 9, 2026)" in prior.reason
    assert COURT not in words(later)


def test_dismissed_and_acquitted_matters_are_never_printed_with_court_or_docket(reg):
    """Reading 10, read back from the PDF and the DOCX the register stores."""
    for (issued, committed), disposition, docket in (
        (("2026-02-09", "2026-02-02"), "dismissed", "26-0101"),
        (("2026-03-09", "2026-03-02"), "acquitted", "26-0102"),
        (("2026-04-09", "2026-04-02"), "withdrawn", "26-0103"),
        (("2026-05-11", "2026-05-04"), "pending", "26-0104"),
    ):
        done = reg.issue("notice-of-violation", notice(issued, committed), formats=HTML)
        reg.record_disposition(
            done.number, disposition, date.fromisoformat(issued), court=COURT, docket=docket
        )
    current = reg.issue("notice-of-violation", notice("2026-11-16"), formats=("pdf", "docx"))
    assert {p.disposition for p in current.priors} == {"dismissed", "acquitted", "pending"}
    for text in (pdf_text(current.files["pdf"]), docx_text(current.files["docx"])):
        flat = squash(text)
        assert squash("If convicted, this would be a first offense") in flat
        assert squash(COURT) not in flat and "docket" not in flat
        for number in ("NOV-2026-0001", "NOV-2026-0002", "NOV-2026-0003", "NOV-2026-0004"):
            assert number not in flat
        assert squash("is not stated on this document. (CPL 160.50)") in flat


def new_york_today() -> date:
    return datetime.now(ZoneInfo("America/New_York")).date()


def test_a_disposition_dated_ahead_of_today_or_before_its_offense_is_refused(reg):
    """Reading 13, at both edges: today and the offense's own day are accepted."""
    charged = reg.issue("notice-of-violation", notice("2026-03-09", "2026-03-02"), formats=HTML)
    tomorrow = new_york_today() + timedelta(days=1)
    penalties = re.escape(f"({load_pack('homer').part('penalties').ref})")  # the notes: not cited
    with pytest.raises(RegisterError, match=rf"--date .*is after today .*{penalties}"):
        reg.record_disposition(charged.number, "convicted", tomorrow, court=COURT)
    with pytest.raises(RegisterError, match=rf"before the offense was committed .*{penalties}"):
        reg.record_disposition(charged.number, "dismissed", date(2026, 3, 1))
    assert reg.history(charged.respondent.id).offenses[0].disposition == "pending"
    assert reg.record_disposition(charged.number, "dismissed", date(2026, 3, 2)).disposition
    today = reg.record_disposition(charged.number, "convicted", new_york_today(), court=COURT)
    assert today.convicted == new_york_today()


def test_the_cli_refuses_a_future_disposition_in_one_line(register_url, tmp_path):
    import yaml

    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump(notice("2026-03-09", "2026-03-02")), encoding="utf-8")

    def docgen(*args):
        return cli.docgen(*args, cwd=tmp_path)

    assert docgen("issue", "notice-of-violation", case, "-f", "html").returncode == 0
    ahead = (new_york_today() + timedelta(days=30)).isoformat()
    run = docgen(
        "record-disposition", "NOV-2026-0001", "--disposition", "convicted", "--date", ahead
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"--date {ahead}:" in run.stderr and "LAW.md" not in run.stderr


def test_import_history_refuses_a_conviction_ahead_of_today_or_before_its_offense(reg, tmp_path):
    """Reading 13 for convictions from before the register: the whole file or nothing."""
    from docgen.register.people.imports import import_history

    ahead = (new_york_today() + timedelta(days=3)).isoformat()
    today = new_york_today().isoformat()
    header = "name,street,city,state,zip,committed,convicted,court,docket\n"
    who = "Tioughnioga Ridge Development LLC,41 Route 281,Homer,NY,13077"
    bad = tmp_path / "bad.csv"
    bad.write_text(
        header
        + f"{who},2024-02-01,{ahead},{COURT},24-3\n"
        + f"{who},2024-02-01,2024-01-31,{COURT},24-4\n"
        + f"{who},2024-02-01,2024-02-01,{COURT},24-5\n",
        encoding="utf-8",
    )
    with pytest.raises(RegisterError) as err:
        import_history(reg, bad)
    message = str(err.value)
    assert "nothing imported; 2 problem(s) to fix" in message
    assert f"bad.csv:2: convicted {ahead}:" in message and "is after today" in message
    assert "bad.csv:3: convicted 2024-01-31:" in message and "before the offense" in message
    good = tmp_path / "good.csv"
    good.write_text(header + f"{who},2024-02-01,{today},{COURT},24-6\n", encoding="utf-8")
    assert len(import_history(reg, good).lines) == 1


def test_an_imported_prior_is_printed_without_the_clerks_file_and_row(reg, tmp_path):
    """A conviction imported from the clerk's CSV is printed by its court and docket; the
    file's name and row ("imported from history.csv:2") stay in the register only."""
    from docgen.register.people.imports import import_history

    rows = tmp_path / "history.csv"
    rows.write_text(
        "name,street,city,state,zip,committed,convicted,court,docket\n"
        "Tioughnioga Ridge Development LLC,41 Route 281,Homer,NY,13077,"
        f"2024-02-01,2024-04-02,{COURT},24-0417\n",
        encoding="utf-8",
    )
    import_history(reg, rows)
    statement = reg.issue("penalty-statement", statement_on(notice("2026-05-11")), formats=HTML)
    assert len(statement.priors) == 1
    assert "history.csv:2" in statement.priors[0].reference  # the register keeps its source
    text = words(statement)
    assert f"{COURT}, docket 24-0417" in text and "second offense" in text
    assert "history.csv" not in text and "imported from" not in text
