"""Rebuild the desk's screenshots in docs/ (README): a real desk, a real browser.

    .venv/bin/python scripts/desk_screenshots.py

Starts `docgen serve` over a fresh register (as the browser tests do), fills in a notice
with one element missing, issues the corrected one and records its service, shows the
rows of a history import, and issues an attorney's easement, taking a screenshot of each
main page; the PNGs are reduced to a small palette.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from desk_browser import launch  # noqa: E402
from desk_server import start_desk, stop_desk, typed_sample  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_desk_browser import fill_notice_without_remedies, sign_in, start  # noqa: E402

DOCS = ROOT / "docs"
HISTORY = (
    "name,street,city,state,zip,committed,convicted,court,docket\n"
    "Tioughnioga Ridge Development LLC,41 Route 281,Homer,NY,13077,2024-02-01,2024-05-01,"
    "Homer Village Court,24-3\n"
    "Cayuga Street Holdings LLC,77 South Main Street,Homer,NY,13077,2025-06-10,2025-08-12,"
    "Homer Village Court,25-41\n"
)


def shot(page, name: str) -> None:
    path = DOCS / f"desk-{name}.png"
    page.screenshot(path=str(path))
    Image.open(path).convert("RGB").quantize(colors=48).save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")


def main() -> None:
    desk = start_desk(Path(tempfile.mkdtemp()))
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page(base_url=desk.url, viewport={"width": 1100, "height": 760})
            page.goto("/login")
            shot(page, "sign-in")
            sign_in(page, "ann")
            start(page, "Notice of violation")
            fill_notice_without_remedies(page)
            page.get_by_role("button", name="Save and check").click()
            page.locator("#error-summary").wait_for(state="attached")
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, "notice-errors")
            page.locator("#f-remedies-0-measure").fill("Stabilize all disturbed soil")
            page.locator("#f-remedies-0-due").fill("2026-11-23")
            page.keyboard.press("Tab")
            page.get_by_text("The law's checks pass.").first.wait_for()
            page.get_by_role(
                "button", name="Issue: number, record and make the PDF and DOCX"
            ).click()
            page.wait_for_url("**/documents/NOV-*")
            page.get_by_label("Date of service (or mailing)").fill("2026-11-11")
            page.get_by_role("button", name="Record service").click()
            page.wait_for_url("**done=service")
            shot(page, "document")
            phone = browser.new_page(base_url=desk.url, viewport={"width": 390, "height": 844})
            sign_in(phone, "ann")
            phone.goto(page.url.split("?")[0])
            shot(phone, "phone")
            phone.close()
            page.goto("/documents")
            shot(page, "register")
            history = Path(tempfile.mkdtemp()) / "older-convictions.csv"
            history.write_text(HISTORY, encoding="utf-8")
            page.goto("/history/import")
            page.get_by_label(re.compile("^CSV file")).set_input_files(str(history))
            page.get_by_role("button", name="Show the rows").click()
            page.get_by_role("region", name="Rows to import").wait_for()
            shot(page, "import")
            page.get_by_role("button", name="Sign out").click()
            attorney = browser.new_page(base_url=desk.url, viewport={"width": 1100, "height": 760})
            sign_in(attorney, "ada")
            start(attorney, "Maintenance easement")
            _, typed = typed_sample("maintenance-easement", "homer-individual")
            for name, value in typed.items():
                field = attorney.locator(f'[name="{name}"]')
                if field.evaluate("e => e.tagName") == "SELECT":
                    field.select_option(value)
                else:
                    field.fill(value)
            attorney.keyboard.press("Tab")
            attorney.get_by_role("button", name=re.compile("^Issue")).click()
            attorney.wait_for_url("**/documents/*-*")
            shot(attorney, "easement")
            browser.close()
    finally:
        stop_desk(desk)


if __name__ == "__main__":
    main()
