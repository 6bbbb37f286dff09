"""The contractors' own certifications, round trip in Chromium against a real `docgen serve`
whose municipality signs and sends mail through a local SMTP server (aiosmtpd) the test
starts: the clerk adds a site and invites two firms (one by e-mail, one by a link shown to
hand over); the first signs electronically on a phone-sized page, the second on paper and
uploads the scan; the clerk sees both signed; `docgen verify` says genuine for both and
names signer, firm and site; a tampered statement, a bad upload and every link that does
not work are refused; axe finds nothing serious on any page."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from email import message_from_bytes

import httpx
import pytest
from desk_browser import axe_violations, sign_in
from desk_server import docgen, free_port, start_desk, stop_desk
from playwright.sync_api import expect

from docgen.desk.public.certify_public import MISSES
from docgen.signing.keys import PASSPHRASE_ENV
from tests.helpers import pki

PHONE = {"width": 390, "height": 844}
LINK = re.compile(r"https://homer\.example\.gov/certify/([A-Za-z0-9_-]{40,})")


class Mailbox:
    """What the local SMTP server received."""

    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


@pytest.fixture(scope="module")
def portal(tmp_path_factory):
    from aiosmtpd.controller import Controller

    mailbox = Mailbox()
    port = free_port()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=port)
    smtp.start()
    home = tmp_path_factory.mktemp("certify")
    settings = home / "settings"
    extra = (
        f"smtp:\n  host: 127.0.0.1\n  port: {port}\n"
        "  from: Village of Homer <clerk@homer.example.gov>\n  starttls: false\n"
    )
    pki.install(settings, extra=extra)
    saved = {k: os.environ.get(k) for k in ("DOCGEN_SETTINGS", PASSPHRASE_ENV)}
    os.environ["DOCGEN_SETTINGS"] = str(settings)
    os.environ[PASSPHRASE_ENV] = pki.PASSPHRASE
    desk = start_desk(home)
    yield desk, mailbox
    stop_desk(desk)
    smtp.stop()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def clean(page) -> None:
    assert axe_violations(page) == [], page.url


def fill_firm(page, street: str, phone: str, signer: str, title: str) -> int:
    """The firm's fields as a contractor types them; how many were typed."""
    page.get_by_label("Street", exact=True).fill(street)
    page.get_by_label("City", exact=True).fill("Cortland")
    page.get_by_label("State", exact=True).fill("NY")
    page.get_by_label("ZIP code", exact=True).fill("13045")
    page.get_by_label("Telephone", exact=True).fill(phone)
    page.get_by_label("Signer's full name", exact=True).fill(signer)
    page.get_by_label("Signer's title", exact=True).fill(title)
    page.get_by_label("Trained contractor", exact=True).fill("Pat Lee")
    page.get_by_label("Date of most recent training", exact=True).fill("2025-03-01")
    page.get_by_label("Practices your firm is responsible for", exact=True).fill(
        "silt fence\nstabilized construction entrance"
    )
    return 10


def test_two_firms_certify_and_the_clerk_sees_both(browser, portal, tmp_path):
    desk, mailbox = portal
    clerk_typed = 0
    clerk = browser.new_context(base_url=desk.url)
    page = clerk.new_page()
    sign_in(page, "ann")
    page.get_by_role("link", name="Certifications").click()
    clean(page)
    page.get_by_label("Project", exact=True).fill("Elm Street Subdivision")
    page.get_by_label("Street", exact=True).fill("12 Elm Street")
    page.get_by_label("City", exact=True).fill("Homer")
    page.get_by_label("ZIP code", exact=True).fill("13077")
    clerk_typed += 4
    page.get_by_role("button", name="Add the site").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Elm Street Subdivision")
    clean(page)
    site_url = page.url

    page.get_by_label("Firm", exact=True).fill("Acme Earthworks LLC")
    page.get_by_label("E-mail address", exact=True).fill("office@acme.example")
    clerk_typed += 2
    page.get_by_role("button", name="Invite").click()
    expect(page.locator("p.done")).to_contain_text("e-mailed to Acme Earthworks LLC")
    page.get_by_label("Firm", exact=True).fill("Beta Paving Inc")
    clerk_typed += 1
    page.get_by_role("button", name="Invite").click()
    handed = page.locator("#handed-link").inner_text()
    expect(page.get_by_role("img", name="QR code of the link for Beta Paving Inc")).to_be_visible()
    clean(page)
    assert len(mailbox.messages) == 1
    mail = mailbox.messages[0]
    assert mail["To"] == "office@acme.example"
    acme = LINK.search(mail.get_payload(decode=True).decode()).group(1)
    beta = LINK.search(handed).group(1)

    # Acme signs electronically on a phone: a first try with no signature is refused by label.
    phone = browser.new_context(base_url=desk.url, viewport=PHONE)
    firm = phone.new_page()
    firm.goto(f"/certify/{acme}")
    expect(firm.get_by_role("heading", level=1)).to_have_text(
        "Certification for Acme Earthworks LLC"
    )
    expect(firm.locator("#statement")).to_contain_text("implement any corrective actions")
    clean(firm)
    assert firm.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    typed = fill_firm(firm, "1 Main Street", "6075551234", "Jo Smith", "President")
    firm.get_by_role("button", name="Sign electronically").click()
    alert = firm.get_by_role("alert")
    expect(alert).to_contain_text("Signature:")
    expect(alert).to_contain_text("I intend to sign electronically:")
    expect(firm.get_by_label("Street", exact=True)).to_have_value("1 Main Street")
    clean(firm)
    firm.get_by_label("Signature", exact=True).fill("Jo Smith")
    firm.get_by_label("I intend this typed name").check()
    typed += 1
    firm.get_by_role("button", name="Sign electronically").click()
    number_a = firm.locator("#number").inner_text()
    clean(firm)
    assert firm.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with firm.expect_download() as got:
        firm.get_by_role("link", name="Download your certification (PDF)").click()
    signed_a = tmp_path / "acme.pdf"
    got.value.save_as(signed_a)
    contractor_pages_a = 2  # the form (shown again once with its errors) and the receipt
    assert typed == 11

    # Beta signs on paper and uploads the scan.
    paper = browser.new_context(base_url=desk.url)
    firm = paper.new_page()
    firm.goto(f"/certify/{beta}")
    fill_firm(firm, "9 Oak Avenue", "6075559876", "Lee Park", "Site Superintendent")
    firm.get_by_role("button", name="Sign on paper instead").click()
    expect(firm.get_by_role("heading", level=1)).to_have_text("Sign on paper")
    clean(firm)
    with firm.expect_download() as got:
        firm.get_by_role("button", name="Download the filled form (PDF)").click()
    form_pdf = tmp_path / "form.pdf"
    got.value.save_as(form_pdf)
    (tmp_path / "scan.txt").write_text("not a scan")
    firm.get_by_label("Signed scan", exact=True).set_input_files(str(tmp_path / "scan.txt"))
    firm.get_by_role("button", name="Upload the signed form").click()
    expect(firm.get_by_role("alert")).to_contain_text("Signed scan: not a PDF, PNG or JPEG")
    clean(firm)
    firm.get_by_label("Signed scan", exact=True).set_input_files(str(form_pdf))
    firm.get_by_role("button", name="Upload the signed form").click()
    number_b = firm.locator("#number").inner_text()
    with firm.expect_download() as got:
        firm.get_by_role("link", name="Download your certification (PDF)").click()
    signed_b = tmp_path / "beta.pdf"
    got.value.save_as(signed_b)
    assert number_a != number_b

    # The clerk sees both at once, and the SWPPP's set downloads as one PDF.
    page.goto(site_url)
    rows = page.get_by_role("row")
    expect(rows.filter(has_text="Acme Earthworks LLC")).to_contain_text(
        f"by Jo Smith, President (electronically): {number_a}"
    )
    expect(rows.filter(has_text="Beta Paving Inc")).to_contain_text("(on paper)")
    clean(page)
    with page.expect_download() as got:
        page.get_by_role("link", name=re.compile("Download the SWPPP")).click()
    from pypdf import PdfReader

    joined = PdfReader(got.value.path())
    text = " ".join(p.extract_text() for p in joined.pages)
    assert "Acme Earthworks LLC" in text and "Beta Paving Inc" in text

    # verify: genuine, signed, naming the signer, firm and site.
    for path, signer, firm_name in (
        (signed_a, "Jo Smith", "Acme Earthworks LLC"),
        (signed_b, "Lee Park", "Beta Paving Inc"),
    ):
        done = docgen(desk.home, "verify", str(path))
        assert done.returncode == 0, done.stdout + done.stderr
        assert "signature: valid" in done.stdout
        assert f"certified by {signer}" in done.stdout and firm_name in done.stdout
        assert "12 Elm Street" in done.stdout
    # The public check, from the code the certification prints: genuine, naming them.
    printed = " ".join(page.extract_text() for page in PdfReader(signed_a).pages)
    code = re.search(r"Access code: ([A-Z0-9-]{14})", printed).group(1)
    page.goto(f"/v/{number_a}?code={code}")
    expect(page.locator("#genuine")).to_contain_text("Genuine")
    expect(page.locator("#certified")).to_contain_text(
        "Certified by Jo Smith, President for Acme Earthworks LLC at 12 Elm Street"
    )
    clean(page)
    with sqlite3.connect(desk.home / "docgen.sqlite") as db:
        scans = db.execute(
            "select f.format, f.sha256 from document_files f join documents d "
            "on d.id = f.document_id where d.number = ?",
            (number_b,),
        ).fetchall()
    assert ("scan.pdf", hashlib.sha256(form_pdf.read_bytes()).hexdigest()) in scans
    print(
        f"\nclerk: {clerk_typed} fields typed, 2 pages (certifications, the site's page); "
        f"contractor (electronic): {typed} fields typed and a box ticked, "
        f"{contractor_pages_a} pages; contractor (paper): 10 fields and a file, 3 pages"
    )
    for context in (clerk, phone, paper):
        context.close()


def test_links_that_do_not_work_look_alike_and_tampering_records_nothing(browser, portal):
    desk, _ = portal
    place = ("--project", "Mill Pond", "--description", "Tax map 12.3-4-5")
    made = docgen(desk.home, "certify", "site", "--jurisdiction", "homer", *place)
    assert made.returncode == 0, made.stderr
    site = re.search(r"site (\d+)", made.stdout).group(1)
    invited = docgen(desk.home, "certify", "invite", site, "--firm", "Gamma Grading")
    token = re.search(r"/certify/([A-Za-z0-9_-]+)", invited.stdout).group(1)
    with httpx.Client(base_url=desk.url) as client:
        page = client.get(f"/certify/{token}")
        assert page.status_code == 200
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
        fields = {
            "csrf_token": csrf,
            "statement": "0" * 64,  # not the hash of the law's statement
            "role": "contractor",
            "address.street": "3 Pine Road",
            "address.city": "Dryden",
            "address.state": "NY",
            "address.zip": "13053",
            "phone": "6075550000",
            "signer.name": "Sam Roe",
            "signer.title": "Owner",
            "responsibilities": "silt fence",
            "signature": "Sam Roe",
            "intent": "yes",
            "action": "electronic",
        }
        refused = client.post(f"/certify/{token}", data=fields)
        assert refused.status_code == 400
        assert "Certification statement: the statement sent is not the one" in refused.text
        invisible = client.post(
            f"/certify/{token}", data={**fields, "signer.name": "\u200b", "statement": ""}
        )
        assert (
            "Signer&#39;s full name:" in invisible.text or "Signer's full name:" in invisible.text
        )
        trained = {"trained_contractor.name": "Al", "trained_contractor.trained": "2099-01-01"}
        future = client.post(f"/certify/{token}", data={**fields, **trained})
        assert future.status_code == 400 and "Date of most recent training:" in future.text
        forged = client.post(f"/certify/{token}", data={**fields, "csrf_token": "x" * 43})
        assert forged.status_code == 403
    listed = docgen(desk.home, "certify", "list", site)
    assert "Gamma Grading  opened" in listed.stdout  # nothing recorded
    revoked_id = re.search(r"invitation (\d+)", invited.stdout).group(1)
    assert docgen(desk.home, "certify", "revoke", revoked_id).returncode == 0
    context = browser.new_context(base_url=desk.url)
    page = context.new_page()
    bodies = []
    for guess in (token, "a" * 43):
        page.goto(f"/certify/{guess}")
        bodies.append(page.locator("main").inner_text())
        clean(page)
    assert bodies[0] == bodies[1] and "This link is not valid" in bodies[0]
    assert "Ask the Village or Town office" in bodies[0]
    # Guessing is cut short per address: after MISSES links that do not work, 429.
    with httpx.Client(base_url=desk.url) as client:
        answers = [client.get(f"/certify/guess{n:040d}").status_code for n in range(MISSES)]
    assert answers[-1] == 429 and set(answers) <= {404, 429}
    page.goto("/certify/" + "b" * 43)
    expect(page.get_by_role("heading", level=1)).to_have_text("Too many tries")
    clean(page)
    context.close()


def test_the_file_pages_are_bounded(portal):
    desk, _ = portal
    with httpx.Client(base_url=desk.url) as client:
        huge = client.post("/certify/abc", content=b"x" * (21 * 1024 * 1024))
    assert huge.status_code == 413
