"""What comes back after mailing, on the desk (LAW.md § 2), over HTTP against a real
`docgen serve`: "Return receipt came back" on a document's page records the receipt on its
mailing (the deadline moves later, the annex to the affidavit is issued and linked), and a
mailing returned undelivered shows the person as not served and the deadline withdrawn."""

from __future__ import annotations

import re

import pytest
from desk_server import csrf_of, serving
from test_desk_actions import issued, text_of

from docgen.cases.mail import with_check_digit

ARTICLE = with_check_digit("9589071052700123456" + "91")


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    yield from serving(tmp_path_factory)


def token(clerk, number: str) -> str:
    return csrf_of(clerk.get(f"/documents/{number}").text)


def mailed(clerk, article: str | None = None, area: str = "") -> str:
    """A notice issued (a case of its own: ``area`` names its remedy's work area) and mailed
    by certified mail on 2026-11-17."""
    change = {"remedies[0].measure": f"Stabilize all disturbed soil{area}"}
    number = issued(clerk, "notice-of-violation", "homer-first-offense", change)
    token = csrf_of(clerk.get(f"/documents/{number}").text)
    form = {"method": "certified-mail", "date": "2026-11-17", "csrf_token": token}
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
    text = " ".join(text_of(clerk.get(f"/documents/{annex}/file.pdf").content).split())
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
