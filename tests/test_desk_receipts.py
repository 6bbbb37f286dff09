"""What comes back after mailing, on the desk (LAW.md § 2), over HTTP against a real
`docgen serve`: "Return receipt came back" on a document's page records the receipt on its
mailing (the deadline moves later, the annex to the affidavit is issued and linked), and a
mailing returned undelivered shows the person as not served and the deadline withdrawn."""

from __future__ import annotations

import re
from datetime import date

import pytest
from desk_server import csrf_of, start_draft, typed_sample
from test_desk_actions import issued

from docgen.cases.mail import with_check_digit
from docgen.law.deadlines import long_date
from tests.helpers.readback import pdf_text
from tests.helpers.served import service_form

ARTICLE = with_check_digit("9589071052700123456" + "91")


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


def token(clerk, number: str) -> str:
    return csrf_of(clerk.get(f"/documents/{number}").text)


def mailed(clerk, article: str | None = None, area: str = "") -> str:
    """A notice issued (a case of its own: ``area`` names its remedy's work area) and mailed
    by certified mail on 2026-11-17."""
    change = {"remedies[0].measure": f"Stabilize all disturbed soil{area}"}
    number = issued(clerk, "notice-of-violation", "homer-first-offense", change)
    token = csrf_of(clerk.get(f"/documents/{number}").text)
    form = {**service_form("certified-mail"), "date": "2026-11-17", "csrf_token": token}
    done = clerk.post(
        f"/documents/{number}/service", data=form | ({"article": article} if article else {})
    )
    assert done.status_code == 303, done.text
    return number


def test_the_return_receipt_is_recorded_on_its_mailing_from_the_page(desk):
    clerk = desk.signed_in("ann")
    number = mailed(clerk, ARTICLE)
    page = clerk.get(f"/documents/{number}").text
    assert (
        "Return receipt came back" in page and "Last day to appeal</dt><dd>December 7, 2026" in page
    )
    early = {"mailing": "0", "received": "2026-11-16", "signed_by": "R. Vantine"}
    refused = clerk.post(
        f"/documents/{number}/receipt", data=early | {"csrf_token": token(clerk, number)}
    )
    assert refused.status_code == 400
    assert "Date received: 2026-11-16 is before the mailing (2026-11-17)" in refused.text
    assert 'value="R. Vantine"' in refused.text  # what was typed stays
    card = {"mailing": "0", "received": "2026-11-24", "signed_by": "R. Vantine"}
    done = clerk.post(
        f"/documents/{number}/receipt", data=card | {"csrf_token": token(clerk, number)}
    )
    assert done.status_code == 303, done.text
    page = clerk.get(f"/documents/{number}").text
    # Mailed 11-17 (complete 11-22 without a receipt, last day 12-07); received 11-24:
    # complete 11-24, last day 12-09.
    assert "Last day to appeal</dt><dd>December 9, 2026" in page
    assert "signed by R. Vantine" in page and "Return receipt came back" not in page
    annex = re.search(r'\(<a href="/documents/(RR-[^"]+)">', page).group(1)
    text = " ".join(pdf_text(clerk.get(f"/documents/{annex}/file.pdf").content).split())
    assert "Annex 1 to Affidavit of Service No. AOS-" in text
    assert "Signed by: R. Vantine" in text and "Date of receipt: November 24, 2026" in text


def test_a_returned_mailing_shows_the_person_not_served(desk):
    clerk = desk.signed_in("ann")
    number = mailed(clerk, area=", work area 2")
    back = {"mailing": "0", "date": "2026-11-20", "reason": "unclaimed"}
    done = clerk.post(
        f"/documents/{number}/returned", data=back | {"csrf_token": token(clerk, number)}
    )
    assert done.status_code == 303, done.text
    page = " ".join(clerk.get(f"/documents/{number}?done=returned").text.split())
    assert "Serve again by another means" in page
    assert "<strong>not served</strong>; mailing returned 2026-11-20 (unclaimed)" in page
    assert "Withdrawn until service is complete" in page
    assert "<strong>Returned November 20, 2026 (unclaimed)</strong>: no service" in page
    listed = clerk.get("/documents?name=awaiting-service").text
    assert number in listed


def test_a_notice_drafted_on_the_desk_has_one_last_day_the_registers(desk):
    """One served date, one deadline, one place (LAW.md § 2, print first, serve second):
    the draft of a served kind asks for no service and states no last day; mailed 11-20
    with the receipt signed 11-27, service is complete 11-27 (the later of receipt and
    mailing + 5 = 11-25), day 15 is Saturday 12-12, so the one last day is Monday 12-14."""
    clerk = desk.signed_in("ann")
    where, csrf = start_draft(clerk, "notice-of-violation")
    assert 'name="served.' not in clerk.get(where).text
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    # A service typed anyway (an older draft, a crafted post) is not taken into the case.
    typed_service = {
        "served.date": "2026-11-20",
        "served.means": "mail",
        "served.received": "2026-11-27",
    }
    # The plan is due 12-21 here, so no date on the notice reads as either last day.
    change = {
        "remedies[0].measure": "Stabilize all disturbed soil, work area 3",
        "remedies[1].due": "2026-12-21",
    }
    clerk.post(where, data={**typed, **change, **typed_service, "csrf_token": csrf})
    page = clerk.get(where).text
    assert 'data-figure="offense"' in page  # the figures were computed, with no deadline
    assert 'data-figure="deadline"' not in page and "Last day to appeal" not in page
    preview = " ".join(clerk.get(f"{where}/preview").text.split())
    assert "within 15 days of service" in preview
    assert "December 14" not in preview and "December 10" not in preview
    done = clerk.post(f"{where}/issue", data={"csrf_token": csrf})
    assert done.status_code == 303, clerk.get(where).text
    number = done.headers["location"].rsplit("/", 1)[1]
    assert "Not served yet." in clerk.get(f"/documents/{number}").text
    pdf = " ".join(pdf_text(clerk.get(f"/documents/{number}/file.pdf").content).split())
    assert "December 14" not in pdf and "December 10" not in pdf  # printed before service
    mailing = {**service_form("certified-mail"), "date": "2026-11-20", "received": "2026-11-27"}
    mailing |= {"article": with_check_digit("9589071052700123457" + "02")}
    recorded = clerk.post(
        f"/documents/{number}/service", data=mailing | {"csrf_token": token(clerk, number)}
    )
    assert recorded.status_code == 303, recorded.text
    page = " ".join(clerk.get(f"/documents/{number}").text.split())
    assert "Last day to appeal</dt><dd>December 14, 2026</dd>" in page
    assert "December 10, 2026" not in page
    # Every date on the page after the mailing (not when a record was made) is that day.
    dated = re.sub(r"\(recorded [^)]*\)", "", page)
    later = set(re.findall(r"(?:November 2[1-9]|November 30|December \d{1,2}), 2026", dated))
    # The remedies' own dates are on the page too, where a later date may be granted
    # (LAW.md § 11): they are the notice's schedule, not its service.
    remedies = {
        long_date(date.fromisoformat(day)) for day in (typed["remedies[0].due"], "2026-12-21")
    }
    assert later - remedies == {"November 27, 2026", "December 14, 2026"}, later
