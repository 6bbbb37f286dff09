"""Findings of issue 52 on the desk, in Chromium, each page it ends on checked by axe-core:
a notice is found by its site's tax map number, street address and number, as the
search box and the clerk's guide promise (the site was registered without its tax map)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import serving
from playwright.sync_api import expect

from tests.helpers.register_cases import notice as case
from tests.helpers.served import service_of

TAX_MAP = "87.17-01-12.000"
STREET = {"street": "120 Cayuga Street", "city": "Homer", "state": "NY", "zip": "13077"}


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module issues a sample notice unchanged
    # (another module's issue of it would return this one), and a search by the street
    # address must find its notice alone.
    yield from serving(tmp_path_factory)


@pytest.fixture
def page(browser, desk):
    context = browser.new_context(base_url=desk.url)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="module")
def notice(desk) -> str:
    """A notice whose site has an address, a description and a tax map number."""
    from docgen.register import Issue, Register

    data = case()
    data["site"] = {"address": STREET, "description": "Cayuga Meadows", "tax_map": TAX_MAP}
    with Register.open(desk.database) as reg:
        return reg.issue(
            "notice-of-violation", data, Issue(respondent="new"), formats=("html",)
        ).number


def search(page, term: str) -> list[str]:
    page.goto("/documents")
    box = page.get_by_label("Search: number, respondent, street address or tax map number")
    box.fill(term)
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/documents\?.*q="))
    links = page.locator("table a[href^='/documents/']").all()
    return [re.sub(r"^/documents/", "", a.get_attribute("href")) for a in links]


def test_a_notice_is_found_by_tax_map_address_and_number(page, notice):
    sign_in(page, "ann")
    assert search(page, TAX_MAP) == [notice]
    assert axe_violations(page) == []
    assert search(page, "120 Cayuga Street") == [notice]
    assert search(page, notice) == [notice]
    assert search(page, "87.17-01-99.000") == []


def start(page, kind_title: str) -> None:
    page.goto("/drafts")
    page.get_by_label("Kind of document").select_option(label=kind_title)
    page.get_by_label("Municipality").select_option(label="Village of Homer")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+$"))


def test_focus_follows_add_another_and_remove_on_a_phone(browser, desk):
    """Add another puts focus in the new group's first field; Remove, in the group before
    it (or on Add another when none is left), never on the page's body."""
    context = browser.new_context(base_url=desk.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        sign_in(page, "otto")
        start(page, "Notice of violation")
        page.get_by_role("button", name="Add another remedy").press("Enter")
        expect(page.locator("#f-remedies-1-measure")).to_be_focused()
        page.get_by_role("button", name="Add another remedy").press("Enter")
        expect(page.locator("#f-remedies-2-measure")).to_be_focused()
        page.get_by_role("button", name="Remove remedy 3").press("Enter")
        expect(page.locator("#f-remedies-1-measure")).to_be_focused()
        page.get_by_role("button", name="Remove remedy 1").press("Enter")
        expect(page.get_by_role("button", name="Add another remedy")).to_be_focused()
        assert axe_violations(page) == []
    finally:
        context.close()


def test_certified_mail_chosen_shows_the_article_number(page, notice):
    """Choosing certified mail to record a notice's service unfolds the article number and
    the return receipt (they were folded away, the clerk hunting for them)."""
    sign_in(page, "ann")
    page.goto(f"/documents/{notice}")
    article = page.get_by_label("Certified-mail article number")
    expect(article).to_be_hidden()
    page.locator("#s-method").select_option("certified-mail")
    expect(article).to_be_visible()
    article.fill("9407 1000 0000 0000 0000 00")
    assert axe_violations(page) == []
    page.locator("#s-method").select_option("personal-delivery")
    expect(article).to_be_visible()  # what was typed is never hidden away


PHONE = {"width": 390, "height": 844}


@contextmanager
def on_a_phone(browser, desk, user: str) -> Iterator:
    """A page at a phone's width, ``user`` signed in; its context closed after."""
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    try:
        page = context.new_page()
        sign_in(page, user)
        yield page
    finally:
        context.close()


def test_the_notice_of_deficiency_is_dated_on_the_desk_never_after_today(browser, desk):
    """An inspection six days ago found deficiencies due two days ago: a notice dated today
    is refused (its corrective dates past), so the officer dates it, on the phone, the day
    after the inspection; a date after today is refused in the form's words."""
    import copy
    from datetime import timedelta

    from docgen.law.pack import municipal_today
    from docgen.law.packs import load_pack
    from docgen.register import Register
    from tests.helpers.inspection_cases import INSPECTION, TODAY

    inspected = TODAY - timedelta(days=6)
    findings = copy.deepcopy(INSPECTION["findings"])
    for finding in findings:
        if "due" in finding:
            finding["due"] = str(TODAY - timedelta(days=2))
    case = {**INSPECTION, "issued": str(inspected), "inspected": str(inspected)}
    with Register.open(desk.database) as reg:
        report = reg.issue(
            "inspection-report", {**case, "findings": findings}, formats=("html",), by="otto"
        ).number
    with on_a_phone(browser, desk, "otto") as page:
        page.goto(f"/documents/{report}")
        dated = page.get_by_label("Date of the notice of deficiency")
        # The desk's today as the page was made (a run may pass the municipality's
        # midnight after TODAY was read), and a date after it either way.
        today = municipal_today(load_pack("homer"))
        expect(dated).to_have_value(str(today))  # today unless the officer says otherwise
        dated.fill(str(TODAY + timedelta(days=2)))
        issue = "Issue the notice of deficiency from this inspection report"
        page.get_by_role("button", name=issue).click()
        expect(page.get_by_role("alert")).to_contain_text("after today")
        assert axe_violations(page) == []
        text = page.get_by_role("alert").inner_text()
        assert not re.search(r"LAW\.md|--date|\bon\b:", text), text
        page.get_by_label("Date of the notice of deficiency").fill(str(inspected + timedelta(1)))
        page.get_by_role("button", name=issue).click()
        expect(page).to_have_url(re.compile(r"/documents/NOD-\d{4}-\d{4}$"))
        day = inspected + timedelta(days=1)
        expect(page.locator("main")).to_contain_text(f"{day:%B} {day.day}, {day.year}")
        assert axe_violations(page) == []


def test_a_try_out_desk_prints_the_address_it_listens_on(browser, desk):
    """A desk on this machine only, with no public check's address in the settings, prints
    its own address (its port) as the place to check a document: the address opens."""
    from desk_server import start_draft, typed_sample

    from tests.helpers.readback import pdf_text

    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    clerk.post(where, data={**typed, "csrf_token": token})
    done = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert done.status_code == 303, clerk.get(where).text[-2000:]
    number = done.headers["location"].rsplit("/", 1)[1]
    text = " ".join(pdf_text(clerk.get(f"/documents/{number}/file.pdf").content).split())
    assert f"{desk.url}/v/{number}" in text, text[-1500:]
    assert "127.0.0.1:8000" not in text
    context = browser.new_context(base_url=desk.url)
    page = context.new_page()
    try:
        page.goto(f"{desk.url}/v/{number}")
        expect(page.locator("main")).to_contain_text(number)
        assert axe_violations(page) == []
    finally:
        context.close()


def test_the_running_version_is_in_the_footer_and_the_health_check(page, desk):
    """Which docgen answers: its version (the installed distribution's, from the release
    tags) at the foot of every desk page and on the health check's second line (its first
    still "ok", which the service's watchdog reads)."""
    from importlib.metadata import version

    running = version("docgen")
    page.goto("/login")
    expect(page.get_by_role("contentinfo")).to_contain_text(f"docgen {running}")
    sign_in(page, "ann")
    expect(page.get_by_role("contentinfo")).to_contain_text(f"docgen {running}")
    assert axe_violations(page) == []
    health = desk.client().get("/healthz")
    assert health.status_code == 200
    assert health.text.splitlines() == ["ok", f"version: {running}"]


def test_a_warning_names_the_field_by_its_label(page):
    """A remedy due on a Saturday is warned of as the form names it ("Remedy 1, due"),
    never by the case's field path ("remedies[0].due")."""
    from datetime import date, timedelta

    from desk_server import typed_sample

    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    due = date.fromisoformat(typed["remedies[0].due"])
    typed["remedies[0].due"] = str(due + timedelta(days=(5 - due.weekday()) % 7 or 7))
    sign_in(page, "ann")
    start(page, "Notice of violation")
    for name, value in typed.items():
        field = page.locator(f"[name='{name}']")
        if field.count() and field.first.evaluate("e => e.tagName") == "SELECT":
            field.first.select_option(value)
        elif field.count():
            field.first.fill(value)
    page.get_by_role("button", name="Save and check").click()
    warning = page.locator("p.warning").first
    expect(warning).to_contain_text("Remedy 1, due:")
    expect(warning).to_contain_text("is a Saturday")
    assert "remedies[0]" not in page.locator("main").inner_text()
    assert axe_violations(page) == []


def test_a_stop_work_order_from_a_notice_without_a_landowner_is_a_draft_asking_for_it(
    browser, desk
):
    """Escalation on the phone (issue 52 item 2; § 228-79A(1)): a notice of deficiency that
    names no landowner and cites a deficiency to the SWPPP starts the stop-work order's draft
    all the same, with what is known filled in and the landowner and the provision asked
    for beside their fields in the form's words, never a refusal on the notice's page."""
    from datetime import timedelta

    from docgen.desk.base.forms import input_id
    from docgen.register import Register
    from docgen.register.matter.inspections import notify_deficiency
    from tests.helpers.inspection_cases import APPLICANT, DEVELOPER, INSPECTION, TODAY

    day = TODAY - timedelta(days=20)
    findings = [dict(f) for f in INSPECTION["findings"]]
    for finding in findings:
        if "due" in finding:
            finding["due"] = str(TODAY - timedelta(days=10))  # both past
    first = {
        **INSPECTION,
        "issued": str(day),
        "inspected": str(day),
        "persons": [DEVELOPER, APPLICANT],  # no landowner
        "findings": findings,
    }
    seen = str(TODAY - timedelta(days=5))
    still = {"found": "Still not done", "result": "deficient", "due": seen}
    with Register.open(desk.database) as reg:
        report = reg.issue("inspection-report", first, formats=("html",), by="otto").number
        notice = notify_deficiency(reg, report, day, formats=("html",), by="otto").number
        reg.record_service(notice, service_of("personal-delivery", day), formats=("html",))
        again = {
            **first,
            "issued": seen,
            "inspected": seen,
            "reinspects": {"notice": notice},
            "findings": [
                {**findings[0], **still, "corrects": 1},
                {**findings[2], **still, "corrects": 2},
            ],
        }
        reg.issue("inspection-report", again, formats=("html",), by="otto")
    with on_a_phone(browser, desk, "otto") as page:
        page.goto(f"/documents/{notice}")
        page.get_by_role("button", name="Stop-work order from this notice of deficiency").click()
        expect(page).to_have_url(re.compile(r"/drafts/\d+$"))
        # What is known, filled in: the site, the developer copied, both violations.
        expect(page.locator(f"#{input_id('site.address.street')}")).to_have_value(
            "120 Cayuga Street"
        )
        expect(page.locator(f"#{input_id('violations[0].provision')}")).to_have_value(
            "§ 228-78D(1)"
        )
        expect(page.locator(f"#{input_id('violations[1].nature')}")).to_contain_text(
            "Concrete washout"
        )
        # What is not, asked for beside its field.
        name = page.locator(f"#{input_id('recipient.name')}")
        expect(name).to_have_value("")
        expect(name).to_have_attribute("aria-invalid", "true")
        provision = page.locator(f"#{input_id('violations[1].provision')}")
        expect(provision).to_have_value("")
        expect(provision).to_have_attribute("aria-invalid", "true")
        summary = page.locator("#error-summary")
        expect(summary).to_contain_text("Recipient, name: missing")
        expect(summary).to_contain_text("Violation 2, provision: missing")
        assert not re.search(r"\w+\[\d+\]|copies_to|SWPPP requirement", summary.inner_text())
        assert axe_violations(page) == []


def test_a_penalty_statement_from_a_notice_is_a_draft_asking_what_it_lacks(browser, desk):
    """The next step from a notice of violation (§ 228-79C(4)): its penalty statement opens
    dated today, the recipient, site, violations and notice filled in and the penalty
    computed at once; what the register cannot know (who signs it: this officer's name is
    not on their account) is asked for beside its field in the form's words, focus on it.
    Before, the draft opened undated, with no figure and nothing marked: "Fix the problems
    the law finds first" named none until the officer pressed Save and check."""
    from docgen.desk.base.forms import input_id
    from docgen.register import Register
    from tests.helpers.inspection_cases import TODAY
    from tests.helpers.vocabulary import code_words

    with Register.open(desk.database) as reg:
        number = reg.issue("notice-of-violation", case(str(TODAY)), formats=("html",)).number
    with on_a_phone(browser, desk, "otto") as page:
        page.goto(f"/documents/{number}")
        page.get_by_role("button", name="Penalty statement from this notice of violation").click()
        expect(page).to_have_url(re.compile(r"/drafts/\d+$"))
        expect(page.locator(f"#{input_id('issued')}")).to_have_value(str(TODAY))
        expect(page.locator(f"#{input_id('notice')}")).to_have_value(number)
        expect(page.locator(f"#{input_id('recipient.name')}")).to_have_value(
            "Tioughnioga Ridge Development LLC"
        )
        expect(page.locator(f"#{input_id('violations[0].provision')}")).to_have_value(
            "§ 228-78B(1)"
        )
        expect(page.locator("[data-figure=offense]")).to_have_text("1")  # computed at once
        summary = page.locator("#error-summary")
        expect(summary).to_contain_text("Officer")
        name = page.locator(f"#{input_id('officer.name')}")
        expect(name).to_be_focused()  # the question answered next
        name.fill("Dana R. Whitcomb")
        page.locator(f"#{input_id('officer.title')}").fill("Code Enforcement Officer")
        page.get_by_role("button", name="Save and check").first.click()
        expect(page.locator("#error-summary")).to_have_count(0)
        assert code_words(page.locator("main").inner_text()) == []
        assert axe_violations(page) == []


def asked_again(page, field, typed: str, button: str, question: str):
    """``typed`` in ``field`` and ``button`` pressed: the step is refused and asks again,
    the field marked and focused with what was typed, its question beside it (returned)."""
    beside = page.locator(f"#{field.get_attribute('id')}-error")
    field.fill(typed)
    page.get_by_role("button", name=button).click()
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value(typed)
    expect(beside).to_contain_text(question)
    return beside


def test_a_lifting_refused_asks_for_what_the_order_lacks_on_its_page(browser, desk):
    """Lifting a stop-work order (§ 228-79C(2)) from its page on a phone: refused while the
    order has no service, the page asks for that service on its own form above (its date
    marked, the question beside it, focus there) and keeps the lifting's date typed; once
    served, a date before the service is refused with the lifting's date marked, the
    question it asks and the refusal in the form's label with the law's citation; the day
    given, the order is lifted. Before, both were a line at the page's top and focus stayed
    on the button."""
    from datetime import timedelta

    from desk_server import typed_sample

    from docgen.register import Register
    from tests.helpers.inspection_cases import TODAY
    from tests.helpers.vocabulary import code_words

    order, _ = typed_sample("stop-work-order", "homer-unpermitted-grading")
    day = TODAY - timedelta(days=5)
    order = {k: v for k, v in order.items() if k not in ("number", "served")}
    order |= {"issued": str(day), "effective": str(day)}
    order["violations"][0]["observed"] = str(day - timedelta(days=1))
    with Register.open(desk.database) as reg:
        number = reg.issue("stop-work-order", order, formats=("html",), by="otto").number
    lift = "Lift: issue the notice lifting the order"
    with on_a_phone(browser, desk, "otto") as page:
        page.goto(f"/documents/{number}")
        page.locator("#l-date").fill(str(TODAY))
        page.get_by_role("button", name=lift).click()
        served = page.locator("#s-date")  # the service form's date: what is missing
        expect(served).to_be_focused()
        expect(served).to_have_attribute("aria-invalid", "true")
        beside = page.locator("#s-date-error")
        expect(beside).to_contain_text("When was this order served?")
        expect(beside).to_contain_text(f"{number} has no recorded service that stands")
        expect(page.locator("#l-date")).to_have_value(str(TODAY))  # kept as typed
        assert code_words(page.locator("main").inner_text()) == []
        assert axe_violations(page) == []

        with Register.open(desk.database) as reg:
            reg.record_service(number, service_of("personal-delivery", day))
        page.goto(f"/documents/{number}")
        early, dated = str(day - timedelta(days=1)), page.locator("#l-date")
        asked = "On what day was compliance confirmed?"
        beside = asked_again(page, dated, early, lift, asked)
        expect(beside).to_contain_text(
            f"Date compliance was confirmed and the order lifted: {early}: before service of "
            f"{number} was complete"
        )
        expect(beside).to_contain_text("(§ 228-79C(2))")
        said = beside.inner_text()
        assert "--date" not in said and "LAW.md" not in said and code_words(said) == []
        assert axe_violations(page) == []
        dated.fill(str(TODAY))
        page.get_by_role("button", name=lift).click()
        expect(page).to_have_url(re.compile(r"/documents/SWL-\d{4}-\d{4}$"))


def test_an_approval_refused_for_its_date_asks_it_again_on_the_reinspection(browser, desk):
    """The approval of corrected work (§ 228-79A(1)) made from a reinspection's page on a
    phone: dated before the notice's service and the reinspection, it is refused with the
    form shown again, its date marked and focused, the question it asks beside it and each
    refusal under the form's own label ("Date of the approval of corrected work") with the
    law's citation, never the command line's --date; dated today, it is issued. Before,
    the register's "--date ...: before ... was served" at the page's top, nothing marked."""
    import copy
    from datetime import timedelta

    from docgen.register import Register
    from docgen.register.matter.inspections import notify_deficiency
    from tests.helpers.inspection_cases import INSPECTION, TODAY
    from tests.helpers.vocabulary import code_words

    day, served, seen = (TODAY - timedelta(days=n) for n in (10, 8, 2))
    findings = copy.deepcopy(INSPECTION["findings"])
    for finding in findings:
        if "due" in finding:
            finding["due"] = str(TODAY + timedelta(days=10))
    first = {**INSPECTION, "issued": str(day), "inspected": str(day), "findings": findings}
    with Register.open(desk.database) as reg:
        report = reg.issue("inspection-report", first, formats=("html",), by="otto").number
        nod = notify_deficiency(reg, report, day, formats=("html",), by="otto").number
        reg.record_service(nod, service_of("personal-delivery", served), formats=("html",))
        fixed = {"found": "Fence reinstalled", "result": "satisfactory", "corrects": 1}
        again = {**first, "issued": str(seen), "inspected": str(seen),
                 "reinspects": {"notice": nod},
                 "findings": [{"practice": "Silt fence", **fixed}]}  # fmt: skip
        reinspection = reg.issue("inspection-report", again, formats=("html",), by="otto").number
    approve = "Issue the approval of corrected work from this inspection report"
    with on_a_phone(browser, desk, "otto") as page:
        page.goto(f"/documents/{reinspection}")
        dated = page.get_by_label("Date of the approval of corrected work")
        early = str(day + timedelta(days=1))
        asked = "On what day is the approval of corrected work dated?"
        beside = asked_again(page, dated, early, approve, asked)
        expect(beside).to_contain_text(
            f"Date of the approval of corrected work: {early}: before {nod} was served"
        )
        expect(beside).to_contain_text(f"before the reinspection {reinspection}")
        expect(beside).to_contain_text("(§ 228-79A(1))")
        said = page.locator("main").inner_text()
        assert "--date" not in said and "LAW.md" not in said and code_words(said) == []
        assert axe_violations(page) == []
        dated.fill(str(TODAY))
        page.get_by_role("button", name=approve).click()
        expect(page).to_have_url(re.compile(r"/documents/ACW-\d{4}-\d{4}$"))
