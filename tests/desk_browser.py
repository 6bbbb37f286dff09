"""Debian's Chromium driven by Playwright (nothing downloaded), and axe-core in the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.helpers.tools import unavailable

CHROMIUM = "/usr/bin/chromium"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
]


def launch(playwright):
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is missing: run scripts/setup.sh --test")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)


def chromium() -> Iterator[Any]:
    """A headless Chromium for a test module (a fixture's body: ``yield from chromium()``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


IMPACTS = ("minor", "moderate", "serious", "critical")


def axe_violations(page, levels=IMPACTS) -> list[str]:
    """axe-core's violations on the page as it is now, at every impact (``levels``)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))  # evaluated by the driver, not a <script>
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
        for v in found
        if v["impact"] in levels
    ]


def sign_in(page, name: str) -> None:
    """Sign in through the form as ``name`` (a user of tests/desk_server.py)."""
    import re

    from desk_server import PASSWORD
    from playwright.sync_api import expect

    page.goto("/login")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/documents$"))


def submit_and_look(page, button: str, found: list[object]) -> str:
    """Click ``button``, and on the page the desk answers with add to ``found`` a sideways
    scroll (the page wider than its window) and each of axe-core's violations; the last
    part of the page's address (a document's number, after a step issued one)."""
    page.get_by_role("button", name=button).click()
    page.wait_for_load_state()
    width = page.evaluate("document.scrollingElement.scrollWidth")
    if width > page.evaluate("window.innerWidth"):
        found.append((button, "scrolls sideways", width))
    found.extend(axe_violations(page))
    last: str = page.url.rsplit("/", 1)[1]
    return last
