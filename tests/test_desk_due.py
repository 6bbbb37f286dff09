"""The desk's home page is what is due (LAW.md § 12), and each user's calendar feed is
served at a secret, revocable address, read back with the icalendar library."""

from __future__ import annotations

import re

import httpx
import pytest
from desk_browser import axe_violations, sign_in
from desk_server import csrf_of, docgen, start_desk, stop_desk
from icalendar import Calendar

from tests.helpers.inspection_cases import inspection


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the register's numbers (the first
    # inspection is INS-2026-0001, its notice NOD-2026-0001).
    server = start_desk(tmp_path_factory.mktemp("desk"))
    yield server
    stop_desk(server)


def test_home_is_what_is_due_and_the_feed_is_the_officers_calendar(desk, tmp_path):
    case = inspection(tmp_path, photos=0)
    out = str(tmp_path) + "/"
    done = docgen(
        desk.home, "record-inspection", str(case), "-f", "html", "-o", out, "--by", "otto"
    )
    assert done.returncode == 0, done.stderr
    done = docgen(
        desk.home, "notify-deficiency", "INS-2026-0001", "--date", "2026-11-30",
        "-f", "html", "-o", out, "--by", "otto",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    officer = desk.signed_in("otto")
    home = officer.get("/")
    assert home.status_code == 303 and home.headers["location"] == "/due"
    page = officer.get("/due").text
    assert '<a href="/documents/NOD-2026-0001">NOD-2026-0001, deficiency 1:' in page
    assert "(Village of Homer practice)" in page and "Corrective action" in page
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


def test_each_user_sees_their_own_and_the_clerk_everything(desk, tmp_path):
    """A calendar per user (a reading of issue 32 item 6, docgen.register.reading.due): the items
    of the documents a user recorded (a notice of deficiency's also for whoever recorded
    its inspection); a clerk sees everything first, anyone may switch views; each feed
    is its user's own."""
    out = str(tmp_path) + "/"
    done = docgen(desk.home, "record-inspection", str(inspection(tmp_path, photos=0, time="14:10")),
                  "-f", "html", "-o", out, "--by", "otto")  # fmt: skip
    assert done.returncode == 0, done.stderr
    (report,) = set(re.findall(r"INS-\d{4}-\d{4}", done.stdout))
    # dated as its inspection's sample is (November 30, 2026): its corrective dates are
    # after it whatever today is (undated, it failed from December 5 on)
    done = docgen(desk.home, "notify-deficiency", report, "--date", "2026-11-30", "-f", "html",
                  "-o", out, "--by", "otto")  # fmt: skip
    assert done.returncode == 0, done.stderr
    (number,) = set(re.findall(r"NOD-\d{4}-\d{4}", done.stdout))
    nod = f'<a href="/documents/{number}">{number}, deficiency 1:'
    clerk = desk.signed_in("ann")
    everything = clerk.get("/due").text
    assert nod in everything and 'href="/due?whose=mine">Show only yours' in everything
    assert nod not in clerk.get("/due?whose=mine").text  # ann recorded none of it
    lawyer = desk.signed_in("ada")  # neither clerk nor its recorder: her own first
    own = lawyer.get("/due").text
    assert nod not in own and 'href="/due?whose=all">Show everything due' in own
    assert nod in lawyer.get("/due?whose=all").text
    assert nod in desk.signed_in("otto").get("/due").text  # the officer who recorded it

    def feed_of(client: httpx.Client) -> list[str]:
        made = client.post("/due/feed", data={"csrf_token": csrf_of(client.get("/due").text)})
        address = re.search(r'<code class="feed">[^<]*(/calendar/[^<]+\.ics)</code>', made.text)
        feed = desk.client().get(address[1])
        assert feed.status_code == 200
        return [str(e["summary"]) for e in Calendar.from_ical(feed.content).walk("VEVENT")]

    assert any(f"{number}, deficiency 1" in s for s in feed_of(desk.signed_in("otto")))
    assert not any(number in s for s in feed_of(clerk))  # the clerk's own: none


def test_the_log_book_page_records_a_csv_and_shows_its_gaps(desk, tmp_path):
    done = docgen(
        desk.home,
        "logbook",
        "9 Clinton Street lot",
        "--open",
        "--jurisdiction",
        "homer",
        "--started",
        "2026-10-01",
    )
    assert done.returncode == 0, done.stderr
    officer = desk.signed_in("otto")
    page = officer.get("/logbook", params={"site": "9 Clinton Street lot"}).text
    assert "Missing inspections (1)" in page and "(§ 228-78D(2)(b))" in page
    head = "date,time,inspector,qualification,role,findings"
    good = f"{head}\n2026-10-08,08:00,Ann Pike,CPESC,qualified-inspector,ok\n"
    bad = f"{head},weather\n2026-10-08,08:00,A,B,qualified-inspector,ok,sun\n"
    token = csrf_of(page)
    refused = officer.post(
        "/logbook",
        data={"csrf_token": token, "site": "9 Clinton Street lot"},
        files={"file": ("log.csv", bad, "text/csv")},
    )
    assert refused.status_code == 400 and "unknown column &#39;weather&#39;" in refused.text
    posted = officer.post(
        "/logbook",
        data={"csrf_token": token, "site": "9 Clinton Street lot"},
        files={"file": ("log.csv", good, "text/csv")},
    )
    assert posted.status_code == 303
    shown = officer.get(posted.headers["location"]).text
    assert "1 report recorded" in shown and "Ann Pike (CPESC; qualified-inspector)" in shown
    assert "no inspection within 7 days of 2026-10-08" in shown


def test_due_and_the_log_book_fit_a_phone_and_pass_axe(desk, browser, tmp_path):
    """At 390 px: no sideways scroll, no serious or critical axe finding."""
    context = browser.new_context(base_url=desk.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, "otto")
    found = []
    for path in ("/due", "/logbook?site=9 Clinton Street lot"):
        assert page.goto(path).status == 200, path
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > page.evaluate("window.innerWidth"):
            found.append((path, "scrolls sideways", width))
        found.extend((path, v) for v in axe_violations(page))
    context.close()
    assert found == []
