"""The appeal deadline of § 228-79C(1)(f): service + 15 days, rolled forward per GCL § 25-a."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import holidays
import pytest
import yaml

from docgen.errors import CaseInvalid
from docgen.law.deadlines import LIBRARY_NAMES, appeal_deadline, public_holidays
from docgen.law.packs import load_pack

HOMER = load_pack("homer")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "notice-of-violation"

# (served, day 15, last day, reasons it moved)
CASES = [
    pytest.param("2026-10-22", "2026-11-06", "2026-11-06", [], id="weekday: no move"),
    pytest.param(
        "2026-02-27",
        "2026-03-14",
        "2026-03-16",
        ["March 14, 2026 is a Saturday", "March 15, 2026 is a Sunday"],
        id="saturday",
    ),
    pytest.param(
        "2026-10-24", "2026-11-08", "2026-11-09", ["November 8, 2026 is a Sunday"], id="sunday"
    ),
    pytest.param(
        "2026-08-23",
        "2026-09-07",
        "2026-09-08",
        ["September 7, 2026 is Labor Day"],
        id="monday holiday",
    ),
    pytest.param(
        "2026-11-11",
        "2026-11-26",
        "2026-11-27",
        ["November 26, 2026 is Thanksgiving Day"],
        id="thanksgiving (LAW.md example)",
    ),
    pytest.param(
        "2026-10-19",
        "2026-11-03",
        "2026-11-04",
        ["November 3, 2026 is Election Day"],
        id="election day",
    ),
    pytest.param(
        "2022-12-11",
        "2022-12-26",
        "2022-12-27",
        ["December 26, 2022 is a public holiday, because Christmas Day fell on Sunday"],
        id="christmas on a sunday: monday is the holiday",
    ),
    pytest.param(
        "2027-06-20",
        "2027-07-05",
        "2027-07-06",
        ["July 5, 2027 is a public holiday, because Independence Day fell on Sunday"],
        id="independence day on a sunday",
    ),
    pytest.param(
        "2026-01-28",
        "2026-02-12",
        "2026-02-13",
        ["February 12, 2026 is Lincoln's Birthday"],
        id="lincoln's birthday",
    ),
    pytest.param(
        "2027-01-28",
        "2027-02-12",
        "2027-02-16",
        [
            "February 12, 2027 is Lincoln's Birthday",
            "February 13, 2027 is a Saturday",
            "February 14, 2027 is a Sunday",
            "February 15, 2027 is Washington's Birthday",
        ],
        id="chained: friday holiday, weekend, monday holiday",
    ),
    pytest.param(
        "2026-06-20",
        "2026-07-05",
        "2026-07-06",
        ["July 5, 2026 is a Sunday"],
        id="saturday holiday is not moved to friday or monday",
    ),
    pytest.param(
        "2026-12-17",
        "2027-01-01",
        "2027-01-04",
        [
            "January 1, 2027 is New Year's Day",
            "January 2, 2027 is a Saturday",
            "January 3, 2027 is a Sunday",
        ],
        id="across the new year",
    ),
]


@pytest.mark.parametrize(("served", "nominal", "last", "reasons"), CASES)
def test_appeal_deadline(served, nominal, last, reasons):
    d = appeal_deadline(date.fromisoformat(served), HOMER)
    assert d.days == 15
    assert (d.nominal, d.last_day) == (date.fromisoformat(nominal), date.fromisoformat(last))
    assert list(d.reasons) == reasons
    assert d.moved == bool(reasons)
    assert (d.period_ref, d.rule_ref, d.holidays_ref) == (
        "§ 228-79C(1)(f)",
        "GCL § 25-a",
        "GCL § 24",
    )


def test_no_service_date_is_an_error_naming_element_f():
    with pytest.raises(CaseInvalid) as err:
        appeal_deadline(None, HOMER)
    assert "served.date" in str(err.value) and "§ 228-79C(1)(f)" in str(err.value)


def test_the_period_comes_from_the_pack():
    assert HOMER.enforcement.appeal_days.value == 15
    assert HOMER.enforcement.appeal_deadline.ref == "GCL § 25-a"
    assert HOMER.enforcement.appeal_deadline.public_holidays.ref == "GCL § 24"


GCL_24 = {
    "New Year's Day",
    "Martin Luther King Jr. Day",
    "Lincoln's Birthday",
    "Washington's Birthday",
    "Memorial Day",
    "Flag Day",
    "Juneteenth",
    "Independence Day",
    "Labor Day",
    "Columbus Day",
    "Election Day",
    "Veterans Day",
    "Thanksgiving Day",
    "Christmas Day",
}


@pytest.mark.parametrize("year", range(2024, 2036))
def test_holidays_are_exactly_those_of_gcl_24(year):
    found = public_holidays(year, HOMER)
    names = {r.split(" is ", 1)[1] for r in found.values() if "because" not in r}
    assert names == GCL_24
    assert not any("Susan B. Anthony" in r for r in found.values())
    flag = next(day for day, r in found.items() if r.endswith("Flag Day"))
    assert flag.weekday() == 6 and flag.month == 6 and 8 <= flag.day <= 14
    for day, reason in found.items():  # GCL § 24 moves Sunday holidays to Monday, never Saturday's
        if "because" in reason:
            assert day.weekday() == 0 and "Flag Day" not in reason


@pytest.mark.parametrize("year", range(2024, 2036))
def test_the_library_yields_no_name_docgen_does_not_know(year):
    for label in holidays.US(subdiv="NY", years=year, observed=False).values():
        assert all(name in LIBRARY_NAMES for name in label.split("; "))


# GCL § 24 has a history: Juneteenth was added by L.2020, c. 249, in effect October 14,
# 2020 (pack: enforcement.appeal_deadline.holidays_added). June 19 is no holiday before.
HISTORY = [
    pytest.param("2019-06-04", "2019-06-19", [], id="2019: no Juneteenth yet"),
    pytest.param("2020-06-04", "2020-06-19", [], id="2020: added in October, after June 19"),
    pytest.param(
        "2022-06-04",
        "2022-06-21",
        [
            "June 19, 2022 is Juneteenth",
            "June 20, 2022 is a public holiday, because Juneteenth fell on Sunday",
        ],
        id="2022: Juneteenth on a Sunday, Monday a holiday",
    ),
]


@pytest.mark.parametrize(("served", "last", "reasons"), HISTORY)
def test_holidays_follow_the_statutes_history(served, last, reasons):
    deadline = appeal_deadline(date.fromisoformat(served), HOMER)
    assert deadline.last_day == date.fromisoformat(last)
    assert list(deadline.reasons) == reasons


@pytest.mark.parametrize("year", [2019, 2020])
def test_a_year_before_juneteenth_was_added_has_every_other_holiday(year):
    names = {r.split(" is ", 1)[1] for r in public_holidays(year, HOMER).values() if " is " in r}
    assert names >= GCL_24 - {"Juneteenth"} and "Juneteenth" not in names


def test_the_history_is_the_packs_with_its_citation():
    added = HOMER.enforcement.appeal_deadline.holidays_added
    assert added.value == {"Juneteenth": date(2020, 10, 14)}
    assert "L.2020, c. 249" in added.ref


@pytest.mark.parametrize("year", [2019, 2020])
def test_a_notice_served_in_2019_or_2020_renders(year):
    from docgen import api
    from docgen.cases.loader import read_case_file
    from tests.helpers.readback import html_text, pdf_text

    case = read_case_file(FIXTURES / "homer-first-offense.yaml")

    def moved(text: str) -> str:
        return text.replace("2026-", f"{year}-").replace("NOV-2026", f"NOV-{year}")

    case = yaml.safe_load(moved(yaml.safe_dump(case, sort_keys=False)))
    doc = api.build("notice-of-violation", case)
    said = " ".join(html_text(doc.html).split())
    assert f"December 1, {year}" in said or f"December 2, {year}" in said
    pdf = " ".join(pdf_text(api.to_bytes(doc, "pdf")).split())
    assert f"{year}" in pdf
