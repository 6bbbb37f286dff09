"""The return receipt recorded from a document's page in Chromium (LAW.md § 2): the form
is found by its labels, the page says what was done, the deadline moves later and the
page passes axe-core."""

from __future__ import annotations

from datetime import date

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import serving
from playwright.sync_api import expect

from tests.helpers.register_cases import notice
from tests.helpers.served import service_of


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the register's return receipts (the
    # first is RR-2026-0001).
    yield from serving(tmp_path_factory)


def test_a_clerk_records_the_green_card_on_its_mailing(browser, desk):
    from docgen.register import Register

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        number = register.issue("notice-of-violation", notice("2026-09-08"), formats=("html",))
        register.record_service(number.number, service_of("certified-mail", date(2026, 9, 9)))
    context = browser.new_context(base_url=desk.url)
    page = context.new_page()
    sign_in(page, "otto")
    page.goto(f"/documents/{number.number}")
    expect(page.locator("dl.facts")).to_contain_text("September 29, 2026")
    page.get_by_label("Mailing", exact=True).first.select_option(index=0)
    page.get_by_label("Date received (as the card shows)").fill("2026-09-16")
    page.get_by_label("Signed by (as signed or printed on the card)").fill("M. Keller")
    page.get_by_role("button", name="Record the return receipt").click()
    expect(page.get_by_role("status").first).to_contain_text("Return receipt recorded")
    expect(page.locator("dl.facts")).to_contain_text("October 1, 2026")
    expect(page.locator("table").first).to_contain_text("signed by M. Keller")
    expect(page.get_by_role("link", name="RR-2026-0001")).to_be_visible()
    assert axe_violations(page) == []
    context.close()
