"""The desk in a real browser: a clerk fills in a notice, the law answers, keyboard only
where it matters, axe-core on every page, each role refused where it may not go."""

from __future__ import annotations

import io
import re

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import PASSWORD, start_desk, stop_desk
from playwright.sync_api import expect
from pypdf import PdfReader


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the records near a respondent's name
    # (two answers) and sets a respondent's preferred language.
    server = start_desk(tmp_path_factory.mktemp("desk"))
    yield server
    stop_desk(server)


@pytest.fixture
def page(browser, desk):
    context = browser.new_context(base_url=desk.url, accept_downloads=True)
    page = context.new_page()
    page.csp_errors = []
    page.on(
        "console",
        lambda m: page.csp_errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    yield page
    assert page.csp_errors == []
    context.close()


def start(page, kind_title: str, jurisdiction: str = "Village of Homer") -> None:
    page.goto("/drafts")
    page.get_by_label("Kind of document").select_option(label=kind_title)
    page.get_by_label("Municipality").select_option(label=jurisdiction)
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+$"))


def fill_notice_without_remedies(page) -> None:
    fill = {
        "f-issued": "2026-11-10",
        "f-officer-name": "Dana R. Whitcomb",
        "f-officer-title": "Code Enforcement Officer",
        "f-recipient-name": "Albany Street Partners LP",
        "f-recipient-address-street": "200 Main Street",
        "f-recipient-address-city": "Cortland",
        "f-recipient-address-state": "NY",
        "f-recipient-address-zip": "13045",
        "f-site-description": "Vacant lot east of Route 11",
        "f-violations-0-provision": "§ 228-78B(1)",
        "f-violations-0-nature": "Land disturbed without an approved SWPPP",
        "f-violations-0-observed": "2026-11-06",
    }
    for id_, value in fill.items():
        page.locator(f"#{id_}").fill(value)
    page.locator("#f-recipient-role").select_option("landowner")


def test_a_clerk_fills_in_a_notice_and_the_law_answers(page):
    sign_in(page, "ann")
    assert axe_violations(page) == []
    start(page, "Notice of violation")
    assert axe_violations(page) == []
    fill_notice_without_remedies(page)
    page.get_by_role("button", name="Save and check").click()

    # the missing element beside its field, in the summary, and focus on the first error
    remedies_error = page.locator("#f-remedies-error")
    expect(remedies_error).to_contain_text("missing (d)")
    expect(remedies_error).to_contain_text("§ 228-79C(1)(d)")
    expect(page.locator("#error-summary")).to_contain_text("Remedies: missing (d)")
    expect(page.locator("#f-remedies-0-measure")).to_be_focused()
    assert axe_violations(page) == []

    # the figures the law computes: a first offense and its penalty; no last day to appeal
    # before service is recorded on the issued notice (LAW.md § 2: print first, serve second)
    expect(page.locator("[data-figure=deadline]")).to_have_count(0)
    expect(page.locator("[data-figure=offense]")).to_have_text("1")
    expect(page.locator("[data-figure=penalty]")).to_have_text("$0.00 to $350.00")

    # fixing it: the error goes when the field is left, and the screen reader is told
    page.locator("#f-remedies-0-measure").fill("Stabilize all disturbed soil")
    page.locator("#f-remedies-0-due").fill("2026-11-23")
    page.keyboard.press("Tab")
    expect(page.locator("#announce")).to_have_text("The law's checks pass.")
    expect(remedies_error).to_be_empty()
    expect(page.locator("#error-summary")).to_have_count(0)

    # a wrong date is caught when the field is left, beside the field
    page.locator("#f-remedies-0-due").fill("2026-11-01")
    page.keyboard.press("Tab")
    due_error = page.locator("#f-remedies-0-due-error")
    expect(due_error).to_contain_text("before the issue date")
    expect(page.locator("#f-remedies-0-due")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#announce")).to_contain_text("1 problem")

    # nothing is lost on a reload
    page.reload()
    expect(page.locator("#f-remedies-0-due")).to_have_value("2026-11-01")
    expect(page.locator("#f-recipient-name")).to_have_value("Albany Street Partners LP")

    # the preview shows the document once the checks pass
    page.locator("#f-remedies-0-due").fill("2026-11-23")
    page.keyboard.press("Tab")
    expect(page.locator("#announce")).to_have_text("The law's checks pass.")
    frame = page.frame_locator("#preview-frame iframe")
    expect(frame.locator("body")).to_contain_text("Albany Street Partners LP")
    expect(frame.locator("body")).to_contain_text("within 15 days of service")


def test_a_notice_is_issued_served_found_and_verified(page, desk, tmp_path):
    sign_in(page, "otto")
    start(page, "Notice of violation")
    fill_notice_without_remedies(page)
    page.locator("#f-remedies-0-measure").fill("Install silt fence along the brook")
    page.locator("#f-remedies-0-due").fill("2026-11-20")
    page.keyboard.press("Tab")
    expect(page.locator("#announce")).to_have_text("The law's checks pass.")
    page.get_by_role("button", name=re.compile("^Issue")).click()

    # numbered and recorded; the files are the stored bytes
    expect(page).to_have_url(re.compile(r"/documents/NOV-\d{4}-\d{4}$"))
    number = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("heading", level=1)).to_contain_text(number)
    assert axe_violations(page) == []
    with page.expect_download() as pdf_download:
        page.get_by_role("link", name="Download PDF").click()
    pdf = pdf_download.value.path().read_bytes()
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert f"Notice of Violation No. {number}" in re.sub(r"\s+", " ", text)
    words = " ".join(text.split())
    assert "Albany Street Partners LP" in words and "within 15 days of service" in words
    with page.expect_download() as docx_download:
        page.get_by_role("link", name="Download DOCX").click()
    assert docx_download.value.path().read_bytes()[:2] == b"PK"
    from docgen.register import Register
    from docgen.register.matter import issuing

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        assert register.files(number)["pdf"] == pdf

    # awaiting service, then served today: the appeal period is running
    page.goto("/documents?filter=awaiting-service")
    expect(page.get_by_role("link", name=number)).to_be_visible()
    page.get_by_role("link", name=number).click()
    page.get_by_label("Method").select_option("certified-mail")
    # today in the Village (the register refuses a service dated after it; the machine's
    # date runs a day ahead from 7 p.m. Eastern)
    page.get_by_label("Date of service (or mailing)").fill(issuing.today().isoformat())
    page.get_by_label("Served by (their name)").fill("Dana R. Whitcomb")
    # certified mail chosen: its article number and return receipt are shown, not folded
    page.get_by_label("Certified-mail article number").fill("9589 0710 5270 0123 4567 81")
    page.get_by_role("button", name="Record service").click()
    expect(page.get_by_role("status").first).to_have_text("Service recorded.")
    expect(page.locator("table").first).to_contain_text("9589 0710 5270 0123 4567 81")
    expect(page.get_by_text("Affidavit of service:")).to_be_visible()  # produced by service
    page.goto("/documents?filter=appeal-running")
    expect(page.get_by_role("link", name=number)).to_be_visible()
    page.goto("/documents?filter=awaiting-service")
    expect(page.get_by_role("link", name=number)).to_have_count(0)
    assert axe_violations(page) == []

    # the respondent's history, and a new notice started from it
    page.goto(f"/documents/{number}")
    page.get_by_role("link", name="Albany Street Partners LP").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Albany Street Partners LP")
    expect(page.get_by_role("link", name=number).first).to_be_visible()
    assert axe_violations(page) == []
    # the language they prefer (LAW.md § 13): a language docgen has no copy in is refused
    # beside the field (a value no option offers, as a forged form would send it)
    language = page.get_by_label("Preferred language")
    language.evaluate("s => { s.options[0].value = 'tlh'; s.selectedIndex = 0; }")
    page.get_by_role("button", name="Save the preferred language").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "'tlh' is not a language courtesy copies are issued in"
    )
    expect(page.get_by_label("Preferred language")).to_have_attribute("aria-invalid", "true")
    assert axe_violations(page) == []
    page.get_by_label("Preferred language").select_option(label="Spanish: a courtesy copy too")
    page.get_by_role("button", name="Save the preferred language").click()
    expect(page.get_by_role("status").first).to_have_text("Preferred language saved.")
    expect(page.get_by_text("Preferred language: Spanish (es)")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_role("button", name=re.compile("^Start a notice")).click()
    expect(page.locator("#f-recipient-name")).to_have_value("Albany Street Partners LP")
    expect(page.locator("#f-recipient-address-zip")).to_have_value("13045")

    # verify: the PDF as issued, then with one byte added
    page.goto("/verify")
    assert axe_violations(page) == []
    issued_pdf = tmp_path / "issued.pdf"
    issued_pdf.write_bytes(pdf)
    page.get_by_label(re.compile("^File to verify")).set_input_files(str(issued_pdf))
    page.get_by_role("button", name="Verify", exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text("Issued by this register: ")
    expect(page.get_by_role("status").first).to_contain_text(number)
    altered = tmp_path / "altered.pdf"
    altered.write_bytes(pdf + b"%")  # one byte more
    page.get_by_label(re.compile("^File to verify")).set_input_files(str(altered))
    page.get_by_role("button", name="Verify", exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text("Not issued by this register")


def test_a_near_match_is_never_merged_silently(page):
    """A second notice to a similar name at another address: the clerk chooses, with
    nothing preselected, each answer's penalty beside it and shown before (issue 28,
    item 6: no one penalty while the question is open)."""
    sign_in(page, "ann")
    for name, street in (
        ("Tioughnioga Ridge Development LLC", "41 Route 281"),
        ("Tioughnioga Ridge Development, L.L.C.", "9 Water Street"),
    ):
        start(page, "Notice of violation")
        fill_notice_without_remedies(page)
        page.locator("#f-recipient-name").fill(name)
        page.locator("#f-recipient-address-street").fill(street)
        page.locator("#f-remedies-0-measure").fill("Install silt fence")
        page.locator("#f-remedies-0-due").fill("2026-11-20")
        page.keyboard.press("Tab")
        expect(page.locator("#announce")).to_have_text("The law's checks pass.")
        if street == "9 Water Street":  # the question is open: each answer, no one figure
            expect(page.locator("[data-question]")).to_be_visible()
            expect(page.locator("[data-figure=penalty]")).to_have_count(0)
            expect(page.locator('#figures [data-penalty="new"]')).to_have_text("$0.00 to $350.00")
        page.get_by_role("button", name=re.compile("^Issue")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Which respondent is this?")
    assert axe_violations(page) == []
    radios = page.get_by_role("radio")
    expect(radios).to_have_count(2)
    for i in range(2):
        expect(radios.nth(i)).not_to_be_checked()  # the clerk must choose
    expect(page.locator('[data-offense="new"]')).to_have_text("1")
    page.get_by_role("button", name="Issue").click()  # no answer: asked again, nothing issued
    expect(page.get_by_role("alert")).to_contain_text(
        "Respondent: choose one of the records, or a new respondent"
    )
    assert axe_violations(page) == []
    page.get_by_label("A different, new respondent").check()
    page.get_by_role("button", name="Issue").click()
    expect(page).to_have_url(re.compile(r"/documents/NOV-\d{4}-\d{4}$"))
    expect(page.get_by_role("link", name="Tioughnioga Ridge Development, L.L.C.")).to_be_visible()


def test_rows_are_added_and_removed_with_the_keyboard(page):
    sign_in(page, "otto")
    start(page, "Notice of violation")
    add = page.get_by_role("button", name="Add another remedy")
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#f-remedies-1-measure")).to_be_visible()
    page.locator("#f-remedies-1-measure").fill("Second measure")
    page.get_by_role("button", name="Remove remedy 1").press("Enter")
    expect(page.locator("#f-remedies-0-measure")).to_have_value("Second measure")
    expect(page.locator("#f-remedies-1-measure")).to_have_count(0)


def test_sign_in_by_keyboard_alone(page):
    page.goto("/login")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to main content")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("User name")).to_be_focused()
    page.keyboard.type("ann")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/documents$"))


def test_wrong_password_is_announced(page):
    page.goto("/login")
    page.get_by_label("User name").fill("ada")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text("Wrong user name or password.")
    assert axe_violations(page) == []


@pytest.mark.parametrize(
    ("user", "path"),
    [("ann", "/users"), ("otto", "/users"), ("ada", "/users")],
)
def test_each_role_is_refused_where_it_may_not_go(page, user, path):
    sign_in(page, user)
    page.goto(path)
    expect(page.get_by_role("heading", level=1)).to_have_text("Not allowed")
    assert axe_violations(page) == []


def test_an_attorney_drafts_only_the_recorded_instruments(page):
    sign_in(page, "ada")
    page.goto("/drafts")
    options = page.get_by_label("Kind of document").locator("option").all_inner_texts()
    assert options == ["Maintenance easement", "Maintenance agreement"]
    start(page, "Maintenance easement")
    expect(page.get_by_label(re.compile("^Review mode"))).to_be_visible()
    assert axe_violations(page) == []


def test_the_map_exhibit_is_attached_replaced_and_removed_in_the_browser(page, tmp_path):
    """The Exhibit field sends the file chosen to the draft (its own form, the buttons
    beside the field), never a path typed (issue 29 item 5); a PDF bomb is refused beside
    the field, and the page passes axe throughout."""
    from tests.helpers import hostile

    (tmp_path / "survey.pdf").write_bytes(hostile.map_pdf())
    (tmp_path / "bomb.pdf").write_bytes(hostile.pdf_page_bomb())
    sign_in(page, "ada")
    start(page, "Maintenance easement")
    draft = page.url
    expect(page.get_by_text("No file attached.")).to_be_visible()
    page.get_by_label("Exhibit", exact=True).set_input_files(tmp_path / "survey.pdf")
    page.get_by_role("button", name="Attach").click()
    expect(
        page.get_by_text(re.compile(r"Attached: easement-exhibit-[0-9a-f]{16}\.pdf"))
    ).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_label("Exhibit", exact=True).set_input_files(tmp_path / "bomb.pdf")
    page.get_by_role("button", name="Replace").click()
    refusal = page.locator("#f-easement-exhibit-error")
    expect(refusal).to_contain_text("'bomb.pdf' is a PDF whose first page is 69 x 69 in")
    assert axe_violations(page) == []
    page.goto(draft)  # the map sent before is still the one kept
    expect(page.get_by_text(re.compile(r"Attached: easement-exhibit-"))).to_be_visible()
    page.get_by_role("button", name="Remove", exact=True).click()
    expect(page.get_by_text("No file attached.")).to_be_visible()


def test_the_admin_pages_pass_axe(page):
    sign_in(page, "root")
    for path in ("/users", "/drafts", "/documents"):
        page.goto(path)
        assert axe_violations(page) == [], path
