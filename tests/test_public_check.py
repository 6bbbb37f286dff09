"""The public check in Chromium: `docgen serve` over a register where `docgen issue`
(another process) signed and issued a notice; anyone opens /v/NUMBER?code=CODE without
signing in. The right code says genuine, current or superseded; an upload is compared
byte for byte and its signature checked; a wrong code, a missing code and an unknown
number look the same; an address asking too often is refused; every page passes axe."""

from __future__ import annotations

import os
import re
from datetime import date

import httpx
import pytest
from desk_browser import axe_violations
from desk_server import TIMEOUT, start_desk, start_draft, stop_desk, typed_sample
from playwright.sync_api import expect

from docgen.desk.public.public_check import LIMIT
from docgen.signing.check import check_signature
from docgen.signing.keys import PASSPHRASE_ENV
from tests.helpers import pki
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of
from tests.register.test_register_lift import order as stop_work_order

LIFTED_ON = date(2026, 11, 20)  # the stop-work order is issued and served 2026-11-12


@pytest.fixture(scope="module")
def issued(tmp_path_factory):
    """A desk whose municipality signs, with a notice issued and then superseded, a second
    notice current, and a stop-work order served and lifted: {number: (code, pdf)} and the
    desk."""
    home = tmp_path_factory.mktemp("public")
    settings = home / "settings"
    pki.install(settings)
    saved = {k: os.environ.get(k) for k in ("DOCGEN_SETTINGS", PASSPHRASE_ENV)}
    os.environ["DOCGEN_SETTINGS"] = str(settings)
    os.environ[PASSPHRASE_ENV] = pki.PASSPHRASE
    from docgen.register import Issue, Register

    documents = {}
    with Register.open(f"sqlite:///{home / 'docgen.sqlite'}") as register:
        for supersedes in (None, "NOV-2026-0001", None):
            done = register.issue(
                "notice-of-violation", notice(), Issue(supersedes=supersedes), formats=("pdf",)
            )
            pdf = home / f"{done.number}.pdf"
            pdf.write_bytes(done.files["pdf"])
            documents[done.number] = (done.access_code, pdf)
        order = register.issue("stop-work-order", stop_work_order(), formats=("pdf",))
        register.record_service(
            order.number, service_of("personal-delivery", order.issued), formats=()
        )
        register.lift(order.number, LIFTED_ON, formats=())  # a day after its issue date
        documents[order.number] = (order.access_code, None)
    server = start_desk(home)
    yield server, documents
    stop_desk(server)
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture
def page(browser, issued):
    context = browser.new_context(base_url=issued[0].url)
    page = context.new_page()
    yield page
    context.close()


def test_the_right_code_says_genuine_and_current(page, issued):
    code, _ = issued[1]["NOV-2026-0002"]
    page.goto(f"/v/NOV-2026-0002?code={code}")
    expect(page.locator("h1")).to_have_text("Notice of violation No. NOV-2026-0002")
    expect(page.locator("#genuine")).to_contain_text("The Village of Homer issued this document")
    expect(page.locator("#status")).to_have_text("Current: not superseded")
    body = page.locator("main").inner_text()
    assert "November 16, 2026" in body and "signed electronically" in body
    # nothing of the case: not the respondent, the site, the violations
    assert "Tioughnioga" not in body and "Route 11" not in body and "Stabilize" not in body
    assert axe_violations(page) == []


def test_a_superseded_document_names_its_correction(page, issued):
    code, _ = issued[1]["NOV-2026-0001"]
    page.goto(f"/v/NOV-2026-0001?code={code.lower()}")
    expect(page.locator("#status")).to_have_text(
        "Superseded: replaced by a corrected document, No. NOV-2026-0002"
    )


def test_a_lifted_order_says_so_and_by_which_notice(page, issued):
    code, _ = issued[1]["SWO-2026-0001"]
    page.goto(f"/v/SWO-2026-0001?code={code}")
    expect(page.locator("#status")).to_have_text(
        "Lifted: no longer in effect, lifted by written notice No. SWL-2026-0001 "
        "as of November 20, 2026"
    )
    assert axe_violations(page) == []


def test_a_lifted_orders_lifting_is_stated_with_its_number_and_date_and_nothing_else(issued):
    """Issue 28, item 2: the public check states the lifting as `docgen verify` does (its
    number and the day it lifts the order as of, LAW.md § 3), over HTTP; it shows no
    service fact today, so none is added, and nothing of the case: no person, no site."""
    desk, documents = issued
    code, _ = documents["SWO-2026-0001"]
    with httpx.Client(base_url=desk.url, timeout=TIMEOUT) as client:
        answer = client.get("/v/SWO-2026-0001", params={"code": code})
    assert answer.status_code == 200
    text = " ".join(re.sub(r"<[^>]+>", " ", answer.text).split())
    assert (
        "Lifted: no longer in effect, lifted by written notice No. SWL-2026-0001 as of "
        "November 20, 2026" in text
    )
    assert "Issued November 12, 2026" in text  # the order's own date, beside the lifting's
    for private in ("Cayuga Street Holdings", "Tioughnioga", "120 Cayuga", "Luis Ortega"):
        assert private not in text
    assert "served" not in text.lower() and "appeal" not in text.lower()


def test_an_upload_is_compared_byte_for_byte_and_its_signature_checked(page, issued, tmp_path):
    code, pdf = issued[1]["NOV-2026-0002"]
    page.goto(f"/v/NOV-2026-0002?code={code}")
    page.get_by_label("Your copy").set_input_files(str(pdf))
    page.get_by_role("button", name="Compare").click()
    result = page.locator("#result")
    expect(result).to_contain_text("Identical.")
    expect(result).to_contain_text("Its signature is valid: signed by")
    assert axe_violations(page) == []
    changed = tmp_path / "changed.pdf"
    changed.write_bytes(pdf.read_bytes() + b"%% appended\n")
    page.get_by_label("Your copy").set_input_files(str(changed))
    page.get_by_role("button", name="Compare").click()
    expect(result).to_contain_text("Not the issued file.")
    _, other_pdf = issued[1]["NOV-2026-0001"]
    page.get_by_label("Your copy").set_input_files(str(other_pdf))
    page.get_by_role("button", name="Compare").click()
    expect(result).to_contain_text("Not the issued file.")  # another document, though genuine


def test_a_wrong_or_missing_code_reveals_nothing(page, issued):
    page.goto("/v/NOV-2026-0002")
    expect(page.get_by_label("Access code")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_label("Access code").fill("2222-3333-4444")
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("alert")).to_contain_text("No document matches")
    assert axe_violations(page) == []
    client = httpx.Client(base_url=issued[0].url, timeout=TIMEOUT)
    wrong = client.get("/v/NOV-2026-0002", params={"code": "2222-3333-4444"})
    unknown = client.get("/v/NOV-2026-0999", params={"code": "2222-3333-4444"})
    assert wrong.status_code == unknown.status_code == 404
    assert wrong.text.replace("0002", "0999") == unknown.text
    assert "Notice" not in wrong.text and "Homer" not in wrong.text
    missing = client.get("/v/NOV-2026-0002")
    assert missing.text.replace("0002", "0999") == client.get("/v/NOV-2026-0999").text
    client.close()


def test_the_desk_signs_what_a_clerk_issues(issued):
    desk, _ = issued
    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    typed.pop("number", None)
    assert clerk.post(where, data={**typed, "csrf_token": token}).status_code == 303
    made = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert made.status_code == 303, made.text
    pdf = clerk.get(f"{made.headers['location']}/file.pdf").content
    report = check_signature(pdf, desk.home / "settings" / "keys" / "root.pem")
    assert report.valid, report.lines()
    text = " ".join(pdf_text(pdf).split())
    number = re.search(r"Number: (\S+)\. Access code", text).group(1)
    code = re.search(r"Access code: ([A-Z0-9-]{14})", text).group(1)
    checked = httpx.get(f"{desk.url}/v/{number}", params={"code": code}, timeout=TIMEOUT)
    assert checked.status_code == 200 and "Genuine." in checked.text


def test_the_server_refuses_an_address_over_the_limit(issued):
    # Every check from this test's address counts; a fresh desk process would be needed
    # to start from zero, so count what the earlier tests used and go past the limit.
    client = httpx.Client(base_url=issued[0].url, timeout=TIMEOUT)
    statuses = [client.get("/v/NOV-2026-0005").status_code for _ in range(LIMIT + 1)]
    assert statuses[-1] == 429
    refused = client.get("/v/NOV-2026-0002")
    assert refused.status_code == 429 and refused.headers["retry-after"] == "600"
    assert "Too many checks" in refused.text
    client.close()


def test_no_access_code_reaches_the_server_log(issued):
    desk, documents = issued
    log = (desk.home / "desk.log").read_text()
    assert "GET /v/NOV-2026-0002?code=**** HTTP/1.1" in log
    for code, _ in documents.values():
        assert code not in log and code.lower() not in log


def test_the_refusal_passes_axe(page):
    page.goto("/v/NOV-2026-0002")  # this address is over the limit by now
    expect(page.locator("h1")).to_have_text("Too many checks")
    assert axe_violations(page) == []
