"""The desk's home page is what is due (LAW.md § 12), and each user's calendar feed is
served at a secret, revocable address, read back with the icalendar library."""

from __future__ import annotations

import re

import pytest
from desk_server import csrf_of, docgen, start_desk, stop_desk
from icalendar import Calendar

from tests.helpers.inspection_cases import inspection


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    server = start_desk(tmp_path_factory.mktemp("desk"))
    yield server
    stop_desk(server)


def test_home_is_what_is_due_and_the_feed_is_the_officers_calendar(desk, tmp_path):
    case = inspection(tmp_path, photos=0)
    done = docgen(
        desk.home, "record-inspection", str(case), "-f", "html", "-o", str(tmp_path) + "/"
    )
    assert done.returncode == 0, done.stderr
    done = docgen(
        desk.home,
        "notify-deficiency",
        "INS-2026-0001",
        "--date",
        "2026-11-30",
        "-f",
        "html",
        "-o",
        str(tmp_path) + "/",
    )
    assert done.returncode == 0, done.stderr
    officer = desk.signed_in("otto")
    home = officer.get("/")
    assert home.status_code == 303 and home.headers["location"] == "/due"
    page = officer.get("/due").text
    assert '<a href="/documents/NOD-2026-0001">NOD-2026-0001, deficiency 1:' in page
    assert "(§ 228-79A(1))" in page and "Corrective action" in page
    made = officer.post("/due/feed", data={"csrf_token": csrf_of(page)})
    address = re.search(r'<code class="feed">[^<]*(/calendar/[^<]+\.ics)</code>', made.text)[1]
    feed = desk.client().get(address)  # no session: the address is the credential
    assert feed.status_code == 200 and feed.headers["content-type"].startswith("text/calendar")
    events = [str(e["summary"]) for e in Calendar.from_ical(feed.content).walk("VEVENT")]
    assert any(
        "NOD-2026-0001, deficiency 2: Install the lined concrete washout" in s for s in events
    )
    assert address.split("/")[-1].removesuffix(".ics") not in (desk.home / "desk.log").read_text()
    officer.post("/due/feed/revoke", data={"csrf_token": csrf_of(page)})
    assert desk.client().get(address).status_code == 404
