"""Occupancy withheld at the desk (§ 228-79C(5); LAW.md § 14): the order preventing
occupancy from a served order's page, its release from its own page, each refusal in the
form's words; over HTTP, and the page in Chromium with axe."""

from __future__ import annotations

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import csrf_of, start_desk, stop_desk
from test_desk_words import issued, shown

PREMISES = "the two-story office building at 120 Cayuga Street"
ISSUED = "2026-11-18"  # the sample order's issue date (homer-unpermitted-grading)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own: the shared desk's other modules issue and serve the same sample.
    server = start_desk(tmp_path_factory.mktemp("desk"))
    yield server
    stop_desk(server)


def served(client, number: str, day: str) -> None:
    token = csrf_of(client.get(f"/documents/{number}").text)
    by_hand = {
        "method": "personal-delivery",
        "date": day,
        "served_by": "Dana R. Whitcomb",
        "place": "the site entrance, 120 Cayuga Street, Homer, NY 13077",
        "time": "10:45",
        "person": "Alan P. Mercer",
        "capacity": "managing member",
        "description": "male, about 50, 6 ft, grey hair",
    }
    done = client.post(f"/documents/{number}/service", data={**by_hand, "csrf_token": token})
    assert done.status_code == 303, shown(done.text)


def test_an_order_preventing_occupancy_is_issued_and_released_from_the_pages(desk):
    officer = desk.signed_in("otto")
    order = issued(officer, "stop-work-order", "homer-unpermitted-grading")
    page = officer.get(f"/documents/{order}").text
    assert "Prevent occupancy" in page and "Building or land whose occupancy is prevented" in page
    token = csrf_of(page)
    early = officer.post(
        f"/documents/{order}/withhold",
        data={"premises": PREMISES, "date": "2026-11-01", "csrf_token": token},
    )
    assert early.status_code == 400
    assert shown(early.text)[0].startswith(f"{order} has no recorded service that stands")
    missing = officer.post(f"/documents/{order}/withhold", data={"csrf_token": token})
    lines = shown(missing.text)
    assert "Building or land whose occupancy is prevented: missing" in lines
    assert "Date the order is issued: missing" in lines
    served(officer, order, ISSUED)
    done = officer.post(
        f"/documents/{order}/withhold",
        data={"premises": PREMISES, "date": ISSUED, "csrf_token": token},
    )
    assert done.status_code == 303, shown(done.text)
    held = done.headers["location"].rsplit("/", 1)[1]
    assert held.startswith("OPO-")
    page = officer.get(f"/documents/{held}").text
    assert "Release this order" in page and "Record service" in page
    assert "Prevent occupancy" not in page
    token = csrf_of(page)
    refused = officer.post(
        f"/documents/{held}/release-occupancy",
        data={"date": ISSUED, "csrf_token": token},
    )
    assert "has no recorded service that stands" in shown(refused.text)[0]
    served(officer, held, ISSUED)
    done = officer.post(
        f"/documents/{held}/release-occupancy",
        data={"date": ISSUED, "csrf_token": token},
    )
    assert done.status_code == 303, shown(done.text)
    freed = done.headers["location"].rsplit("/", 1)[1]
    page = officer.get(f"/documents/{held}").text
    assert "Released in writing by" in page and freed in page
    assert "Release this order" not in page


def test_a_notice_requiring_restoration_is_issued_from_the_orders_page(desk):
    officer = desk.signed_in("otto")
    order = issued(officer, "stop-work-order", "homer-unpermitted-grading")
    if "<dd>not served</dd>" in officer.get(f"/documents/{order}").text:
        served(officer, order, ISSUED)  # as the module's first test left it, when run alone
    page = officer.get(f"/documents/{order}").text
    assert "Require restoration" in page
    token = csrf_of(page)
    typed = {"restore": "regrade, seed and mulch the north slope", "date": ISSUED}
    early = officer.post(
        f"/documents/{order}/restore",
        data={**typed, "restore_by": ISSUED, "csrf_token": token},
    )
    assert early.status_code == 400
    lines = shown(early.text)
    assert any(line.startswith("Restore by: ") and "not after the notice's date" in line
               for line in lines), lines  # fmt: skip
    done = officer.post(
        f"/documents/{order}/restore",
        data={**typed, "restore_by": "2026-11-25", "csrf_token": token},
    )
    assert done.status_code == 303, shown(done.text)
    notice = done.headers["location"].rsplit("/", 1)[1]
    assert notice.startswith("RN-")
    assert "Record service" in officer.get(f"/documents/{notice}").text


def test_the_forms_fit_a_phone_and_are_axe_clean_in_chromium(desk, browser):
    """At 390 px: the order's page with its form, the error summary, no sideways scroll,
    no axe finding at any impact."""
    officer = desk.signed_in("otto")
    order = issued(officer, "stop-work-order", "homer-unpermitted-grading")
    context = browser.new_context(base_url=desk.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, "otto")
    found = []
    assert page.goto(f"/documents/{order}").status == 200
    button = "Prevent occupancy: issue the order resting on this one"
    page.get_by_label("Building or land whose occupancy is prevented").fill(PREMISES)
    page.get_by_role("button", name=button).click()  # no date: refused in the form's words
    page.wait_for_load_state()
    assert "Date the order is issued: missing" in page.content()
    width = page.evaluate("document.scrollingElement.scrollWidth")
    if width > page.evaluate("window.innerWidth"):
        found.append(("scrolls sideways", width))
    found.extend(axe_violations(page))
    context.close()
    assert found == []
