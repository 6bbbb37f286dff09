"""The desk on a phone (390 x 844 CSS pixels, Chromium): every page fits the screen's width
(no sideways scroll), passes axe-core, error and not-found pages included; the figures
and the primary actions are near the top, and reachable by Tab with a visible focus.

One server and one browser for the module; the pages are visited in one test."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
import yaml
from desk_browser import axe_violations, sign_in
from desk_server import serving, start_draft, typed_sample
from playwright.sync_api import expect

from tests.helpers.served import service_of

ROOT = Path(__file__).resolve().parent.parent
PHONE = {"width": 390, "height": 844}
NEAR_TOP = 1.5 * PHONE["height"]  # a screen and a half from the top of the page
LONG_TAX_MAP = "062.111-00-345678.000-" + "0" * 30  # unbroken, wider than the screen
ARTICLE = "9589 0710 5270 0123 4567 81"
HTML = ("html", "pdf")


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module removes a user (otto) and takes the
    # register's documents table away under the running server.
    yield from serving(tmp_path_factory)


def fixture(kind: str, name: str) -> dict:
    data = yaml.safe_load((ROOT / "fixtures" / kind / f"{name}.yaml").read_text("utf-8"))
    for key in ("number", "served", "effective"):
        data.pop(key, None)
    return data


@pytest.fixture(scope="module")
def made(desk) -> dict[str, str]:
    """A notice with a long number served by certified mail (its affidavit), a stop-work
    order served (so it may be lifted), a certification, through the register."""
    from docgen.register import Issue, Register

    with Register.open(desk.database) as reg:
        notice = fixture("notice-of-violation", "homer-first-offense")
        notice["site"] = {**notice["site"], "tax_map": LONG_TAX_MAP}
        issued = reg.issue("notice-of-violation", notice, Issue(respondent="new"), formats=HTML)
        served = reg.record_service(
            issued.number,
            service_of("certified-mail", issued.issued, article=ARTICLE),
            formats=("html",),
        )
        order = reg.issue(
            "stop-work-order", fixture("stop-work-order", "homer-silt-fence"),
            Issue(respondent="new"), formats=("html",),
        )  # fmt: skip
        reg.record_service(
            order.number, service_of("personal-delivery", order.issued), formats=("html",)
        )
        certification = reg.issue(
            "contractor-certification",
            fixture("contractor-certification", "macedon-unsigned"),
            formats=("html",),
        )
        respondent = reg.document(issued.number).respondent.id
    return {
        "notice": issued.number,
        "code": issued.access_code,
        "affidavit": served.affidavit.number,
        "order": order.number,
        "certification": certification.number,
        "respondent": str(respondent),
    }


def overflow(page) -> list[str]:
    """What sticks out past the screen's right edge (empty: no sideways scroll)."""
    return page.evaluate(
        """() => {
          const width = window.innerWidth;
          if (document.scrollingElement.scrollWidth <= width) return [];
          return [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > width + 0.5)
            .slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
              (e.className && typeof e.className === 'string' ? '.' + e.className : '') +
              ' ' + Math.round(e.getBoundingClientRect().right));
        }"""
    )


def fits(page, what: str, found: list) -> None:
    """Adds to ``found`` what is wrong with the page as it is now: sideways scroll, axe."""
    width = page.evaluate("document.scrollingElement.scrollWidth")
    if width > page.evaluate("window.innerWidth"):
        found.append((what, width, overflow(page)))
    found.extend((what, v) for v in axe_violations(page))


def visit(page, path: str, found: list, status: int = 200) -> None:
    response = page.goto(path)
    assert response.status == status, (path, response.status)
    fits(page, path, found)


def top_of(locator) -> float:
    """How far down the page (CSS pixels) ``locator``'s box ends."""
    box = locator.bounding_box()
    return box["y"] + box["height"] + locator.page.evaluate("window.scrollY")


def drafts_of_every_kind(page) -> list[str]:
    """A new draft of every kind the signed-in role may start, through the drafts form."""
    page.goto("/drafts")
    kinds = page.locator("#new-kind option").evaluate_all("os => os.map(o => o.value)")
    made = []
    for kind in kinds:
        page.goto("/drafts")
        page.locator("#new-kind").select_option(kind)
        page.get_by_role("button", name="Start").click()
        expect(page).to_have_url(re.compile(r"/drafts/\d+$"))
        made.append(page.url)
    return made


def filled_draft(desk) -> str:
    """A notice draft of ann's with every field of the sample typed (ready to issue)."""
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    saved = client.post(where, data={**typed, "csrf_token": token})
    assert saved.status_code in (200, 303), saved.text
    return where


def tabbed_to(page, target, presses: int = 80) -> int:
    """How many presses of Tab from the top of the page bring the focus to ``target``."""
    page.locator("body").focus()
    for count in range(1, presses + 1):
        page.keyboard.press("Tab")
        if target.evaluate("e => e === document.activeElement"):
            return count
    raise AssertionError(f"not reached in {presses} presses of Tab")


def focus_ring(locator) -> str:
    return locator.evaluate(
        "e => { const s = getComputedStyle(e); return s.outlineStyle + ' ' + s.outlineWidth; }"
    )


def test_figures_and_primary_actions_are_near_the_top_and_reached_by_tab(browser, desk, made):
    where = filled_draft(desk)
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    page = context.new_page()
    sign_in(page, "ann")
    page.goto(where)
    issue = page.get_by_role("button", name=re.compile("^Issue"))
    near = {
        "offense": top_of(page.locator("[data-figure=offense]")),
        "penalty": top_of(page.locator("[data-figure=penalty]")),
        "Issue": top_of(issue),
    }
    page.goto(f"/documents/{made['notice']}")
    record = page.get_by_role("button", name="Record service")
    near["Record service"] = top_of(record)
    print("\nbottom edge at 390 x 844, CSS px:", {k: round(v) for k, v in near.items()})
    assert all(bottom <= NEAR_TOP for bottom in near.values()), near

    presses = {"Record service": tabbed_to(page, record)}
    assert focus_ring(record).startswith("solid") and not focus_ring(record).endswith(" 0px")
    page.goto(where)
    presses["Issue"] = tabbed_to(page, issue)
    assert focus_ring(issue).startswith("solid") and not focus_ring(issue).endswith(" 0px")
    print("presses of Tab:", presses)
    context.close()


def test_every_page_fits_a_phone_and_passes_axe(browser, desk, made, tmp_path):
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    page = context.new_page()
    found: list = []
    number, code = made["notice"], made["code"]
    # Signed out: sign-in, the public check (asking for the code, and with it), not found.
    visit(page, "/login", found)
    visit(page, f"/v/{number}", found)
    visit(page, f"/v/{number}?code={code}", found)
    visit(page, "/no-such-page", found, 404)

    sign_in(page, "ann")
    visit(page, "/documents", found)
    page.get_by_label("Issued from").fill("2026-02-30")  # typed: the browser keeps it
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("alert")).to_contain_text("30 February 2026 is not a real calendar")
    fits(page, "/documents?from=2026-02-30", found)
    for document in ("notice", "affidavit", "order", "certification"):
        visit(page, f"/documents/{made[document]}", found)
    visit(page, f"/respondents/{made['respondent']}", found)
    visit(page, "/documents/NO-SUCH-NUMBER", found, 404)
    visit(page, "/drafts", found)
    visit(page, f"{filled_draft(desk)}/preview", found)  # the document's own HTML
    for draft in drafts_of_every_kind(page):
        visit(page, draft, found)
        visit(page, f"{draft}/discard", found)
    visit(page, "/verify", found)
    visit(page, "/mailing-list", found)
    visit(page, "/history/import", found)
    older = tmp_path / "older.csv"
    older.write_text(
        "name,street,city,state,zip,committed,convicted,court,docket\n"
        "Delphine Q. Okonkwo-Vanderberg,14 Albany Street,Homer,NY,13077,"
        "2024-03-01,2024-05-02,Homer Village Court Of The Village Of Homer,24-000000003\n",
        "utf-8",
    )
    page.locator("input[type=file]").set_input_files(str(older))
    page.get_by_role("button", name="Show the rows").click()
    # The rows' page has loaded (a click does not wait for the page it posts to).
    expect(page.get_by_role("heading", name="1 row in older.csv")).to_be_visible()
    fits(page, "the import's rows", found)
    visit(page, "/users", found, 403)
    # 400: a field no form sends (a control character), posted from the page itself.
    page.goto("/drafts")
    with page.expect_navigation():
        page.evaluate(
            """() => { const form = document.querySelector('form[action="/drafts"]');
              const bad = document.createElement('input'); bad.type = 'hidden';
              bad.name = 'kind'; bad.value = 'x\\u0007'; form.appendChild(bad); form.submit(); }"""
        )
    assert "was refused" in page.content()
    fits(page, "the 400 page", found)

    context.clear_cookies()
    sign_in(page, "ada")
    for draft in drafts_of_every_kind(page):
        visit(page, draft, found)
    context.clear_cookies()
    sign_in(page, "root")
    visit(page, "/users", found)
    visit(page, "/users/remove?name=otto", found)

    # 503: the register out of reach (its documents table gone under the running server).
    with sqlite3.connect(desk.home / "docgen.sqlite") as db:
        db.execute("alter table documents rename to documents_away")
    visit(page, "/documents", found, 503)
    assert "<h1>Not done</h1>" in page.content()
    context.close()
    assert found == [], "\n".join(map(str, found))
