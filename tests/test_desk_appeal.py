"""The appeal of a notice of violation from its page (§ 228-79C(1)(f)), over HTTP against a
real `docgen serve` and in Chromium (axe-core, phone width): the notice of appeal received
and acknowledged (on time or late, counted from the service the register holds), the
hearing, the decision; a later date granted (LAW.md § 11); a refusal said with the form's
labels."""

from __future__ import annotations

import re
from datetime import date

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import csrf_of, serving
from playwright.sync_api import expect

from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own: this module counts the register's acknowledgments (APA-2026-0001).
    yield from serving(tmp_path_factory)


def served(desk, issued: str = "2026-11-10", on: date = date(2026, 11, 11)) -> str:
    from docgen.register import Register

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        number = register.issue("notice-of-violation", notice(issued), formats=("html",)).number
        register.record_service(number, service_of("personal-delivery", on), formats=("html",))
    return number


def test_an_appeal_is_recorded_heard_and_decided_from_the_notices_page(desk):
    clerk = desk.signed_in("ann")
    number = served(desk)
    page = clerk.get(f"/documents/{number}").text
    assert "Record a notice of appeal received" in page
    token = csrf_of(page)
    ahead = clerk.post(
        f"/documents/{number}/appeal/received",
        data={"received": "2026-11-09", "received_by": "", "csrf_token": token},
    )
    assert ahead.status_code == 400
    assert "Date the notice of appeal was received: 2026-11-09: before" in ahead.text
    assert "Received by: missing" in ahead.text
    assert "--received" not in ahead.text and "received_by" not in ahead.text.split("<form")[0]
    done = clerk.post(
        f"/documents/{number}/appeal/received",
        data={"received": "2026-11-30", "received_by": "Marion T. Ashby", "csrf_token": token},
    )
    assert done.status_code == 303
    page = clerk.get(done.headers["location"]).text
    assert "Appeal recorded and its acknowledgment issued." in page
    assert "filed late</strong> (last day November 27, 2026)" in page
    assert "Appeal pending." in page and "Give notice of the hearing" in page
    ack = clerk.get("/documents/APA-2026-0001/file.pdf")
    assert "The notice of appeal was filed late" in " ".join(pdf_text(ack.content).split())
    token = csrf_of(page)
    clerk.post(
        f"/documents/{number}/appeal/hearing",
        data={
            "hearing": "2026-12-01",
            "time": "7:00 p.m.",
            "date": "2026-11-30",
            "csrf_token": token,
        },
    )
    page = clerk.get(f"/documents/{number}").text
    assert "Hearing: December 1, 2026 at 7:00 p.m." in page and "Record the decision" in page
    decided = clerk.post(
        f"/documents/{number}/appeal/decision",
        data={
            "outcome": "affirmed", "reason": "Seen on site.\nNo certification on file.",
            "date": "2026-12-02", "signed_by": "Peter J. Lindqvist", "title": "Chair",
            "csrf_token": csrf_of(page),
        },
    )  # fmt: skip
    assert decided.status_code == 303
    page = clerk.get(f"/documents/{number}").text
    assert "Decided December 2, 2026: <strong>affirmed</strong>" in page
    assert "Record the decision" not in page and "Appeal pending." not in page


def test_the_appeal_and_a_later_date_at_phone_width_in_chromium_pass_axe(browser, desk):
    """At 375 px, each step from its form on the notice's page: a later date granted, the
    appeal received, its hearing, its decision; after each, the page says it was done,
    scrolls no sideways and has no axe finding at any impact."""
    number = served(desk)
    context = browser.new_context(base_url=desk.url, viewport={"width": 375, "height": 740})
    page = context.new_page()
    sign_in(page, "ann")
    page.goto(f"/documents/{number}")
    found: list[object] = []

    def submitted(button: str, said: str) -> None:
        clicked = page.get_by_role("button", name=button)
        box = clicked.bounding_box()
        if box is None or box["x"] < 0 or box["x"] + box["width"] > 375:
            found.append((button, box))
        clicked.click()
        expect(page.get_by_role("status").first).to_contain_text(said)
        if page.evaluate("document.documentElement.scrollWidth") > 375:
            found.append((said, "scrolls sideways"))
        found.extend(axe_violations(page))

    page.get_by_label("Item", exact=True).select_option("1")
    page.get_by_label("New date", exact=True).fill("2026-12-04")
    page.get_by_label("Granted by", exact=True).fill("Dana R. Whitcomb")
    page.get_by_label("Why", exact=True).fill("Frozen ground")
    submitted("Grant it and issue the letter", "Later date granted")
    expect(page.locator("#x-item")).to_contain_text("due December 4, 2026")
    page.get_by_label("Date the notice of appeal was received").fill("2026-11-20")
    page.get_by_label("Received by", exact=True).fill("Marion T. Ashby")
    submitted("Record the appeal and issue the acknowledgment", "Appeal recorded")
    expect(page.locator("#appeal ~ p").first).to_contain_text("filed on time")
    # The form's notice of hearing is dated today, so the hearing is today, and decided.
    today = municipal_today(load_pack("homer")).isoformat()
    page.get_by_label("Date of the hearing", exact=True).fill(today)
    page.get_by_label("Time (e.g. 7:00 p.m.)", exact=True).fill("7:00 p.m.")
    submitted("Issue the notice of hearing", "Notice of hearing issued")
    page.get_by_label("Affirmed", exact=True).check()
    page.get_by_label("Reasons", exact=True).fill("Seen on site.")
    page.get_by_label("Date decided", exact=True).fill(today)
    page.get_by_label("Signed by", exact=True).fill("Peter J. Lindqvist")
    page.get_by_label("Their title", exact=True).fill("Chair")
    submitted("Issue the decision", "Decision on the appeal recorded")
    expect(page.locator("#appeal ~ p.done")).to_contain_text("affirmed")
    context.close()
    assert found == []


def test_a_later_date_is_granted_from_the_notices_page_and_an_earlier_one_refused(desk):
    officer = desk.signed_in("otto")
    number = served(desk)  # its remedial measure 1 is due November 17, 2026
    page = officer.get(f"/documents/{number}").text
    assert "Grant a later date" in page and "due November 17, 2026" in page
    token = csrf_of(page)
    form = {"item": "1", "granted_by": "Dana R. Whitcomb", "reason": "Rain", "csrf_token": token}
    where = f"/documents/{number}/later/extend"
    earlier = officer.post(where, data={**form, "until": "2026-11-16"})
    assert earlier.status_code == 400
    assert "New date: 2026-11-16: not later than the date now in force" in earlier.text
    assert "--until" not in earlier.text
    done = officer.post(where, data={**form, "until": "2026-12-04"})
    assert done.status_code == 303
    page = officer.get(done.headers["location"]).text
    assert "Later date granted and its letter issued." in page
    assert "due December 4, 2026" in page


def test_a_modified_decision_sets_a_remedy_date_from_the_form(desk):
    """The decision's form asks each remedial measure's new date ("Remedial measure 1, now
    due"): one before the decision is refused in the form's words with the provision; a
    decided one is printed in the decision and the desk's Due page shows it, never the
    notice's date."""
    clerk = desk.signed_in("ann")
    number = served(desk)  # its remedial measure 1 is due November 17, 2026
    page = clerk.get(f"/documents/{number}").text
    clerk.post(
        f"/documents/{number}/appeal/received",
        data={"received": "2026-11-20", "received_by": "Marion T. Ashby",
              "csrf_token": csrf_of(page)},
    )  # fmt: skip
    page = clerk.get(f"/documents/{number}").text
    clerk.post(
        f"/documents/{number}/appeal/hearing",
        data={"hearing": "2026-12-01", "time": "7:00 p.m.", "date": "2026-11-23",
              "csrf_token": csrf_of(page)},
    )  # fmt: skip
    page = clerk.get(f"/documents/{number}").text
    assert '<label for="ad-remedy_1">Remedial measure 1, now due' in page
    form = {
        "outcome": "modified", "reason": "Only part was shown.", "date": "2026-12-02",
        "modification": "The remedy is due later.", "signed_by": "Peter J. Lindqvist",
        "title": "Chair", "csrf_token": csrf_of(page),
    }  # fmt: skip
    where = f"/documents/{number}/appeal/decision"
    early = clerk.post(where, data={**form, "remedy_1": "2026-11-30"})
    assert early.status_code == 400
    assert "Remedial measure 1, now due: 2026-11-30: before the decision (December 2" in early.text
    assert "(§ 228-79C(1)(f))" in early.text and "--remedy" not in early.text
    done = clerk.post(where, data={**form, "remedy_1": "2026-12-18"})
    assert done.status_code == 303
    page = clerk.get(f"/documents/{number}").text
    decided = r'Decided December 2, 2026: <strong>modified</strong> \(<a href="/documents/([^"]+)"'
    (decision,) = re.findall(decided, page)
    text = " ".join(pdf_text(clerk.get(f"/documents/{decision}/file.pdf").content).split())
    assert "was due November 17, 2026; now due December 18, 2026." in text
    due = clerk.get("/due?whose=all").text
    remedy = rf"<strong>([^<]+)</strong>: Remedy\. <a href=\"/documents/{number}\">"
    shown = re.findall(remedy, due)
    assert shown == ["December 18, 2026"]
