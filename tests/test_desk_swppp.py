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
from desk_server import docgen, serving, start_desk, stop_desk
from playwright.sync_api import expect

from docgen.law.packs import load_pack
from docgen.register.sites.invitations import today_in
from tests.helpers.readback import pdf_text

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def desk(shared_desk):
    """Homer's desk: the test process's shared one (tests/conftest.py). Each round registers
    a site of its own and reads back only the letters it issued; no other module using
    that desk reviews a SWPPP or issues a Macedon letter to share a bare number with."""
    return shared_desk


@pytest.fixture(scope="module")
def town_desk(tmp_path_factory):
    """Macedon's, over a register of its own: both municipalities number their letters
    SWR-YYYY-NNNN, and this walk reads each letter back by its bare number (a register
    holding both, each reached by an address naming its municipality, is
    tests/test_desk_shared_numbers.py)."""
    yield from serving(tmp_path_factory)


def new_site(desk, project: str, jurisdiction: str = "homer") -> int:
    made = docgen(
        desk.home,
        *("certify", "site", "--jurisdiction", jurisdiction, "--project", project),
        *("--description", f"{project}, the site in the test"),
        database=desk.database,
    )
    assert made.returncode == 0, made.stderr
    return int(re.search(r"site (\d+)", made.stdout).group(1))


def form(client, page: str) -> dict[str, str]:
    html = client.get(page).text
    fields = dict(re.findall(r'name="(csrf_token|_once)" value="([^"]*)"', html))
    assert "csrf_token" in fields, html[:500]
    return fields


def issued_pdf(client, number: str) -> str:
    """The letter as issued, read back from the PDF the desk serves."""
    got = client.get(f"/documents/{number}/file.pdf")
    assert got.status_code == 200 and got.content.startswith(b"%PDF")
    return " ".join(pdf_text(got.content).split())


REVIEWERS = {
    "homer": "Dana Whitcomb, Code Enforcement Officer",
    "macedon": "Harold P. Vance, Chair, Town of Macedon Planning Board",
}


def round_on_the_desk(desk, jurisdiction: str, project: str) -> None:
    """Recorded, reviewed with an item missing (a finding the law does not allow refused),
    returned, amended, the checklist prefilled and only the changed item offered, reviewed
    again and approved; each letter read back from its PDF; the site's page says the
    plan's state at each step; a contractor's invitation then names the approved plan on
    the page its link opens."""
    where = new_site(desk, project, jurisdiction)
    client = desk.signed_in("otto")
    today = today_in(jurisdiction).isoformat()
    page = f"/certifications/{where}"
    law = load_pack(jurisdiction).swppp
    soils, background = law.item("soils"), law.item("background")
    title = f"{project} SWPPP"
    reviewer = REVIEWERS[jurisdiction]
    assert "No SWPPP received." in client.get(page).text
    sent = client.post(
        f"{page}/swppp",
        data={
            **form(client, page),
            "title": title,
            "revision": "1",
            "preparer": "Lena Ortiz",
            "qualification": "P.E.",
            "received": today,
        },
    )
    assert sent.status_code == 303, sent.text
    shown = client.get(sent.headers["location"]).text
    assert f"{title}, revision 1: received" in shown and "not yet reviewed" in shown
    plan = re.search(rf'href="{page}/swppp/(\d+)"', shown).group(1)
    checklist = f"{page}/swppp/{plan}"
    html = client.get(checklist).text
    for item in law.items:
        assert f'name="item.{item.id}"' in html and item.ref in html
    data = {f"item.{i.id}": "present" for i in law.items}
    data["item.soils"] = "missing"
    data["words.soils"] = "No soil description is given."
    refused = client.post(
        checklist,
        data={
            **form(client, checklist),
            **data,
            "item.background": "not-applicable",
            "reviewer": reviewer,
            "date": today,
        },
    )
    assert refused.status_code == 400 and "every SWPPP must contain it" in refused.text
    reviewed = client.post(
        checklist,
        data={**form(client, checklist), **data, "reviewer": reviewer, "date": today},
    )
    assert reviewed.status_code == 303, reviewed.text
    html = client.get(checklist).text
    assert f"1 item open: {soils.label} ({soils.ref}), missing" in html
    assert "Issue the return letter" in html and "Issue the approval" not in html
    forced = client.post(
        f"{checklist}/decide",
        data={**form(client, checklist), "outcome": "approved", "date": today},
    )
    assert forced.status_code == 400 and f"{soils.label} ({soils.ref}): missing" in forced.text
    returned = client.post(
        f"{checklist}/decide",
        data={**form(client, checklist), "outcome": "returned", "date": today},
    )
    assert returned.status_code == 303, returned.text
    number = returned.headers["location"].rsplit("/", 1)[1]
    assert number.startswith("SWR-")
    assert f"returned ({number})" in client.get(page).text
    text = issued_pdf(client, number)
    assert "Stormwater Pollution Prevention Plan Returned" in text
    assert f"{soils.label}: missing" in text and f"({soils.ref})" in text
    assert "The reviewer found: No soil description is given." in text
    assert ("228-" in text) == (jurisdiction == "homer")

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
    assert f"{background.label} ({background.ref}): present, not changed" in html
    done = client.post(
        again,
        data={**form(client, again), "item.soils": "present", "reviewer": reviewer, "date": today},
    )
    assert done.status_code == 303, done.text
    approved = client.post(
        f"{again}/decide", data={**form(client, again), "outcome": "approved", "date": today}
    )
    assert approved.status_code == 303, approved.text
    number = approved.headers["location"].rsplit("/", 1)[1]
    assert number.startswith("SWA-")
    assert f"{title}, revision 2: approved ({number})" in client.get(page).text
    text = issued_pdf(client, number)
    assert "Approval of Stormwater Pollution Prevention Plan" in text
    assert f"{title}, revision 2" in text and "(amending revision 1)" in text
    assert "present; unchanged since revision 1" in text
    assert ("228-" in text) == (jurisdiction == "homer")
    invited = docgen(
        desk.home,
        *("certify", "invite", str(where), "--firm", "Seneca Sitework Inc."),
        database=desk.database,
    )
    assert invited.returncode == 0, invited.stderr
    link = re.search(r"/certify/[^\s]+", invited.stdout).group(0)
    opened = " ".join(desk.client().get(link).text.split())
    assert (
        f"The stormwater pollution prevention plan it becomes part of is “{title}”, "
        f"revision 2 (approval {number})" in opened
    )


def test_returned_amended_and_approved_on_the_desk(desk, town_desk):
    round_on_the_desk(desk, "homer", "Elm Street Lots")
    round_on_the_desk(town_desk, "macedon", "Canal Lane Lots")


@pytest.mark.parametrize("jurisdiction", ["homer", "macedon"])
def test_the_same_round_on_a_desk_over_postgresql(postgres_server, tmp_path, jurisdiction):
    from tests.helpers import pgserver  # the server's helpers: only this test starts one

    url = pgserver.create_database(postgres_server, f"desk_swppp_{jurisdiction}")
    served = start_desk(tmp_path, url)
    try:
        round_on_the_desk(served, jurisdiction, "Mill Street Lots")
    finally:
        stop_desk(served)


def test_the_checklist_at_phone_width_is_usable_and_axe_clean(browser, town_desk):
    """The whole round at 390 px: the plan recorded, reviewed, returned, amended, the
    checklist prefilled from the previous review, reviewed again, approved; axe-core on
    each page; both letters read back from the PDFs the desk serves."""
    desk = town_desk
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
        returned = page.url.rsplit("/", 1)[1]
        expect(page.get_by_role("heading", name=returned)).to_be_visible()
        letter = page.request.get(f"/documents/{returned}/file.pdf")
        text = " ".join(pdf_text(letter.body()).split())
        assert "Receiving waters: missing" in text and "Name the receiving water." in text

        page.goto(f"/certifications/{where}")
        expect(page.get_by_text(f"returned ({returned})")).to_be_visible()
        page.get_by_text("Record an amended revision").click()
        page.get_by_label("Revision (or the plan's date)").fill("B")
        page.get_by_label("Receiving waters (§ 301-71B(1)(m))").check()
        page.get_by_role("button", name="Record the amended revision").click()
        expect(page.get_by_text("The plan was recorded as received.")).to_be_visible()
        page.get_by_role("link", name="Review revision B").click()
        receiving = page.locator("#item-receiving-waters")
        expect(receiving.get_by_label("Missing", exact=True)).to_be_checked()
        expect(page.locator("#item-soils")).to_have_count(0)
        expect(page.get_by_text("Soils (§ 301-71B(1)(c)): present, not changed")).to_be_visible()
        assert axe_violations(page) == []
        receiving.get_by_label("Present", exact=True).check()
        page.get_by_role("button", name="Record the review").click()
        assert axe_violations(page) == []
        page.get_by_role("button", name="Issue the approval").click()
        expect(page).to_have_url(re.compile(r"/documents/SWA-"))
        approved = page.url.rsplit("/", 1)[1]
        expect(page.get_by_role("heading", name=approved)).to_be_visible()
        letter = page.request.get(f"/documents/{approved}/file.pdf")
        text = " ".join(pdf_text(letter.body()).split())
        assert "Approval of Stormwater Pollution Prevention Plan" in text
        assert "Canal Lane SWPPP, revision B" in text and "(amending revision A)" in text
        page.goto(f"/certifications/{where}")
        expect(
            page.get_by_text(f"Canal Lane SWPPP, revision B: approved ({approved})")
        ).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the site's page scrolls sideways ({width}px)"
    finally:
        context.close()
