"""Issue 47's lows (item 5), each read back as a person sees it: record-disposition on a
superseded notice names the correction in effect, not another superseded one; history
says where a kept deadline runs from beside a later served date; the due list of an
order whose only mailing came back says its service is not complete, never "nothing
due". On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.register import RegisterError
from docgen.register.reading.due import calendar
from tests.helpers.cli import docgen
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of
from tests.register.test_register_lift import order

HTML = ("html",)


def test_a_disposition_on_a_superseded_notice_points_at_the_one_in_effect(reg):
    first = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    case = notice("2026-11-03")
    second = reg.supersede(first.number, case, formats=HTML)
    case["remedies"][0]["measure"] += ", corrected again"
    third = reg.supersede(second.number, case, formats=HTML)
    with pytest.raises(RegisterError) as refused:
        reg.record_disposition(first.number, "dismissed", date(2026, 11, 20))
    said = str(refused.value)
    assert f"record the disposition on {third.number}" in said
    assert f"record the disposition on {second.number}" not in said
    with pytest.raises(RegisterError, match=f"record the service on {third.number}"):
        reg.record_service(first.number, service_of("certified-mail", date(2026, 11, 4)))


def test_an_order_whose_only_mailing_came_back_is_not_nothing_due(reg, register_url):
    issued = reg.issue("stop-work-order", order(), formats=HTML)
    mailed = issued.issued
    reg.record_service(issued.number, service_of("certified-mail", mailed), formats=HTML)
    reg.record_return(issued.number, date(2026, 12, 1), "unclaimed")
    items = [i for i in calendar(reg) if issued.number in i.what]
    assert items, "the order's returned mailing leaves it unserved: it is due for service"
    said = " ".join(f"{i.category}: {i.what} {i.warning or ''} {i.note or ''}" for i in items)
    assert "returned" in said.lower() or "not complete" in said.lower(), said
    ran = docgen("due")
    assert ran.returncode == 0, ran.stderr
    assert "nothing due" not in ran.stdout and issued.number in ran.stdout


def test_history_says_where_a_kept_deadline_runs_from(reg):
    # Mailed 2026-10-05, receipt 10-06: complete 10-10, last day 10-26 (stated). Delivered
    # by hand 10-07: the register keeps 10-26 (never shortened), and history says so
    # beside the served date, instead of a last day that seems to disagree with it.
    issued = reg.issue("notice-of-violation", notice("2026-10-05"), formats=HTML)
    mail = service_of("certified-mail", date(2026, 10, 5), received=date(2026, 10, 6))
    reg.record_service(issued.number, mail, formats=HTML)
    reg.record_service(issued.number, service_of("personal-delivery", date(2026, 10, 7)))
    ran = docgen("history", str(issued.respondent.id))
    assert ran.returncode == 0, ran.stderr
    (line,) = [x for x in ran.stdout.splitlines() if f" {issued.number}  " in x]
    assert "served 2026-10-07; appeal by 2026-10-26" in line, line
    assert (
        "from the certified mail of 2026-10-05, complete 2026-10-10: a deadline once "
        "stated is never shortened" in line
    ), line


def test_a_refusal_about_serving_an_order_speaks_of_no_appeal(reg):
    # A stop-work order has no appeal in the article (§ 228-79C(2)): a refusal of its
    # service cites the order's section, never the notice's appeal (§ 228-79C(1)(f)).
    from datetime import timedelta

    from docgen.law.pack import municipal_today
    from docgen.law.packs import load_pack

    issued = reg.issue("stop-work-order", order(), formats=HTML)
    tomorrow = municipal_today(load_pack("homer")) + timedelta(days=1)
    with pytest.raises(RegisterError) as refused:
        reg.record_service(issued.number, service_of("personal-delivery", tomorrow))
    said = str(refused.value)
    assert "§ 228-79C(2)" in said and "(1)(f)" not in said and "appeal" not in said, said
