"""One register holding two municipalities whose documents are numbered alike: Homer's
and Macedon's maintenance easements are both ME-YYYY-0001 (each municipality numbers its
own series). Through a real `docgen serve`, each is reached by an address naming its
municipality (the redirect after issuing it, its page, its files), the bare number offers
both to choose from, and an action taken on one (a correction) never touches the other;
a number only one municipality holds keeps its bare address."""

from __future__ import annotations

import re

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import csrf_of, serving, start_draft, typed_sample
from playwright.sync_api import expect

from docgen.register import Register

PHONE = {"width": 390, "height": 844}
KIND = "maintenance-easement"  # numbered alike in Homer and Macedon (ME-YYYY-NNNN)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the register's easements (each
    # municipality's first is ME-YYYY-0001).
    yield from serving(tmp_path_factory)


def issue(client, jurisdiction: str, sample: str, changes: dict | None = None) -> str:
    """The address the desk sends the clerk to after issuing a sample case."""
    where, token = start_draft(client, KIND, jurisdiction)
    _, typed = typed_sample(KIND, sample)
    client.post(where, data={**typed, **(changes or {}), "csrf_token": token})
    done = client.post(f"{where}/issue", data={"csrf_token": token})
    assert done.status_code == 303, client.get(where).text
    return done.headers["location"]


def test_documents_two_municipalities_number_alike_are_each_reached(desk):
    attorney = desk.signed_in("ada")
    homer_first = issue(attorney, "homer", "homer-individual")
    number = homer_first.rsplit("/", 1)[1]
    assert re.fullmatch(r"/documents/ME-\d{4}-0001", homer_first)  # unshared: the bare number
    macedon = issue(attorney, "macedon", "macedon-individual")
    assert macedon == f"/documents/{number}?jurisdiction=macedon"
    homer = f"/documents/{number}?jurisdiction=homer"

    with Register.open(desk.database) as register:
        stored = {j: register.files(number, j) for j in ("homer", "macedon")}
    for address, jurisdiction, other in (
        (homer, "homer", "Macedon"),
        (macedon, "macedon", "Homer"),
    ):
        page = attorney.get(address)
        assert page.status_code == 200, page.text
        assert f'{number} <span class="sub">Maintenance' in page.text
        assert (
            f", {jurisdiction.capitalize()}</span>" in page.text
            and f"{other}</span>" not in page.text
        )
        base, query = address.split("?")
        for fmt in ("pdf", "docx", "html"):
            link = f"{base}/file.{fmt}?{query}"
            assert f'href="{link}"' in page.text  # the page's own links name it too
            served = attorney.get(link)
            assert served.status_code == 200 and served.content == stored[jurisdiction][fmt]
        assert stored["homer"]["pdf"] != stored["macedon"]["pdf"]

    # The bare number: both offered, in the desk's words (not a 404, not a guess).
    for bare in (f"/documents/{number}", f"/documents/{number}/file.pdf"):
        offered = attorney.get(bare)
        assert offered.status_code == 300, offered.text
        assert "which municipality" in offered.text and "numbered alike" in offered.text
        tail = bare.removeprefix(f"/documents/{number}")
        for jurisdiction in ("homer", "macedon"):
            assert f'href="/documents/{number}{tail}?jurisdiction={jurisdiction}"' in offered.text

    # An action posted to the bare number does nothing; posted to Macedon's, it acts on
    # Macedon's alone: a correction supersedes it, and Homer's stays in effect.
    token = csrf_of(attorney.get(macedon).text)
    refused = attorney.post(f"/documents/{number}/correct", data={"csrf_token": token})
    assert refused.status_code == 300 and "Nothing was recorded or issued" in refused.text
    draft = attorney.post(
        f"/documents/{number}/correct?jurisdiction=macedon", data={"csrf_token": token}
    )
    assert draft.status_code == 303, draft.text
    where = draft.headers["location"]
    assert f'href="{macedon}"' in attorney.get(where).text.replace("&amp;", "&")
    _, typed = typed_sample(KIND, "macedon-individual")
    fixed = {**typed, "_supersedes": number, "project.name": "Whitbeck Residence, corrected"}
    attorney.post(where, data={**fixed, "csrf_token": token})
    corrected = attorney.post(f"{where}/issue", data={"csrf_token": token})
    assert corrected.status_code == 303, attorney.get(where).text
    new = corrected.headers["location"]
    assert re.fullmatch(r"/documents/ME-\d{4}-0002", new)  # Macedon's alone: bare
    with Register.open(desk.database) as register:
        assert register.document(number, "macedon").superseded_by == new.rsplit("/", 1)[1]
        assert register.document(number, "homer").superseded_by is None
        assert register.document(new.rsplit("/", 1)[1]).jurisdiction == "macedon"
    assert "Superseded by" in attorney.get(macedon).text
    assert "Superseded by" not in attorney.get(homer).text


def test_the_choice_of_a_shared_number_fits_a_phone_and_is_axe_clean(browser, desk):
    """The page a bare shared number opens is a desk page like the others: at phone width
    it does not scroll sideways, axe-core finds nothing at any impact, and each choice
    leads to its municipality's document."""
    attorney = desk.signed_in("ada")
    addresses = [issue(attorney, where, f"{where}-individual") for where in ("homer", "macedon")]
    shared = next(a for a in addresses if "?jurisdiction=" in a)  # the later of a pair
    bare = shared.split("?")[0]
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    page = context.new_page()
    try:
        sign_in(page, "ada")
        page.goto(bare)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert axe_violations(page) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the choice scrolls sideways ({width}px)"
        page.locator(f'a[href="{bare}?jurisdiction=macedon"]').first.click()
        expect(page).to_have_url(re.compile(re.escape(f"{bare}?jurisdiction=macedon") + "$"))
        expect(page.get_by_text("Macedon").first).to_be_visible()
    finally:
        context.close()
