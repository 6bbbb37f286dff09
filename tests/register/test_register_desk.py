"""The desk on a shared PostgreSQL register: users, sessions, drafts and the register's
records in one PostgreSQL database, through a real `docgen serve`."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from desk_server import csrf_of, start_desk, start_draft, stop_desk, typed_sample
from test_desk_words import shown

from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_form, service_of
from tests.register.test_register_lift import order
from tests.register.test_register_occupancy import PREMISES
from tests.register.test_register_restoration import RESTORE, inspection

from .conftest import fresh_postgres


@pytest.fixture(scope="module")
def desk(tmp_path_factory, postgres_template):
    server = start_desk(tmp_path_factory.mktemp("desk"), fresh_postgres(postgres_template))
    yield server
    stop_desk(server)


def test_a_notice_is_issued_served_and_verified_on_postgresql(desk):
    import psycopg

    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    clerk.post(where, data={**typed, "csrf_token": token})
    # The draft states no last day (LAW.md § 2, print first, serve second): the one the
    # desk shows is the register's, from the service recorded after issue.
    assert 'data-figure="deadline"' not in clerk.get(where).text
    document = clerk.post(f"{where}/issue", data={"csrf_token": token}).headers["location"]
    number = document.rsplit("/", 1)[1]
    pdf = clerk.get(f"{document}/file.pdf").content
    served = clerk.post(
        f"{document}/service",
        data={"csrf_token": token, **service_form("personal-delivery"), "date": "2026-11-11"},
    )
    assert served.status_code == 303
    # Delivered 11-11: day 15 is Thanksgiving (11-26), so the last day is 11-27.
    assert "Last day to appeal</dt><dd>November 27, 2026</dd>" in clerk.get(document).text
    verified = clerk.post("/verify", data={"csrf_token": token}, files={"file": ("n.pdf", pdf)})
    assert "Issued by this register" in verified.text and number in verified.text
    with psycopg.connect(desk.database) as conn:
        users = conn.execute("SELECT name, password_hash FROM desk_users ORDER BY name").fetchall()
        drafts = conn.execute("SELECT issued_as FROM desk_drafts").fetchall()
        numbers = conn.execute("SELECT number FROM documents").fetchall()
    assert [name for name, _ in users] == ["ada", "ann", "otto", "root"]
    assert all(hashed.startswith("$argon2id$") for _, hashed in users)
    # Recording service also issued the affidavit of service, a document of its own.
    assert drafts == [(number,)] and sorted(numbers) == [("AOS-2026-0001",), (number,)]


def _new(desk, prefix: str) -> str:
    """The one document numbered ``prefix``... in the desk's PostgreSQL register."""
    import psycopg

    with psycopg.connect(desk.database) as conn:
        (found,) = conn.execute(
            "SELECT number FROM documents WHERE number LIKE %s", (prefix + "%",)
        ).fetchall()
    return str(found[0])


def _posted(client, where: str, **typed: str) -> str:
    """POST the form at ``where`` (the page's own token) and follow the desk's answer: the
    number of the page it sends the officer to."""
    page = "/".join(where.split("/")[:3])  # /documents/NUMBER, whose page has the form
    token = csrf_of(client.get(page).text)
    done = client.post(where, data={**typed, "csrf_token": token})
    assert done.status_code == 303, shown(done.text)
    return str(done.headers["location"].rsplit("/", 1)[1])


def _read(client, number: str) -> str:
    got = client.get(f"/documents/{number}/file.pdf")
    assert got.status_code == 200, got.text[:300]
    return " ".join(pdf_text(got.content).split())


def test_every_step_after_the_notice_from_the_pages_on_postgresql(desk):
    """Issue 50's steps through the desk on PostgreSQL (§ 228-79C(1)(f), (5), (6); LAW.md
    §§ 11, 14): the appeal received, heard and decided; a later date granted; occupancy
    withheld and released; restoration required, its cost stated, the lien recorded, paid
    and released. Each issued document read back from its PDF as the desk serves it."""
    from docgen.register import Register

    with Register.open(desk.database) as reg:
        nov = reg.issue("notice-of-violation", notice("2026-11-10"), formats=("html",)).number
        reg.record_service(nov, service_of("personal-delivery", date(2026, 11, 11)))
        swo = reg.issue("stop-work-order", order(), formats=("html",))
        reg.record_service(swo.number, service_of("personal-delivery", swo.issued))
    clerk, officer = desk.signed_in("ann"), desk.signed_in("otto")
    # A later date for the notice's remedial measure 1 (due November 17).
    _posted(officer, f"/documents/{nov}/later/extend", item="1", until="2026-12-04",
            granted_by="Dana R. Whitcomb", reason="Frozen ground")  # fmt: skip
    text = _read(officer, _new(desk, "EXT-"))
    assert "Extension of Time" in text and f"Notice of Violation No. {nov}" in text
    assert "Was due November 17, 2026" in text and "Now due December 4, 2026" in text
    # The appeal: received on time, heard, decided.
    _posted(clerk, f"/documents/{nov}/appeal/received", received="2026-11-20",
            received_by="Marion T. Ashby")  # fmt: skip
    assert "Appeal pending." in clerk.get(f"/documents/{nov}").text
    text = _read(clerk, _new(desk, "APA-"))
    assert "Acknowledgment of Notice of Appeal" in text
    assert "The notice of appeal was filed on time" in text
    _posted(clerk, f"/documents/{nov}/appeal/hearing", hearing="2026-12-01", time="7:00 p.m.",
            date="2026-11-30")  # fmt: skip
    text = _read(clerk, _new(desk, "APH-"))
    assert "Notice of Hearing of Appeal" in text and "Date December 1, 2026" in text
    _posted(clerk, f"/documents/{nov}/appeal/decision", outcome="affirmed",
            reason="Seen on site.", date="2026-12-02", signed_by="Peter J. Lindqvist",
            title="Chair")  # fmt: skip
    text = _read(clerk, _new(desk, "APD-"))
    assert f"The determination of violation in Notice of Violation No. {nov} is affirmed." in text
    assert "Appeal pending." not in clerk.get(f"/documents/{nov}").text
    # Occupancy withheld on the served stop-work order, served, released in writing.
    day = swo.issued.isoformat()
    held = _posted(officer, f"/documents/{swo.number}/withhold", premises=PREMISES, date=day)
    text = _read(officer, held)
    assert "Order Preventing Occupancy" in text
    assert f"rests on Stop-Work Order No. {swo.number}" in text
    _posted(officer, f"/documents/{held}/service", **service_form("personal-delivery", date=day))
    freed = _posted(officer, f"/documents/{held}/release-occupancy", date=day)
    text = _read(officer, freed)
    assert "Release of Order Preventing Occupancy" in text
    assert f"Order Preventing Occupancy No. {held}" in text
    # Restoration by the officer's date, an inspection on it finding it not done, the cost,
    # the lien, its payment and its release.
    by = swo.issued + timedelta(days=7)
    restore = _posted(officer, f"/documents/{swo.number}/restore", restore=RESTORE,
                      restore_by=by.isoformat(), date=day)  # fmt: skip
    assert "Notice Requiring Restoration of Lands" in _read(officer, restore)
    _posted(officer, f"/documents/{restore}/service", **service_form("personal-delivery", date=day))
    with Register.open(desk.database) as reg:
        found = reg.issue("inspection-report", inspection(by), formats=("pdf",)).number
    cost = _posted(officer, f"/documents/{restore}/cost", inspection=found, date=by.isoformat(),
                   items="Regrading the north slope = 750.00\nSeed and mulch = 410.50")  # fmt: skip
    text = _read(officer, cost)
    assert "Statement of the Cost of Corrective Action" in text and "($1,160.50)" in text
    assert f"Inspection Report No. {found}" in text
    lien = _posted(officer, f"/documents/{cost}/lien", date=by.isoformat())
    text = _read(officer, lien)
    assert "Notice of Lien" in text and "($1,160.50)" in text and "until paid" in text
    _posted(officer, f"/documents/{lien}/payment", amount="1,160.50", date=by.isoformat(),
            paid_by="Cayuga Street Holdings LLC")  # fmt: skip
    assert "Balance: <strong>$0.00</strong>" in officer.get(f"/documents/{lien}").text
    paid = _posted(officer, f"/documents/{lien}/release-lien", date=by.isoformat())
    text = _read(officer, paid)
    assert "Release of Lien" in text and f"Notice of Lien No. {lien}" in text
