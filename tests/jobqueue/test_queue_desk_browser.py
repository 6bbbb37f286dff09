"""The desk on the queue in Chromium: a real `docgen serve` with DOCGEN_DESK_QUEUE over a
PostgreSQL register (tests/helpers/pgserver.py) and a real `docgen worker`, one of each
for the module. A clerk corrects an issued notice through the queue and sees the original
superseded; an attorney issues an easement with counsel's final through the queue and
lands on the issued page, the draft closed. axe-core on every page the queue adds or
changes. (The same over HTTP, with the register read back: test_queue_desk.py.)"""

from __future__ import annotations

import io
import os
import re

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import start_desk, start_draft, stop_desk, typed_sample
from playwright.sync_api import expect

from tests.helpers import pgserver
from tests.jobqueue.conftest import FAST, Machine, sql, stored_formats
from tests.jobqueue.test_queue_desk import issued_through_the_queue

WAIT = 120_000  # ms: a worker rendering on two loaded cores (desk_server.TIMEOUT's reason)


@pytest.fixture(scope="module")
def queued(queue_server, tmp_path_factory):
    """(the desk on the queue, its register's URL), a worker rendering for it."""
    url = pgserver.create_database(
        queue_server, f"queue_browser_{os.getpid()}", template="queue_template"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOCGEN_DESK_QUEUE", "docgen")
        for key, value in FAST.items():
            patch.setenv(key, value)
        desk = start_desk(tmp_path_factory.mktemp("desk"), url)
    worker = Machine(url, tmp_path_factory.mktemp("machines"), "renderer")
    yield desk, url
    worker.stop()
    stop_desk(desk)


@pytest.fixture
def page(browser, queued):
    context = browser.new_context(base_url=queued[0].url)
    yield context.new_page()
    context.close()


def clean(page) -> None:
    assert axe_violations(page) == [], page.url


def issue_and_wait(page, where: str) -> str:
    """Press Issue on the draft at ``where``: the rendering page, then (the worker done)
    the issued document's page; its number."""
    page.get_by_role("button", name=re.compile("^Issue")).click()
    expect(page).to_have_url(re.compile(rf"{re.escape(where)}/issuing$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Rendering")
    clean(page)
    expect(page).to_have_url(re.compile(r"/documents/[A-Z]+-\d{4}-\d{4}$"), timeout=WAIT)
    number = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("heading", level=1)).to_contain_text(number)
    clean(page)
    return number


def test_a_clerk_corrects_through_the_queue_and_the_original_is_superseded(page, queued):
    desk, url = queued
    clerk = desk.signed_in("ann")  # the original, issued through the queue over HTTP
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    clerk.post(where, data={**typed, "csrf_token": token})
    original = issued_through_the_queue(clerk, where, {"csrf_token": token})

    sign_in(page, "ann")
    page.goto(f"/documents/{original}")
    page.get_by_role("button", name="Correct this document").click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+$"))
    expect(page.get_by_role("note")).to_contain_text(f"This draft corrects {original}")
    page.locator("#f-site-description").fill("Lot 4, corrected")
    page.get_by_role("button", name="Save and check").first.click()
    expect(page.get_by_text("The law's checks pass.").first).to_be_visible()
    correction = issue_and_wait(page, page.url.removeprefix(desk.url))
    assert correction != original
    expect(page.locator("dl.facts")).to_contain_text(f"Corrects{original}")

    page.get_by_role("link", name=original).click()
    expect(page).to_have_url(re.compile(rf"/documents/{original}$"))
    expect(page.locator("dl.facts")).to_contain_text(f"Superseded by{correction}")
    expect(page.get_by_role("button", name="Correct this document")).to_have_count(0)
    clean(page)
    rows = sql(
        url,
        "SELECT c.number FROM public.documents c JOIN public.documents o "
        "ON c.supersedes_id = o.id WHERE o.number = %s",
        original,
    )
    assert rows == [(correction,)]


def test_an_attorney_issues_an_easement_through_the_queue_and_the_draft_closes(page, queued):
    import docx

    desk, url = queued
    attorney = desk.signed_in("ada")  # the draft typed over HTTP, as the form sends it
    where, token = start_draft(attorney, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    attorney.post(where, data={**typed, "csrf_token": token})
    edited = docx.Document(io.BytesIO(attorney.get(f"{where}/word").content))
    edited.add_paragraph("Counsel adds this sentence before signing.")
    final = io.BytesIO()
    edited.save(final)

    sign_in(page, "ada")
    page.goto(where)
    clean(page)
    page.get_by_label(re.compile("^Counsel's final text")).set_input_files(
        files=[
            {
                "name": "final.docx",
                "mimeType": "application/octet-stream",
                "buffer": final.getvalue(),
            }
        ]
    )
    easement = issue_and_wait(page, where)

    page.goto("/drafts")  # closed: no longer among the attorney's drafts
    expect(page.locator(f'a[href="{where}"]')).to_have_count(0)
    page.goto(f"{where}/issuing")  # and its address opens the issued document
    expect(page).to_have_url(re.compile(rf"/documents/{easement}$"))
    assert {"final", "redline"} <= stored_formats(url, easement)
