"""Lifting, as LAW.md § 3 reads it: dated on or before today and on or after service of the
order was complete; the order in effect is lifted (a superseded one is refused, naming the
order in effect) and the notice names both; it states the service date the register keeps;
its copies never carry the order's article numbers. An order stating `effective` is not
in effect before mail service is complete."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from docgen.cases.mail import with_check_digit
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import RegisterError
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of
from tests.register.test_register_lift import order

HTML = ("html",)
ORDERS = "9589 0710 5270 0123 4567 81"  # the order's own piece to the landowner
DEVELOPER = "Tioughnioga Ridge Development LLC"
LIFTING = with_check_digit("958907105270012345679")


def flat(text: str) -> str:
    return " ".join(text.split())


def issued_order(reg, **changes):
    return reg.issue("stop-work-order", order() | changes, formats=HTML)


def test_a_lifting_after_today_or_before_service_was_complete_is_refused(reg, tmp_path):
    issued = issued_order(reg)
    # Mailed alone on 11-13: service is complete on 11-18 (mailing + 5, LAW.md § 2).
    reg.record_service(
        issued.number, service_of("certified-mail", date(2026, 11, 13)), formats=HTML
    )
    with pytest.raises(RegisterError) as early:
        reg.lift(issued.number, date(2026, 11, 16))
    assert "--date 2026-11-16: before service of " in str(early.value)
    assert "was complete (2026-11-18)" in str(early.value) and "LAW.md" not in str(early.value)
    today = municipal_today(load_pack("homer"))
    ahead = (today + timedelta(days=1)).isoformat()
    run = docgen("lift", issued.number, "--date", ahead, "-o", f"{tmp_path}/")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"--date {ahead}: after today ({today} in the Village of Homer)" in run.stderr
    assert reg.document(issued.number).lifted_by is None
    assert reg.documents(kind="stop-work-lifted") == []
    # The notice states the day the register keeps (11-18), never the mailing's (11-13).
    lifted = reg.lift(issued.number, date(2026, 11, 18), formats=("pdf", "docx"))
    for text in (pdf_text(lifted.files["pdf"]), docx_text(lifted.files["docx"])):
        assert f"Stop-Work Order No. {issued.number}, served November 18, 2026" in flat(text)
    with pytest.raises(RegisterError, match=f"already lifted by {lifted.number}"):
        reg.lift(issued.number, date(2026, 11, 19))


def test_a_superseded_order_is_lifted_only_through_the_order_in_effect(reg):
    first = issued_order(reg)
    reg.record_service(
        first.number, service_of("personal-delivery", date(2026, 11, 12)), formats=HTML
    )
    fixed = order() | {"allowed_work": ["Repair of the silt fence along the north line"]}
    second = reg.supersede(first.number, fixed, formats=HTML)
    with pytest.raises(RegisterError) as refused:
        reg.lift(first.number, date(2026, 11, 20))
    said = str(refused.value)
    assert f"{first.number} was superseded; the order in effect is {second.number}" in said
    assert f"(lift {second.number})" in said
    reg.record_service(
        second.number, service_of("personal-delivery", date(2026, 11, 14)), formats=HTML
    )
    lifted = reg.lift(second.number, date(2026, 11, 20), formats=("pdf", "docx"))
    for text in (pdf_text(lifted.files["pdf"]), docx_text(lifted.files["docx"])):
        words = flat(text)
        assert (
            f"Stop-Work Order No. {second.number}, the order in effect, which replaced "
            f"Stop-Work Order No. {first.number}, served November 14, 2026, is lifted as of "
            "November 20, 2026"
        ) in words
    assert reg.document(second.number).lifted_by == lifted.number
    assert reg.documents("stop-work-in-effect") == []


def test_the_copies_never_carry_the_orders_article_numbers(reg):
    data = order()
    data["recipient"]["certified_article"] = ORDERS
    issued = reg.issue("stop-work-order", data, formats=HTML)
    reg.record_service(
        issued.number, service_of("certified-mail", date(2026, 11, 12)), formats=HTML
    )
    with pytest.raises(RegisterError) as reused:
        reg.lift(issued.number, date(2026, 11, 20), articles=[ORDERS])
    assert f"--article {ORDERS}: already used for the piece of {issued.number}" in str(reused.value)
    lifted = reg.lift(
        issued.number, date(2026, 11, 20), copies=True, articles=["", LIFTING], formats=("pdf",)
    )
    texts = {fmt: flat(pdf_text(blob)) for fmt, blob in lifted.files.items()}
    assert all(ORDERS not in text for text in texts.values())
    grouped = " ".join(LIFTING[i : i + 4] for i in range(0, 22, 4))
    assert grouped in texts["copy1.pdf"] and grouped not in texts["pdf"]


def test_the_orders_own_article_from_its_case_is_refused_for_the_notice(reg):
    data = order()
    data["recipient"]["certified_article"] = ORDERS
    issued = reg.issue("stop-work-order", data, formats=HTML)
    reg.record_service(
        issued.number, service_of("personal-delivery", date(2026, 11, 12)), formats=HTML
    )
    with pytest.raises(RegisterError, match="the order's own piece carried it"):
        reg.lift(issued.number, date(2026, 11, 20), articles=[ORDERS])


def test_an_effective_date_before_mail_service_is_complete_is_refused(reg):
    # The issue's case: effective the day it is mailed, by certified mail alone.
    issued = issued_order(reg, effective="2026-11-13")
    with pytest.raises(RegisterError) as refused:
        reg.record_service(
            issued.number, service_of("certified-mail", date(2026, 11, 13)), formats=HTML
        )
    said = str(refused.value)
    assert "states it is effective 2026-11-13" in said
    assert "service is complete only 2026-11-18" in said and "LAW.md" not in said
    assert reg.document(issued.number).services == ()
    # Delivered that day, it is in effect on the day it states; the mailing then stands.
    reg.record_service(
        issued.number, service_of("personal-delivery", date(2026, 11, 13)), formats=HTML
    )
    reg.record_service(
        issued.number, service_of("certified-mail", date(2026, 11, 13), to=DEVELOPER)
    )
    assert reg.document(issued.number).served_on == date(2026, 11, 13)
