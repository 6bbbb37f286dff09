"""Nothing typed is lost, in Chromium against a real `docgen serve`: a page left open in
one tab while the clerk signs in again in another, a refused service form, Discard, a
double click on Record service."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from desk_browser import axe_violations
from desk_server import database, typed_sample
from playwright.sync_api import expect
from test_desk_browser import sign_in

from tests.helpers.served import HAND


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


@pytest.fixture
def context(browser, desk):
    context = browser.new_context(base_url=desk.url)
    yield context
    context.close()


def start_notice(page) -> None:
    page.goto("/drafts")
    page.get_by_label("Kind of document").select_option(label="Notice of violation")
    page.get_by_label("Municipality").select_option(label="Village of Homer")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+$"))


def saved_fields(desk) -> str:
    row = database(desk).execute("select fields from desk_drafts order by updated desc limit 1")
    return row.fetchone()[0]


def saved(desk, text: str) -> bool:
    """Whether ``text`` reaches the saved draft within 10 s (an autosave is in flight)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if text in saved_fields(desk):
            return True
        time.sleep(0.1)
    return False


def test_typing_in_a_tab_left_open_while_signing_in_again_in_another_is_kept(context, desk):
    first = context.new_page()
    sign_in(first, "ann")
    start_notice(first)
    second = context.new_page()
    sign_in(second, "ann")  # a new session: the first tab's page holds the old token

    nature = first.locator("#f-violations-0-nature")
    nature.fill("Sediment in Factory Brook")
    first.locator("#f-violations-0-observed").focus()  # leaving the field saves it
    assert saved(desk, "Sediment in Factory Brook")

    # the old session gone altogether (signed out there): the page says so and keeps it
    db = database(desk)
    db.execute("delete from desk_sessions where token_hash not in (select token_hash from "
               "desk_sessions order by created desc limit 1)")  # fmt: skip
    db.commit()
    nature.fill("Sediment in Factory Brook below the outfall")
    first.locator("#f-violations-0-observed").focus()
    expect(first.locator("#summary")).to_contain_text("out of date")
    expect(nature).to_have_value("Sediment in Factory Brook below the outfall")
    first.get_by_role("button", name="Save and check").last.click()
    expect(first.locator("#f-violations-0-nature")).to_have_value(
        "Sediment in Factory Brook below the outfall"
    )
    expect(first.get_by_role("alert").first).to_contain_text("Nothing is lost")
    first.get_by_role("button", name="Save and check").last.click()
    expect(first).to_have_url(re.compile(r"/drafts/\d+$"))
    assert saved(desk, "below the outfall")
    expect(first.locator("#f-violations-0-nature")).to_have_value(
        "Sediment in Factory Brook below the outfall"
    )


def service_form(context, desk) -> tuple[Any, str]:
    """An officer's page of a stop-work order just issued from the command line, its
    service form filled with personal delivery on 2026-11-12: (page, number). The order
    states it is effective 2026-11-12, and it takes effect on service, never before
    (LAW.md § 3): a service completed later is refused at record-service."""
    from docgen.register import Register

    case, _ = typed_sample("stop-work-order", "homer-silt-fence")
    case.pop("number", None)
    with Register.open(desk.database) as reg:
        number = reg.issue("stop-work-order", case, formats=("html",), by="cli").number
    page = context.new_page()
    sign_in(page, "otto")
    page.goto(f"/documents/{number}")
    page.get_by_label("Method").select_option("personal-delivery")
    page.get_by_label("Date of service (or mailing)").fill("2026-11-12")
    # What the affidavit states of a delivery by hand (LAW.md § 10): the desk opens these
    # fields on choosing the method; nothing is filled in for the server.
    page.get_by_label(re.compile("^Served by")).fill("Dana R. Whitcomb")
    for field, value in HAND.items():
        page.locator(f"#s-{field}").fill(value)
    return page, number


def test_a_refused_service_form_keeps_what_was_typed(context, desk):
    page, _ = service_form(context, desk)
    page.get_by_text("Sent by mail: article number, return receipt").click()  # folded
    page.get_by_label(re.compile("^Date received")).fill("2026-11-22")
    page.get_by_label(re.compile("^Served by")).fill("Dana R. Whitcomb")
    page.get_by_role("button", name="Record service").click()
    expect(page.get_by_role("alert").first).to_contain_text("received")
    expect(page.get_by_label("Date of service (or mailing)")).to_have_value("2026-11-12")
    expect(page.get_by_label(re.compile("^Date received"))).to_have_value("2026-11-22")
    expect(page.get_by_label(re.compile("^Served by"))).to_have_value("Dana R. Whitcomb")
    assert axe_violations(page) == []


def test_a_double_click_on_record_service_records_it_once(context, desk):
    page, number = service_form(context, desk)
    page.get_by_role("button", name="Record service").dblclick()
    recorded = page.get_by_role("status").first  # the affidavit renders meanwhile
    expect(recorded).to_contain_text("Service recorded", timeout=120_000)
    affidavits = database(desk).execute(
        "select count(*) from documents where about_id = (select id from documents "
        "where number = ?)",
        (number,),
    )
    assert affidavits.fetchone()[0] == 1


def test_discard_asks_first(context, desk):
    page = context.new_page()
    sign_in(page, "ann")
    start_notice(page)
    where = page.url
    page.get_by_role("link", name=re.compile("^Discard this draft")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Discard draft")
    assert axe_violations(page) == []
    page.get_by_role("link", name="No, back to the draft").click()
    expect(page).to_have_url(where)
    page.get_by_role("link", name=re.compile("^Discard this draft")).click()
    page.get_by_role("button", name="Yes, discard it").click()
    expect(page).to_have_url(re.compile(r"/drafts$"))
    assert page.request.get(where).status == 404
