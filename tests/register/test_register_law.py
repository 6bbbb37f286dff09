"""The law through the register: the five-year look-back of § 228-79C(4) reads the
convictions recorded, and the appeal deadline of § 228-79C(1)(f) runs from service."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.register import Issue
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

HTML = ("html",)


def words(issued) -> str:
    return " ".join(html_text(issued.files["html"].decode()).split())


def test_a_conviction_on_a_first_notice_makes_the_next_a_second_offense(reg):
    first = reg.issue("notice-of-violation", notice("2026-03-02"), formats=HTML)
    assert "first offense" in words(first)
    reg.record_disposition(
        first.number, "convicted", date(2026, 5, 4), court="Homer Village Court", docket="26-17"
    )
    second = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML)
    text = words(second)
    assert "second offense" in text
    assert [p.reference for p in second.priors] == [
        "NOV-2026-0001, Homer Village Court, docket 26-17"
    ]
    assert second.priors[0].reason.startswith("counted")
    assert "NOV-2026-0001, Homer Village Court, docket 26-17" in text


@pytest.mark.parametrize("disposition", ["dismissed", "acquitted", "withdrawn", "pending"])
def test_an_offense_not_ending_in_conviction_does_not_count(reg, disposition):
    first = reg.issue("notice-of-violation", notice("2026-03-02"), formats=HTML)
    reg.record_disposition(first.number, disposition, date(2026, 5, 4))
    second = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML)
    assert "first offense" in words(second)
    assert all(not p.reason.startswith("counted") for p in second.priors)


def test_a_conviction_for_an_offense_more_than_five_years_before_does_not_count(reg):
    old = reg.issue(
        "notice-of-violation", notice("2021-06-01", committed="2021-05-31"), formats=HTML
    )
    reg.record_disposition(old.number, "convicted", date(2021, 9, 1), court="Homer Village Court")
    # Committed 2021-05-31; the current offense 2026-06-01: one day more than five years.
    late = reg.issue(
        "notice-of-violation", notice("2026-06-08", committed="2026-06-01"), formats=HTML
    )
    assert "first offense" in words(late)
    assert "more than 5 years" in late.priors[0].reason
    # Exactly five years (2021-05-31 to 2026-05-31) still counts (LAW.md § 4, reading 2).
    edge = reg.issue(
        "notice-of-violation", notice("2026-06-08", committed="2026-05-31"), formats=HTML
    )
    assert "second offense" in words(edge)


def test_a_conviction_after_the_issue_date_is_not_known_on_that_date(reg):
    first = reg.issue("notice-of-violation", notice("2026-03-02"), formats=HTML)
    reg.record_disposition(
        first.number, "convicted", date(2026, 12, 1), court="Homer Village Court"
    )
    # Superseding a notice issued before the conviction reads the history as of its date.
    later = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML)
    assert [p.disposition for p in later.priors] == ["pending"]


def test_two_similar_respondents_keep_separate_histories(reg):
    firm = reg.issue("notice-of-violation", notice("2026-03-02"), formats=HTML)
    reg.record_disposition(firm.number, "convicted", date(2026, 5, 4), court="Homer Village Court")
    other = notice("2026-11-16", name="Tioughnioga Ridge Developers Inc", street="12 Elm Street")
    with pytest.raises(Exception, match="similar name"):
        reg.issue("notice-of-violation", other, formats=HTML)
    apart = reg.issue("notice-of-violation", other, Issue(respondent="new"), formats=HTML)
    assert "first offense" in words(apart) and apart.priors == ()


def test_penalty_statements_read_the_register_too(reg):
    first = reg.issue("notice-of-violation", notice("2026-03-02"), formats=HTML)
    reg.record_disposition(first.number, "convicted", date(2026, 5, 4), court="Homer Village Court")
    data = notice("2026-11-16")
    statement = {
        k: data[k] for k in ("jurisdiction", "issued", "officer", "recipient", "violations")
    }
    issued = reg.issue("penalty-statement", statement, formats=HTML)
    assert issued.number == "PS-2026-0001"
    assert "second offense" in words(issued)


@pytest.mark.parametrize(
    ("method", "served", "received", "last_day"),
    [
        # Personal delivery: 15 days from delivery; day 15 is Thanksgiving -> Friday.
        ("personal-delivery", date(2026, 11, 11), None, date(2026, 11, 27)),
        # Mail with a known receipt: from the later of receipt (11-18) and mailing + 5
        # (11-21); day 15 is Sunday 12-06 -> Monday.
        ("certified-mail", date(2026, 11, 16), date(2026, 11, 18), date(2026, 12, 7)),
        # Mail, receipt unknown: mailing + 5 days (CPLR 2103(b)(2)), then 15 days.
        ("first-class-mail", date(2026, 11, 16), None, date(2026, 12, 7)),
    ],
)
def test_record_service_computes_the_appeal_deadline(reg, method, served, received, last_day):
    issued = reg.issue("notice-of-violation", notice("2026-11-10"), formats=HTML)
    result = reg.record_service(issued.number, service_of(method, served, received=received))
    assert result.service.appeal_deadline == last_day
    assert reg.document(issued.number).appeal_deadline == last_day


def test_service_before_issue_is_refused(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML)
    with pytest.raises(Exception, match="before NOV-2026-0001 was issued"):
        reg.record_service(issued.number, service_of("personal-delivery", date(2026, 11, 15)))


def test_filters_list_what_the_clerk_works_from(reg):
    waiting = reg.issue("notice-of-violation", notice("2026-11-02"), formats=HTML)
    served = reg.issue("notice-of-violation", notice("2026-11-02"), formats=HTML)
    delivered = service_of("personal-delivery", date(2026, 11, 2))  # appeal: 11-17
    reg.record_service(served.number, delivered)
    numbers = lambda name, today: [d.number for d in reg.documents(name, today=today)]  # noqa: E731
    assert numbers("awaiting-service", date(2026, 11, 3)) == [waiting.number]
    assert numbers("appeal-running", date(2026, 11, 17)) == [served.number]
    assert numbers("appeal-passed", date(2026, 11, 18)) == [served.number]
    assert numbers("remedies-overdue", date(2026, 11, 10)) == [served.number, waiting.number]
    reg.record_disposition(served.number, "convicted", date(2026, 11, 9), court="Village Court")
    assert numbers("remedies-overdue", date(2026, 11, 10)) == [waiting.number]
