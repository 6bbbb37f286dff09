"""The SWPPP reviewed on the desk (LAW.md § 15), through a real `docgen serve`: the plan
recorded on the site's page, the checklist of the law's items, a review with an item
missing, the return letter, an amended revision reviewed against the item it changes
(the checklist prefilled, the others carried), the approval; the site's page says the
plan's state. In Chromium at phone width the checklist is used as a clerk would, and
axe-core finds nothing on it."""

from __future__ import annotations

import re

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import docgen, serving
from playwright.sync_api import expect

from docgen.law.packs import load_pack
from docgen.register.sites.invitations import today_in

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    yield from serving(tmp_path_factory)


def new_site(desk, project: str, jurisdiction: str = "homer") -> int:
    made = docgen(
        desk.home,
        *("certify", "site", "--jurisdiction", jurisdiction, "--project", project),
        *("--description", f"{project}, the site in the test"),
    )
    assert made.returncode == 0, made.stderr
    return int(re.search(r"site (\d+)", made.stdout).group(1))


def form(client, page: str) -> dict[str, str]:
    html = client.get(page).text
    fields = dict(re.findall(r'name="(csrf_token|_once)" value="([^"]*)"', html))
    assert "csrf_token" in fields, html[:500]
    return fields


def test_returned_amended_and_approved_on_the_desk(desk):
    where = new_site(desk, "Elm Street Lots")
    client = desk.signed_in("otto")
    today = today_in("homer").isoformat()
    page = f"/certifications/{where}"
    assert "No SWPPP received." in client.get(page).text
    sent = client.post(
        f"{page}/swppp",
        data={
            **form(client, page),
            "title": "Elm Street SWPPP",
            "revision": "1",
            "preparer": "Lena Ortiz",
            "qualification": "P.E.",
            "received": today,
        },
    )
    assert sent.status_code == 303, sent.text
    shown = client.get(sent.headers["location"]).text
    assert "Elm Street SWPPP, revision 1: received" in shown and "not yet reviewed" in shown
    plan = re.search(rf'href="{page}/swppp/(\d+)"', shown).group(1)
    checklist = f"{page}/swppp/{plan}"
    html = client.get(checklist).text
    items = load_pack("homer").swppp.items
    for item in items:
        assert f'name="item.{item.id}"' in html and item.ref in html
    data = {f"item.{i.id}": "present" for i in items}
    data["item.soils"] = "missing"
    data["words.soils"] = "No soil description is given."
    refused = client.post(
        checklist,
        data={
            **form(client, checklist),
            **data,
            "item.background": "not-applicable",
            "reviewer": "Dana Whitcomb, Code Enforcement Officer",
            "date": today,
        },
    )
    assert refused.status_code == 400 and "every SWPPP must contain it" in refused.text
    reviewed = client.post(
        checklist,
        data={
            **form(client, checklist),
            **data,
            "reviewer": "Dana Whitcomb, Code Enforcement Officer",
            "date": today,
        },
    )
    assert reviewed.status_code == 303, reviewed.text
    html = client.get(checklist).text
    assert "1 item open: Soils (§ 228-78B(2)(a)[4]), missing" in html
    assert "Issue the return letter" in html and "Issue the approval" not in html
    returned = client.post(
        f"{checklist}/decide",
        data={**form(client, checklist), "outcome": "returned", "date": today},
    )
    assert returned.status_code == 303, returned.text
    number = returned.headers["location"].rsplit("/", 1)[1]
    assert number.startswith("SWR-")
    assert f"returned ({number})" in client.get(page).text

    amended = client.post(
        f"{page}/swppp",
        data={
            **form(client, page),
            "amends": plan,
            "revision": "2",
            "received": today,
            "change.soils": "1",
        },
    )
    assert amended.status_code == 303, amended.text
    shown = client.get(page).text
    second = re.search(rf'href="{page}/swppp/(\d+)"', shown).group(1)
    assert second != plan
    again = f"{page}/swppp/{second}"
    html = client.get(again).text
    assert 'name="item.soils"' in html and 'name="item.background"' not in html
    assert re.search(r'id="soils-missing" name="item.soils" value="missing" checked', html)
    assert "Background information (§ 228-78B(2)(a)[1]): present, not changed" in html
    done = client.post(
        again,
        data={
            **form(client, again),
            "item.soils": "present",
            "reviewer": "Dana Whitcomb, Code Enforcement Officer",
            "date": today,
        },
    )
    assert done.status_code == 303, done.text
    approved = client.post(
        f"{again}/decide", data={**form(client, again), "outcome": "approved", "date": today}
    )
    assert approved.status_code == 303, approved.text
    number = approved.headers["location"].rsplit("/", 1)[1]
    assert number.startswith("SWA-")
    assert f"Elm Street SWPPP, revision 2: approved ({number})" in client.get(page).text
    document = client.get(f"/documents/{number}")
    assert document.status_code == 200 and number in document.text


def test_the_checklist_at_phone_width_is_usable_and_axe_clean(browser, desk):
    where = new_site(desk, "Canal Lane Warehouse", "macedon")
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    page = context.new_page()
    try:
        sign_in(page, "ann")
        page.goto(f"/certifications/{where}")
        assert axe_violations(page) == []
        page.get_by_label("Title of the plan").fill("Canal Lane SWPPP")
        page.get_by_label("Revision (or the plan's date)").fill("A")
        page.get_by_label("Prepared by").fill("Ravi Shah")
        page.get_by_label("Preparer's qualification").fill("P.E.")
        page.get_by_role("button", name="Record the plan").click()
        expect(page.get_by_text("The plan was recorded as received.")).to_be_visible()
        page.get_by_role("link", name="Review revision A").click()
        expect(page.get_by_role("heading", name="Review of the SWPPP")).to_be_visible()
        assert axe_violations(page) == []
        items = load_pack("macedon").swppp.items
        for item in items:
            group = page.locator(f"#item-{item.id}")
            choice = "Does not apply" if item.id == "preparer-certified" else "Present"
            group.get_by_label(choice, exact=True).check()
        receiving = page.locator("#item-receiving-waters")
        receiving.get_by_label("Missing", exact=True).check()
        receiving.get_by_label("What is missing or not adequate, and what to add").fill(
            "Name the receiving water."
        )
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the checklist scrolls sideways ({width}px)"
        page.get_by_role("button", name="Record the review").click()
        expect(
            page.get_by_text("1 item open: Receiving waters (§ 301-71B(1)(m)), missing")
        ).to_be_visible()
        assert axe_violations(page) == []
        page.get_by_role("button", name="Issue the return letter").click()
        expect(page).to_have_url(re.compile(r"/documents/SWR-"))
    finally:
        context.close()
