"""The calendar and its feed carry the steps after the notice (LAW.md §§ 12, 14): the order
preventing occupancy in effect from its service until released (§ 228-79C(5)), and the date
a notice requiring restoration set, until the cost is stated (§ 228-79C(6))."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from icalendar import Calendar

from docgen.register.reading.due import calendar
from docgen.register.reading.feed import ics
from tests.helpers.served import service_of
from tests.register.test_register_occupancy import PREMISES, served_order
from tests.register.test_register_restoration import ITEMS, RESTORE, inspection


def test_the_hold_and_the_restoration_date_are_on_the_calendar_until_they_end(reg):
    swo = served_order(reg)
    held = reg.withhold_occupancy(swo.number, PREMISES, swo.issued, formats=("html",))
    assert not any(i.category == "occupancy prevented" for i in calendar(reg))
    reg.record_service(held.number, service_of("personal-delivery", held.issued), formats=("html",))
    restore_by = swo.issued + timedelta(days=7)
    notice = reg.require_restoration(swo.number, RESTORE, restore_by, swo.issued, formats=("html",))
    reg.record_service(
        notice.number, service_of("personal-delivery", swo.issued), formats=("html",)
    )
    items = {i.number: i for i in calendar(reg)}
    hold = items[held.number]
    assert hold.category == "occupancy prevented" and hold.ongoing and hold.day == held.issued
    assert hold.provision == "§ 228-79C(5)"
    due = items[notice.number]
    assert due.category == "restoration" and due.day == restore_by and due.overdue
    assert due.provision == "§ 228-79C(6)"
    feed = Calendar.from_ical(ics(calendar(reg), "due", "America/New_York", restore_by))
    summaries = [str(e.get("summary")) for e in feed.walk("VEVENT")]
    assert any(s.startswith("OVERDUE: restoration: " + notice.number) for s in summaries)
    assert any(s.startswith("occupancy prevented: " + held.number) for s in summaries)
    reg.release_occupancy(held.number, held.issued, formats=("html",))
    found = reg.issue("inspection-report", inspection(restore_by), formats=("html",))
    reg.state_restoration_cost(notice.number, found.number, ITEMS, restore_by, formats=("html",))
    left = {i.number for i in calendar(reg)}
    assert held.number not in left and notice.number not in left


def test_an_unpaid_lien_is_on_the_calendar_with_its_balance_until_released(reg):
    """§ 228-79C(6): the cost "shall become a lien upon the property until paid": from the
    notice of lien until its release, "lien unpaid" with the balance as paid down."""
    swo = served_order(reg)
    restore_by = swo.issued + timedelta(days=7)
    notice = reg.require_restoration(swo.number, RESTORE, restore_by, swo.issued, formats=("html",))
    reg.record_service(
        notice.number, service_of("personal-delivery", swo.issued), formats=("html",)
    )
    found = reg.issue("inspection-report", inspection(restore_by), formats=("html",))
    cost = reg.state_restoration_cost(
        notice.number, found.number, ITEMS, restore_by, formats=("html",)
    )
    assert not any(i.category == "lien unpaid" for i in calendar(reg))
    lien = reg.record_lien(cost.number, restore_by, formats=("html",))
    item = {i.number: i for i in calendar(reg)}[lien.number]
    assert item.what == f"{lien.number}: lien unpaid, balance $1,160.50"
    assert item.category == "lien unpaid" and item.ongoing and item.day == restore_by
    assert item.provision == "§ 228-79C(6)"
    reg.record_lien_payment(lien.number, Decimal("1000"), restore_by, "Cayuga Street LLC")
    item = {i.number: i for i in calendar(reg)}[lien.number]
    assert item.what == f"{lien.number}: lien unpaid, balance $160.50"
    feed = Calendar.from_ical(ics(calendar(reg), "due", "America/New_York", restore_by))
    summaries = [str(e.get("summary")) for e in feed.walk("VEVENT")]
    assert f"lien unpaid: {lien.number}: lien unpaid, balance $160.50" in summaries
    reg.record_lien_payment(lien.number, Decimal("160.50"), restore_by, "Cayuga Street LLC")
    assert lien.number in {i.number for i in calendar(reg)}  # paid, not yet released
    reg.release_lien(lien.number, restore_by, formats=("html",))
    assert lien.number not in {i.number for i in calendar(reg)}
