"""What the model of the matter (tests/register/test_matter_model.py) found, each kept as an
ordinary test on both backends."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from docgen.errors import DocgenError
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import RegisterError
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of
from tests.register.test_register_lift import order

HTML = ("html",)


def test_a_served_document_dated_after_today_is_not_issued(reg):
    # Found: issue_order(day=TODAY + 1) was numbered and recorded (LAW.md § 2, § 3: a
    # served document is issued before it is served; nothing is dated after today).
    today = municipal_today(load_pack("homer"))  # now, not when the module was imported
    case = order() | {"issued": (today + timedelta(days=1)).isoformat()}
    case["remedies"][0]["due"] = (today + timedelta(days=9)).isoformat()
    with pytest.raises(DocgenError, match=r"issued: .*after today \(.* in the Village of Homer\)"):
        reg.issue("stop-work-order", case, formats=("html",))
    assert reg.count() == 0


def test_nothing_comes_back_on_a_superseded_or_lifted_document(reg):
    # Found: a mailing of NOV-2026-0002 recorded as returned after NOV-2026-0002 was
    # superseded (LAW.md § 2 "Corrections": nothing is recorded on a superseded document);
    # the same held for a receipt, and for service of a lifted order (LAW.md § 3).
    case = notice("2026-11-16")
    first = reg.issue("notice-of-violation", case, formats=HTML)
    reg.record_service(
        first.number, service_of("first-class-mail", date(2026, 11, 17)), formats=HTML
    )
    case["violations"][0]["nature"] += " (corrected)"
    second = reg.supersede(first.number, case, formats=HTML)
    with pytest.raises(RegisterError, match=f"superseded by {second.number}; nothing more"):
        reg.record_return(first.number, date(2026, 11, 20), "moved")
    with pytest.raises(RegisterError, match=f"superseded by {second.number}; nothing more"):
        reg.record_receipt(first.number, date(2026, 11, 20), "A. Li")
    assert reg.document(first.number).services[0].outcome is None

    issued = reg.issue("stop-work-order", order(), formats=HTML)
    reg.record_service(
        issued.number, service_of("personal-delivery", date(2026, 11, 12)), formats=HTML
    )
    lifted = reg.lift(issued.number, date(2026, 11, 20), formats=HTML)
    with pytest.raises(RegisterError, match=f"lifted by {lifted.number}; nothing more"):
        reg.record_service(
            issued.number, service_of("first-class-mail", date(2026, 11, 21)), formats=HTML
        )
    assert len(reg.document(issued.number).services) == 1


def test_the_same_notice_issued_again_after_a_conviction_is_the_first_as_issued(reg):
    """A case is issued once: a notice case issued again, after a conviction that would
    raise its offense number, is the first notice, number and words unchanged ("second
    offense"), and no second offense is recorded (a rule the model of the matter now
    knows)."""
    first = reg.issue("notice-of-violation", notice("2026-11-10", committed="2026-10-01"))
    reg.record_disposition(first.number, "convicted", date(2026, 10, 20))
    case = notice("2026-11-12", committed="2026-11-11")
    second = reg.issue("notice-of-violation", case, formats=("html",))
    words = " ".join(html_text(second.files["html"].decode()).split())
    assert "this would be a second offense" in words
    third = reg.issue("notice-of-violation", notice("2026-11-05", committed="2026-10-10"))
    reg.record_disposition(third.number, "convicted", date(2026, 10, 25))
    again = reg.issue("notice-of-violation", case, formats=("html",))
    assert again.number == second.number
    assert again.files["html"] == second.files["html"]
    assert reg.count() == 3


def test_a_fourth_offense_within_five_years_is_said_as_such(reg):
    """Found by the model of the matter (a soak of 60 sequences of 40 steps): three prior
    convictions on three dates make the next notice a fourth offense, which the notice
    says ("fourth offense ..., which the law treats as a third or subsequent offense",
    § 228-79C(4)); the model had expected the tier's word, "third"."""
    for committed, convicted in (("2026-10-08", 20), ("2026-10-18", 21), ("2026-10-26", 27)):
        issued = reg.issue("notice-of-violation", notice("2026-11-01", committed=committed))
        reg.record_disposition(issued.number, "convicted", date(2026, 10, 1) + timedelta(convicted))
    fourth = reg.issue("notice-of-violation", notice("2026-11-02", committed="2026-10-30"))
    words = " ".join(html_text(fourth.files["html"].decode()).split())
    assert "If convicted, this would be a fourth offense within five years" in words
    assert "which the law treats as a third or subsequent offense" in words


def test_a_lifted_order_is_not_corrected(reg):
    # Found (the chain's soak): SWO-2026-0001, served and lifted, was superseded, and its
    # correction was an order in effect that nobody lifted (LAW.md § 3: an order stays in
    # effect until lifted in writing; nothing is recorded on an order no longer in effect).
    issued = reg.issue("stop-work-order", order(), formats=HTML)
    reg.record_service(issued.number, service_of("personal-delivery", issued.issued), formats=HTML)
    lifted = reg.lift(issued.number, issued.issued, formats=HTML)
    case = {k: v for k, v in reg.document(issued.number).case.items() if k != "number"}
    case["violations"][0]["nature"] += " (corrected)"
    before = reg.count()
    with pytest.raises(RegisterError, match=f"was lifted by {lifted.number}; an order no longer"):
        reg.supersede(issued.number, case, formats=HTML)
    assert reg.count() == before
    assert reg.documents("stop-work-in-effect") == []
