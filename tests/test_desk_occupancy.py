"""Occupancy withheld at the desk (§ 228-79C(5); LAW.md § 14): the order preventing
occupancy from a served order's page, its release from its own page, each refusal in the
form's words; over HTTP, and the page in Chromium with axe."""

from __future__ import annotations

import pytest
from desk_browser import sign_in, submit_and_look
from desk_server import csrf_of, start_desk, start_draft, stop_desk, typed_sample
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


def another_order(client) -> str:
    """A stop-work order of its own (the sample's, on another lot: the same case again
    would be the order the module's other tests issued)."""
    where, token = start_draft(client, "stop-work-order")
    _, typed = typed_sample("stop-work-order", "homer-unpermitted-grading")
    typed["site.description"] = "Vacant lot on the west side of Route 11"
    client.post(where, data={**typed, "csrf_token": token})
    done = client.post(f"{where}/issue", data={"csrf_token": token})
    assert done.status_code == 303, client.get(where).text
    return str(done.headers["location"].rsplit("/", 1)[1])


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
    """At 390 px, each step from its form: occupancy prevented (refused first, in the
    form's words), the order released in writing, restoration required; after each, no
    sideways scroll and no axe finding at any impact on the page the desk answers with."""
    officer = desk.signed_in("otto")
    order = another_order(officer)
    context = browser.new_context(base_url=desk.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, "otto")
    found: list[object] = []

    def submitted(button: str) -> str:
        return submit_and_look(page, button, found)

    assert page.goto(f"/documents/{order}").status == 200
    button = "Prevent occupancy: issue the order resting on this one"
    page.get_by_label("Building or land whose occupancy is prevented").fill(PREMISES)
    submitted(button)  # no date: refused in the form's words
    assert "Date the order is issued: missing" in page.content()
    served(officer, order, ISSUED)
    page.goto(f"/documents/{order}")
    page.get_by_label("Building or land whose occupancy is prevented").fill(PREMISES)
    page.get_by_label("Date the order is issued").fill(ISSUED)
    held = submitted(button)
    assert held.startswith("OPO-"), page.url
    served(officer, held, ISSUED)
    page.goto(f"/documents/{held}")
    page.get_by_label("Date the order is released in writing").fill(ISSUED)
    freed = submitted("Release: issue the written release of this order")
    assert freed.startswith("OPR-"), page.url
    page.goto(f"/documents/{order}")
    page.get_by_label("What is to be restored to its undisturbed condition").fill(
        "regrade, seed and mulch the north slope"
    )
    page.get_by_label("Restore by (the reasonable time after notice)").fill("2026-11-25")
    page.get_by_label("Date the notice is issued").fill(ISSUED)
    notice = submitted("Require restoration: issue the notice resting on this one")
    assert notice.startswith("RN-"), page.url
    context.close()
    assert found == []
