"""One served date, one deadline, one place (LAW.md § 2; issue 28, item 2): every reader of
the register says the day service was complete and the kept deadline as
docgen.register.storage.standing derives them from the events, never an event's raw date.

The scenario that tells them apart: a document mailed by certified mail to the landowner
(its mailing date, the first event), the return receipt signed two days after mailing + 5
(the day service on the landowner was complete), and a personal delivery to the developer
copied a day later (the last event). `history`, `verify`, the lifting notice (PDF and DOCX
read back), the desk's pages (documents list, document page, respondent page, verify, due)
and the calendar must each say the receipt's day, and the one deadline it gives; `verify`
on a lifted order names the lifting, by number and date. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from desk_server import csrf_of, start_desk, stop_desk

from docgen.cases.mail import with_check_digit
from docgen.law.deadlines import appeal_deadline, long_date
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.reading.due import calendar
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of
from tests.register.conftest import BACKENDS, fresh_postgres, fresh_sqlite
from tests.register.test_register_lift import order

HTML = ("html",)
LANDOWNER = "Tioughnioga Ridge Development LLC"  # the notice's recipient (register_cases)
DEVELOPER = {
    "name": "Brandt Earthmoving Corp.",
    "role": "developer",
    "address": {"street": "9 Tradewinds Way", "city": "Naples", "state": "FL", "zip": "34102"},
}
NOTICE_ARTICLE = with_check_digit("958907105270012345" + "601")
ORDER_ARTICLE = with_check_digit("958907105270012345" + "602")


def flat(text: str) -> str:
    return " ".join(text.split())


def mailing_day() -> date:
    """A mailing day whose receipt (mailing + 7) gives a later last day than mailing + 5
    would, with everything up to the lifting (mailing + 9) on or before today."""
    pack = load_pack("homer")
    today = municipal_today(pack)
    for back in range(9, 20):
        day = today - timedelta(days=back)
        if last_day(day + timedelta(days=5)) != last_day(day + timedelta(days=7)):
            return day
    raise AssertionError("no mailing day in the last three weeks tells the two apart")


def last_day(served: date) -> date:
    return appeal_deadline(served, load_pack("homer")).last_day


def served_as_the_issue_says(reg, number: str, mailed: date, article: str) -> None:
    """Mailed to the landowner, the receipt signed at mailing + 7, the developer's copy
    delivered by hand at mailing + 8."""
    reg.record_service(number, service_of("certified-mail", mailed, article=article), formats=HTML)
    reg.record_receipt(number, mailed + timedelta(days=7), "R. Vantine", formats=HTML)
    reg.record_service(
        number,
        service_of(
            "personal-delivery",
            mailed + timedelta(days=8),
            to=DEVELOPER["name"],
            person="Walter Brandt",
            capacity="president",
        ),
        formats=HTML,
    )


@pytest.fixture(scope="module", params=BACKENDS)
def register_url(request, tmp_path_factory):
    """One register on each backend for the module (tests/register/conftest.py makes one
    for each test): every test here reads the one matter, and none changes it (the desk
    adds its users). Set for the commands, as the conftest's is."""
    if request.param == "sqlite":
        home = tmp_path_factory.mktemp("home")
        url = fresh_sqlite(request.getfixturevalue("sqlite_template"), home / "docgen.sqlite")
    else:
        url = fresh_postgres(request.getfixturevalue("postgres_template"))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DOCGEN_DATABASE_URL", url)
        yield url


@pytest.fixture(scope="module")
def reg(register_url):
    from docgen.register import Register

    with Register.open(register_url) as opened:
        yield opened


@pytest.fixture(scope="module")
def matter(reg):
    """A notice and an order, each served as the issue says; the order then lifted (made
    once per backend: the module's tests only read it)."""
    mailed = mailing_day()
    case = notice(mailed.isoformat()) | {"copies_to": [DEVELOPER]}
    issued = reg.issue("notice-of-violation", case, formats=("pdf",))
    served_as_the_issue_says(reg, issued.number, mailed, NOTICE_ARTICLE)
    swo = order() | {"issued": mailed.isoformat(), "copies_to": [DEVELOPER]}
    swo["notices"] = [issued.number]
    swo["violations"][0]["observed"] = (mailed - timedelta(days=2)).isoformat()
    swo["remedies"][0]["due"] = (mailed + timedelta(days=7)).isoformat()
    swo["recipient"]["name"] = LANDOWNER  # the same landowner: one respondent's history
    swo["recipient"]["address"] = case["recipient"]["address"]
    stop = reg.issue("stop-work-order", swo, formats=("pdf",))
    served_as_the_issue_says(reg, stop.number, mailed, ORDER_ARTICLE)
    complete = mailed + timedelta(days=7)
    in_effect = [i for i in calendar(reg) if i.category == "order in effect"]
    lifted = reg.lift(stop.number, mailed + timedelta(days=9), formats=("pdf", "docx"))
    return {
        "mailed": mailed,
        "complete": complete,
        "deadline": last_day(complete),
        "notice": issued,
        "order": stop,
        "lifted": lifted,
        "in_effect": in_effect,
    }


def test_the_register_derives_the_landowner_s_completion_not_an_event_s_date(reg, matter):
    complete, deadline = matter["complete"], matter["deadline"]
    for issued in (matter["notice"], matter["order"]):
        doc = reg.document(issued.number)
        assert [e.date for e in doc.services] == [
            matter["mailed"],
            matter["mailed"] + timedelta(days=8),
        ]
        assert doc.served_on == complete
        assert [e.complete for e in doc.services] == [complete, complete + timedelta(days=1)]
    assert reg.document(matter["notice"].number).appeal_deadline == deadline
    assert reg.document(matter["order"].number).appeal_deadline is None  # not appealable


def test_history_says_the_derived_served_date_and_the_kept_deadline(reg, matter):
    complete, deadline = matter["complete"], matter["deadline"]
    run = docgen("history", str(matter["notice"].respondent.id))
    assert run.returncode == 0, run.stderr
    lines = {line.split()[1]: line for line in run.stdout.splitlines() if line.count("  ") >= 2}
    said = lines[matter["notice"].number]
    assert f"served {complete.isoformat()}; appeal by {deadline.isoformat()}" in said
    assert f"served {complete.isoformat()})" in lines[matter["order"].number]


def test_verify_says_the_served_date_the_deadline_and_the_lifting(reg, matter, tmp_path):
    complete, deadline, lifted = matter["complete"], matter["deadline"], matter["lifted"]
    expected = {
        matter["notice"].number: [f"served {complete}", f"appeal by {deadline}"],
        matter["order"].number: [
            f"served {complete}",
            f"lifted by {lifted.number} as of {lifted.issued}: this order is no longer in effect",
        ],
    }
    for number, lines in expected.items():
        path = tmp_path / f"{number}.pdf"
        path.write_bytes(reg.files(number)["pdf"])
        run = docgen("verify", str(path))
        assert run.returncode == 0, run.stderr
        for line in lines:
            assert line in run.stdout, run.stdout
        found = reg.verify(path.read_bytes())
        assert found.served_on == complete
    assert reg.verify(reg.files(matter["order"].number)["pdf"]).lifted_on == lifted.issued


def test_the_lifting_notice_states_the_service_date_the_register_keeps(matter):
    order_number, complete = matter["order"].number, matter["complete"]
    lifted = matter["lifted"]
    for text in (pdf_text(lifted.files["pdf"]), docx_text(lifted.files["docx"])):
        words = flat(text)
        assert f"Stop-Work Order No. {order_number}, served {long_date(complete)}" in words
        for wrong in (matter["mailed"], matter["mailed"] + timedelta(days=8)):
            assert f"served {long_date(wrong)}" not in words


def test_the_calendar_reads_the_kept_deadline_and_the_order_s_completion(reg, matter):
    appeal = [
        i
        for i in calendar(reg)
        if i.category == "appeal deadline" and i.number == matter["notice"].number
    ]
    assert [i.day for i in appeal] == [matter["deadline"]]
    # Before the lifting the order was in effect from the day its service was complete.
    in_effect = [i for i in matter["in_effect"] if i.number == matter["order"].number]
    assert [i.day for i in in_effect] == [matter["complete"]]
    assert not [i for i in calendar(reg) if i.number == matter["order"].number]  # lifted


def test_the_desk_says_the_same_served_date_and_deadline_everywhere(
    reg, matter, register_url, tmp_path
):
    complete, deadline = long_date(matter["complete"]), long_date(matter["deadline"])
    mailed = long_date(matter["mailed"])
    (tmp_path / "desk-home").mkdir()
    desk = start_desk(tmp_path / "desk-home", register_url)
    try:
        clerk = desk.signed_in("ann")
        notice_number, order_number = matter["notice"].number, matter["order"].number
        page = flat(clerk.get(f"/documents/{notice_number}").text)
        assert f"<dt>Served</dt><dd>{complete} " in page
        assert f"Last day to appeal</dt><dd>{deadline}</dd>" in page
        assert long_date(last_day(matter["mailed"] + timedelta(days=5))) not in page
        assert f"{LANDOWNER} (landowner): service complete {complete}" in page
        page = flat(clerk.get(f"/documents/{order_number}").text)
        assert f"<dt>Served</dt><dd>{complete} " in page
        lifted = matter["lifted"]
        assert (
            f'Lifted by <a href="/documents/{lifted.number}">{lifted.number}</a> as of '
            f"{long_date(lifted.issued)}"
        ) in page
        listed = flat(clerk.get("/documents", params={"q": notice_number}).text)
        assert f'data-label="Served">{complete}</td>' in listed
        assert f'data-label="Served">{mailed}</td>' not in listed
        respondent = matter["notice"].respondent.id
        page = flat(clerk.get(f"/respondents/{respondent}").text)
        assert f"served {complete}; last day to appeal {deadline}" in page
        assert f"lifted by {lifted.number} as of {long_date(lifted.issued)}" in page
        # "Start a notice for ..." starts from the respondent's latest notice or order (its
        # site and its copies), not from their newest document, here the affidavit of the
        # delivery recorded after the notice (issue 28, item 7).
        case = notice(str(matter["mailed"]), name="Glenwood Heights Holding LLC")
        other = reg.issue("notice-of-violation", case | {"copies_to": [DEVELOPER]}, formats=HTML)
        reg.record_service(
            other.number, service_of("personal-delivery", matter["mailed"]), formats=HTML
        )
        landowner = other.respondent.id
        assert reg.history(landowner).documents[0].kind == "affidavit-of-service"
        token = csrf_of(clerk.get(f"/respondents/{landowner}").text)
        started = clerk.post(f"/respondents/{landowner}/notice", data={"csrf_token": token})
        assert started.status_code == 303, started.text
        draft = clerk.get(started.headers["location"]).text
        assert ">Vacant lot on the east side of Route 11</textarea>" in draft  # the site
        assert 'value="Glenwood Heights Holding LLC"' in draft
        assert f'value="{DEVELOPER["name"]}"' in draft  # the copies
        due = flat(clerk.get("/due").text)
        assert deadline in due and notice_number in due
        token = csrf_of(clerk.get("/verify").text)
        blob = reg.files(order_number)["pdf"]
        verified = clerk.post(
            "/verify", data={"csrf_token": token}, files={"file": ("o.pdf", blob)}
        )
        said = flat(verified.text)
        assert f"Served {complete} (service complete" in said
        assert f"{lifted.number}</a> as of {long_date(lifted.issued)}" in said
    finally:
        stop_desk(desk)
