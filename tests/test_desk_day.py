"""A clerk's day and an attorney's, entirely in the desk, in Chromium: each page the
browser loads and each field typed is counted (printed with -s; the closing numbers of
the desk's work are these)."""

from __future__ import annotations

import io
import re

import pytest
from desk_browser import axe_violations
from desk_server import PASSWORD, docgen, start_desk, stop_desk, typed_sample
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.helpers.served import service_form


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module changes users (the names and titles they sign
    # with).
    server = start_desk(tmp_path_factory.mktemp("desk"))
    named = {
        "ann": ("Dana R. Whitcomb", "Code Enforcement Officer"),
        "ada": ("Catherine M. Alvord", "Village Attorney"),
    }
    for user, (full, title) in named.items():
        done = docgen(server.home, "users", "set", user, "--full-name", full, "--title", title)
        assert done.returncode == 0, done.stderr
    yield server
    stop_desk(server)


class Walk:
    """A browser page that counts the pages it loads, the fields typed and the choices
    made in lists (a step's count is taken with :meth:`step`)."""

    def __init__(self, page):
        self.page, self.pages, self.typed, self.chosen = page, 0, 0, 0
        self.steps: list[tuple[str, int, int, int]] = []
        page.on("framenavigated", self._loaded)

    def _loaded(self, frame) -> None:
        if frame == self.page.main_frame:
            self.pages += 1

    def fill(self, fields: dict[str, str], within: str = "") -> None:
        """Type each value in the field of that name (a list: choose it), in the form
        whose action ends with ``within`` if given."""
        scope = self.page.locator(f'form[action$="{within}"]') if within else self.page
        for name, value in fields.items():
            field = scope.locator(f'[name="{name}"]')
            if not field.is_visible():  # folded details: open them as a clerk would
                field.evaluate("e => e.closest('details').querySelector('summary').click()")
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
                self.chosen += 1
            else:
                field.fill(value)
                self.typed += 1
        self.page.keyboard.press("Tab")

    def choose(self, label: str, option: str) -> None:
        self.page.get_by_label(label).select_option(label=option)
        self.chosen += 1

    def click(self, role: str, name) -> None:
        exact = isinstance(name, str)
        self.page.get_by_role(role, name=name, exact=exact).click()

    def step(self, what: str) -> None:
        before = [sum(s[i] for s in self.steps) for i in (1, 2, 3)]
        now = (self.pages, self.typed, self.chosen)
        self.steps.append((what, *(n - b for n, b in zip(now, before, strict=True))))

    def report(self, who: str) -> str:
        lines = [f"{who}: {self.pages} pages, {self.typed} fields typed, {self.chosen} chosen"]
        lines += [f"  {w}: {p} pages, {t} typed, {c} chosen" for w, p, t, c in self.steps]
        return "\n".join(lines)


def sign_in(walk: Walk, name: str) -> None:
    walk.page.goto("/login")
    walk.fill({"username": name, "password": PASSWORD})
    walk.click("button", "Sign in")
    expect(walk.page).to_have_url(re.compile(r"/documents$"))
    walk.step("sign in")


def new_draft(walk: Walk, title: str) -> None:
    walk.click("link", "Drafts")
    walk.choose("Kind of document", title)
    walk.choose("Municipality", "Village of Homer")
    walk.click("button", "Start")
    expect(walk.page).to_have_url(re.compile(r"/drafts/\d+$"))


def issue(walk: Walk) -> str:
    button = walk.page.get_by_role("button", name=re.compile("^Issue"))
    expect(button, walk.page.locator("#summary").inner_text()).to_be_visible(timeout=15_000)
    button.click()
    expect(walk.page).to_have_url(re.compile(r"/documents/[A-Z]+-\d{4}-\d{4}$"))
    assert axe_violations(walk.page) == []
    return walk.page.url.rsplit("/", 1)[1]


FIRST_NOTICE = {
    "issued": "2026-11-10",
    "recipient.name": "Albany Street Partners LP",
    "recipient.role": "landowner",
    "recipient.address.street": "200 Main Street",
    "recipient.address.city": "Cortland",
    "recipient.address.state": "NY",
    "recipient.address.zip": "13045",
    "site.description": "Vacant lot east of Route 11",
    "violations[0].provision": "§ 228-78B(1)",
    "violations[0].nature": "Land disturbed without an approved SWPPP",
    "violations[0].observed": "2026-11-06",
    "remedies[0].measure": "Stabilize all disturbed soil",
    "remedies[0].due": "2026-11-23",
}


def test_a_clerks_day(browser, desk):
    context = browser.new_context(base_url=desk.url, accept_downloads=True)
    walk = Walk(context.new_page())
    page = walk.page
    sign_in(walk, "ann")

    new_draft(walk, "Notice of violation")
    expect(page.locator('[name="officer.name"]')).to_have_value("Dana R. Whitcomb")
    walk.fill(FIRST_NOTICE)
    notice = issue(walk)
    walk.step("notice issued")

    service = {"method": "certified-mail", "date": "2026-11-11", "served_by": "Dana R. Whitcomb"}
    walk.fill({**service, "article": "9589 0710 5270 0123 4567 81"}, within="/service")
    walk.click("button", "Record service")
    expect(page.get_by_role("status").first).to_have_text("Service recorded.")
    walk.step("service recorded (the affidavit with it)")

    deadline = page.locator("dt:text('Last day to appeal') + dd")
    expect(deadline).to_contain_text("2026")
    walk.step("deadline read on the notice's page")

    conviction = {"disposition": "convicted", "date": "2026-11-25"}
    walk.fill({**conviction, "court": "Homer Village Court", "docket": "26-101"}, "/disposition")
    walk.click("button", "Record disposition")
    expect(page.locator("table").last).to_contain_text("Convicted")
    walk.step("conviction recorded")

    walk.click("button", "Start a new notice at this site")
    expect(page.locator('[name="recipient.name"]')).to_have_value("Albany Street Partners LP")
    expect(page.locator('[name="site.description"]')).to_have_value("Vacant lot east of Route 11")
    walk.fill(
        {
            "issued": "2026-11-30",
            "violations[0].provision": "§ 228-78B(1)",
            "violations[0].nature": "Grading continued without an approved SWPPP",
            "violations[0].observed": "2026-11-27",
            "remedies[0].measure": "Stop grading and stabilize the slope",
            "remedies[0].due": "2026-12-07",
        }
    )
    expect(page.locator("[data-figure=offense]")).to_have_text("2")  # the conviction counts
    second = issue(walk)
    walk.step("second notice issued")

    walk.click("button", "Stop-work order from this notice of violation")
    expect(page.locator('[name="notices[0]"]')).to_have_value(second)
    walk.fill(
        {
            "issued": "2026-12-01",
            "effective": "2026-12-01",
            "contact.name": "Dana R. Whitcomb, Code Enforcement Officer",
            "contact.phone": "607-555-0142",
        }
    )
    order = issue(walk)
    with page.expect_download() as placard:
        walk.click("link", re.compile("placard"))
    text = PdfReader(io.BytesIO(placard.value.path().read_bytes())).pages[0].extract_text()
    assert order in text
    walk.step("stop-work order issued, placard printed")

    served = {**service_form("personal-delivery"), "date": "2026-12-01"}
    walk.fill(served, within="/service")
    walk.click("button", "Record service")
    expect(page.get_by_role("status").first).to_have_text("Service recorded.")
    walk.step("stop-work order served")
    walk.fill({"date": "2026-12-01"}, within="/lift")
    walk.click("button", re.compile("^Lift"))
    expect(page).to_have_url(re.compile(r"/documents/[A-Z]+-\d{4}-\d{4}$"))
    assert order not in page.url
    page.get_by_role("link", name=order).first.click()
    expect(page.get_by_text("Lifted by")).to_be_visible()
    assert axe_violations(page) == []
    walk.step("stop-work order lifted")

    walk.click("link", "Mailing list")
    walk.fill({"date": "2026-11-11"})
    walk.click("button", "Show the day's pieces")
    expect(page.locator("table")).to_contain_text("9589 0710 5270 0123 4567 81")
    assert axe_violations(page) == []
    with page.expect_download() as listed:
        walk.click("link", re.compile(r"\(PDF\)$"))
    text = PdfReader(io.BytesIO(listed.value.path().read_bytes())).pages[0].extract_text()
    assert "9589 0710 5270 0123 4567 81" in " ".join(text.split()), text
    assert notice in text
    walk.step("the day's mailing list printed")
    assert notice != second != order
    print("\n" + walk.report("clerk"))
    context.close()


def test_an_attorneys_day(browser, desk):
    context = browser.new_context(base_url=desk.url, accept_downloads=True)
    walk = Walk(context.new_page())
    page = walk.page
    sign_in(walk, "ada")

    new_draft(walk, "Maintenance easement")
    _, typed = typed_sample("maintenance-easement", "homer-individual")
    walk.fill(typed)
    easement = issue(walk)
    for fmt in ("PDF", "DOCX", "HTML"):
        expect(page.get_by_role("link", name=f"Download {fmt}")).to_be_visible()
    walk.step("easement issued")

    walk.click("button", "Maintenance agreement for the same property")
    expect(page.locator('[name="property.tax_map"]')).to_have_value("87.18-02-05.000")
    page.keyboard.press("Tab")
    agreement = issue(walk)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Maintenance agreement")
    walk.step("agreement issued for the same property")
    assert easement != agreement
    print("\n" + walk.report("attorney"))
    context.close()
