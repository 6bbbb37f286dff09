"""A site's fees on the desk (§ 228-79D; LAW.md § 15), through a real `docgen serve` with a
fee schedule in its settings: the site's page links its fees page; the statement of fees
for a period is made there (the register's own function, as `docgen fees statement`),
each service with its rate and amount and the total, the PDF read back; a payment above
the balance is refused in the form's words, one within it recorded and the balance shown.
In Chromium at phone width the page is used as a clerk would, and axe-core finds nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import docgen, serving
from playwright.sync_api import expect

from docgen.law.packs import load_pack
from docgen.register import Register
from docgen.register.plans.swppp import add_plan, record_review
from docgen.register.sites.invitations import today_in
from tests.helpers.readback import pdf_text

PHONE = {"width": 390, "height": 844}
SCHEDULE = (
    "fee_schedule:\n"
    "  adopted: adopted by the Board of Trustees, resolution 2026-14, January 12, 2026\n"
    "  swppp_review: 150.00\n"
    "  inspection: 75.00\n"
)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module gives it settings (a fee schedule).
    folder = tmp_path_factory.mktemp("settings")
    (folder / "homer.yaml").write_text(SCHEDULE, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOCGEN_SETTINGS", str(folder))
        yield from serving(tmp_path_factory)


def reviewed_site(desk, project: str) -> int:
    """A Homer site whose SWPPP the register holds one review of, ten days ago."""
    made = docgen(
        desk.home,
        *("certify", "site", "--jurisdiction", "homer", "--project", project),
        *("--description", f"{project}, the site in the test"),
    )
    assert made.returncode == 0, made.stderr
    site = int(re.search(r"site (\d+)", made.stdout).group(1))
    today = today_in("homer")
    reg = Register.open(desk.database)
    try:
        plan = add_plan(
            reg.engine,
            site,
            title=f"{project} SWPPP",
            revision="1",
            preparer="L. Ortiz",
            qualification="P.E.",
            received=today - timedelta(days=15),
            by="otto",
        )
        given = {i.id: ("present", None) for i in load_pack("homer").swppp.items}
        record_review(
            reg.engine,
            plan.id,
            given,
            reviewer="Dana Whitcomb",
            on=today - timedelta(days=10),
            by="otto",
        )
    finally:
        reg.close()
    return site


def form(client, page: str) -> dict[str, str]:
    html = client.get(page).text
    fields = dict(re.findall(r'name="(csrf_token|_once)" value="([^"]*)"', html))
    assert "csrf_token" in fields, html[:500]
    return fields


def test_a_statement_of_fees_made_and_paid_on_the_desk(desk):
    site = reviewed_site(desk, "Cayuga Street Townhomes")
    client = desk.signed_in("otto")
    today = today_in("homer")
    assert f'href="/certifications/{site}/fees"' in client.get(f"/certifications/{site}").text
    page = f"/certifications/{site}/fees"
    assert "No statement of fees yet." in client.get(page).text
    made = client.post(
        page,
        data={
            **form(client, page),
            "from": (today - timedelta(days=30)).isoformat(),
            "to": today.isoformat(),
            "date": today.isoformat(),
            "payer": "T. R. Development LLC",
            "officer": "Dana R. Whitcomb",
            "title": "Code Enforcement Officer",
        },
    )
    assert made.status_code == 303, made.text
    number = re.search(r"number=([^&]+)", made.headers["location"]).group(1)
    shown = client.get(made.headers["location"]).text
    assert "The statement of fees was issued." in shown
    assert "Review of the SWPPP" in shown and "Cayuga Street Townhomes SWPPP" in shown
    assert "$150.00" in shown and "balance due $150.00" in shown
    pdf = client.get(f"/documents/{number}/file.pdf")
    assert pdf.status_code == 200, pdf.text[:300]
    text = pdf_text(pdf.content)
    assert number in text and "150.00" in text and "T. R. Development LLC" in text
    pay = f"{page}/{number}/pay"
    too_much = client.post(
        pay,
        data={
            **form(client, page),
            "amount": "200.00",
            "paid": today.isoformat(),
            "method": "check no. 1201",
        },
    )
    assert too_much.status_code == 400
    assert "Amount 200.00: more than the balance due" in too_much.text
    assert "--amount" not in too_much.text and "record at most the balance due" in too_much.text
    paid = client.post(
        pay,
        data={
            **form(client, page),
            "amount": "100.00",
            "paid": today.isoformat(),
            "method": "check no. 1201",
        },
    )
    assert paid.status_code == 303, paid.text
    shown = client.get(paid.headers["location"]).text
    assert "The payment was recorded." in shown
    assert "Paid $100.00; balance due $50.00." in shown


def test_the_fees_page_at_phone_width_is_usable_and_axe_clean(browser, desk):
    site = reviewed_site(desk, "Route 11 Plaza")
    today = today_in("homer")
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    page = context.new_page()
    try:
        sign_in(page, "ann")
        page.goto(f"/certifications/{site}")
        page.get_by_role("link", name="Fees of the site: statements and payments").click()
        expect(page.get_by_role("heading", name="Make the statement of fees")).to_be_visible()
        assert axe_violations(page) == []
        page.get_by_label("From").fill((today - timedelta(days=30)).isoformat())
        page.get_by_label("To whom").fill("Route 11 Plaza LLC")
        page.get_by_label("Title").fill("Code Enforcement Officer")
        page.get_by_role("button", name="Make the statement of fees").click()
        expect(page.get_by_text("The statement of fees was issued.")).to_be_visible()
        expect(page.get_by_text("balance due $150.00")).to_be_visible()
        assert axe_violations(page) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the fees page scrolls sideways ({width}px)"
        page.get_by_label("Amount").fill("150.00")
        page.get_by_label("Paid by").fill("cash")
        page.get_by_role("button", name="Record the payment").click()
        expect(page.get_by_text("Paid $150.00; balance due $0.00.")).to_be_visible()
        assert axe_violations(page) == []
    finally:
        context.close()
