"""The year in figures on the desk (LAW.md § 15, a reading chosen): the clerk chooses the
reporting period, sees each figure with its rule and document numbers and the chart by
month, and downloads the draft (PDF, read back) and the figures (CSV, read back); the page
passes axe-core in Chromium at desk and phone widths, without sideways scroll."""

from __future__ import annotations

import csv
import io

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import serving
from playwright.sync_api import expect

from docgen.law.year import named_holding
from docgen.register.sites.invitations import today_in
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the year's notices of
    # violation in the register (one).
    yield from serving(tmp_path_factory)


@pytest.fixture(scope="module")
def issued(desk):
    from docgen.register import Register

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        first = register.issue("notice-of-violation", notice(), formats=("html",))
        corrected = register.supersede(first.number, notice(), formats=("html",))
    return first.number, corrected.number


def current_period() -> int:
    return named_holding("03-10", today_in("homer"))


def test_the_clerk_sees_the_figures_and_downloads_the_draft_and_the_csv(desk, issued):
    superseded, counted = issued
    clerk = desk.signed_in("ann")
    page = clerk.get("/year")
    assert page.status_code == 200
    assert "DRAFT for public review" in page.text
    assert f'<a href="/documents/{counted}">{counted}</a>' in page.text
    assert superseded not in page.text
    assert 'role="img" aria-label="Bar chart by month of inspections' in page.text
    query = {"jurisdiction": "homer", "period": str(current_period())}
    table = clerk.get("/year/report.csv", params=query)
    assert table.status_code == 200 and table.headers["content-type"].startswith("text/csv")
    rows = {r["category"]: r for r in csv.DictReader(io.StringIO(table.text))}
    assert rows["Notices of violation"]["count"] == "1"
    assert rows["Notices of violation"]["documents"] == counted
    pdf = clerk.get("/year/report.pdf", params=query)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    text = " ".join(pdf_text(pdf.content).split())
    assert "DRAFT for public review" in text and counted in text and superseded not in text
    refused = clerk.get("/year", params={"period": "next"})
    assert refused.status_code == 400
    assert "Reporting period: &#39;next&#39; is not a year" in refused.text
    later = clerk.get("/year", params={"period": str(current_period() + 2)})
    assert later.status_code == 400 and "has not begun" in later.text


@pytest.mark.parametrize("width", [1280, 390], ids=["desk", "phone"])
def test_the_year_page_passes_axe_at_desk_and_phone_width(browser, desk, issued, width):
    context = browser.new_context(base_url=desk.url, viewport={"width": width, "height": 900})
    page = context.new_page()
    sign_in(page, "ann")
    page.goto("/due")
    page.get_by_role("link", name="Year in figures").click()
    page.get_by_label("Reporting period: the year it ends in").fill(str(current_period()))
    page.get_by_role("button", name="Show the figures").click()
    expect(page.get_by_role("img", name="Bar chart by month")).to_be_visible()
    expect(page.get_by_role("link", name="Download the draft (PDF)")).to_be_visible()
    expect(page.get_by_role("link", name=issued[1]).first).to_be_visible()
    wide = page.evaluate("document.scrollingElement.scrollWidth")
    assert wide <= page.evaluate("window.innerWidth"), wide
    assert axe_violations(page) == []
    context.close()
