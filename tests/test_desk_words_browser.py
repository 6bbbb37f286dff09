"""The clerk's words in Chromium: an impossible date typed into a form is reported as
impossible (a browser's date input would blank it and leave only "missing"), and a submit
with several problems lists them all at once, each by the field's label and place."""

from __future__ import annotations

import re

import pytest
from desk_browser import axe_violations
from desk_server import PASSWORD, csrf_of, start_draft, typed_sample
from helpers.clerk_words import developer_words
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


@pytest.fixture
def page(browser, desk):
    context = browser.new_context(base_url=desk.url)
    page = context.new_page()
    page.goto("/login")
    page.get_by_label("User name").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/documents$"))
    yield page
    context.close()


def problems_shown(page) -> list[str]:
    return [line.strip() for line in page.locator("#error-summary li").all_inner_texts()]


def test_an_impossible_date_and_every_other_problem_in_one_round(page, desk):
    where, _ = start_draft(desk.signed_in("ann"), "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    page.goto(where)
    for name, value in typed.items():
        field = page.locator(f'[name="{name}"]')
        if not field.count():
            continue
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        elif name == "remedies[0].due":
            field.press_sequentially("2026-02-30")  # typed as a clerk types it
        elif name not in ("recipient.address.zip", "remedies[0].measure"):
            field.fill(value)
    page.get_by_role("button", name="Save and check").click()

    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("3 problems to fix")
    lines = problems_shown(page)
    assert any(
        line.startswith("Remedy 1, due: 30 February 2026 is not a real calendar date")
        for line in lines
    ), lines
    assert any(line.startswith("Recipient, address, ZIP code: missing.") for line in lines)
    assert any(line.startswith("Remedy 1, measure: missing.") for line in lines)
    assert [developer_words(line) for line in lines] == [[], [], []]
    # what was typed stays in the field, and the message is beside it too
    expect(page.locator('[name="remedies[0].due"]')).to_have_value("2026-02-30")
    expect(page.locator("#f-remedies-0-due-error")).to_contain_text("30 February 2026")
    assert axe_violations(page) == []


def test_the_service_form_lists_every_problem_by_its_label(page, desk):
    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    clerk.post(where, data={**typed, "csrf_token": token})
    issued = clerk.post(f"{where}/issue", data={"csrf_token": csrf_of(clerk.get(where).text)})
    number = issued.headers["location"].rsplit("/", 1)[1]

    page.goto(f"/documents/{number}")
    form = page.locator('form[action$="/service"]')
    form.get_by_label("Method").select_option(label="Certified mail, return receipt requested")
    form.get_by_label("Date of service (or mailing)").press_sequentially("2026-02-30")
    form.get_by_label(re.compile("^Served by")).fill("Dana R. Whitcomb")
    form.get_by_text("Delivered by hand: where, when, the individual, their capacity").click()
    form.get_by_label("Time of delivery").fill("09:00")
    form.get_by_label(re.compile("^Their capacity")).fill("managing member")
    form.get_by_role("button", name="Record service").click()

    alert = page.get_by_role("alert").first
    expect(alert).to_contain_text("3 problems to fix")
    text = alert.inner_text()
    assert "Date of service: 30 February 2026 is not a real calendar date" in text
    assert "describe a personal delivery; the method is certified mail" in text
    assert "Their capacity: is the capacity of Individual handed the copy" in text
    assert developer_words(text) == [] and "LAW.md" not in text
    expect(form.get_by_label("Date of service (or mailing)")).to_have_value("2026-02-30")
    assert axe_violations(page) == []
