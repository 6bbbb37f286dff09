"""What is done with an issued document, over HTTP against a real `docgen serve`: the
placard and the packet, a correction that supersedes, the next document filled from the
register, instruments issued by the attorney, service forms only for served kinds."""

from __future__ import annotations

import html
import io
import re

import pytest
from desk_server import csrf_of, docgen, serving, start_draft, typed_sample

from tests.helpers.readback import pdf_text


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module imports older convictions (a history the
    # penalties of other modules' notices would count) and records service and a conviction on a
    # sample.
    yield from serving(tmp_path_factory)


def issued(client, kind: str, sample: str, changes: dict | None = None) -> str:
    """The number of a sample case of ``kind`` typed into a draft and issued."""
    where, token = start_draft(client, kind)
    _, typed = typed_sample(kind, sample)
    client.post(where, data={**typed, **(changes or {}), "csrf_token": token})
    done = client.post(f"{where}/issue", data={"csrf_token": token})
    assert done.status_code == 303, client.get(where).text
    return done.headers["location"].rsplit("/", 1)[1]


def test_a_stop_work_order_gives_its_placard_and_a_notice_its_packet(desk):
    clerk = desk.signed_in("ann")
    order = issued(clerk, "stop-work-order", "homer-silt-fence")
    page = clerk.get(f"/documents/{order}").text
    assert "Download the Stop-work order, placard (PDF)" in page
    placard = clerk.get(f"/documents/{order}/as/placard.pdf")
    assert placard.status_code == 200 and placard.content[:5] == b"%PDF-"
    assert f'filename="{order}-placard.pdf"' in placard.headers["content-disposition"]
    assert order in pdf_text(placard.content) and "STOP" in pdf_text(placard.content).upper()

    notice = issued(clerk, "notice-of-violation", "homer-first-offense")
    assert "Violation packet (PDF)" in clerk.get(f"/documents/{notice}").text
    packet = clerk.get(f"/documents/{notice}/as/packet.pdf")
    text = pdf_text(packet.content)
    assert packet.status_code == 200 and notice in text and f"{notice}-PS" in text
    # a copy a kind does not offer is not found
    assert clerk.get(f"/documents/{notice}/as/placard.pdf").status_code == 404
    assert clerk.get(f"/documents/{order}/as/packet.pdf").status_code == 404


def test_a_correction_starts_from_the_record_and_supersedes_it(desk):
    from docgen.register import Register

    clerk = desk.signed_in("otto")
    number = issued(clerk, "notice-of-violation", "homer-deadline-thanksgiving")
    token = csrf_of(clerk.get(f"/documents/{number}").text)
    draft = clerk.post(f"/documents/{number}/correct", data={"csrf_token": token})
    where = draft.headers["location"]
    page = clerk.get(where).text
    assert f'This draft corrects <a href="/documents/{number}">{number}</a>' in page
    assert "to fix</h2>" not in page  # the stored case, whole
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    fixed = {**typed, "_supersedes": number, "site.description": "Lot 4, corrected"}
    clerk.post(where, data={**fixed, "csrf_token": token})
    corrected = clerk.post(f"{where}/issue", data={"csrf_token": token}).headers["location"]
    new = corrected.rsplit("/", 1)[1]
    assert new != number
    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        assert register.document(number).superseded_by == new
        assert register.document(new).supersedes == number
        assert register.document(new).case["site"]["description"] == "Lot 4, corrected"
    old = clerk.get(f"/documents/{number}").text
    assert f'Superseded by</dt><dd><a href="/documents/{new}">' in old
    assert "Correct this document" not in old and "Record service" not in old
    again = clerk.post(f"/documents/{number}/correct", data={"csrf_token": token})
    assert again.status_code == 409 and new in again.text
    # Corrected once more (on the command line): every page of the line shows it whole.
    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        case = register.document(new).case
        for own in ("number", "prior_offenses"):  # the register gives these again
            case.pop(own, None)
        case["site"]["description"] = "Lot 4, corrected again"
        latest = register.supersede(new, case, formats=("html",)).number
    for shown in (number, new, latest):
        page = clerk.get(f"/documents/{shown}").text
        assert "<dt>Corrections</dt>" in page and "Corrections, oldest first" in page
        assert f'<span aria-current="page">{shown} (this document)</span>' in page
        assert (
            f"{latest} (this document)</span> (in effect)" in page
            if shown == latest
            else f'<a href="/documents/{latest}">{latest}</a> (in effect)' in page
        )


def test_the_next_document_is_filled_from_the_notice(desk):
    clerk = desk.signed_in("ann")
    notice = issued(clerk, "notice-of-violation", "homer-first-offense")
    page = clerk.get(f"/documents/{notice}").text
    assert "Stop-work order from this notice of violation" in page
    assert "Penalty statement from this notice of violation" in page
    token = csrf_of(page)
    for kind, field in (("stop-work-order", "notices[0]"), ("penalty-statement", "notice")):
        where = clerk.post(f"/documents/{notice}/follow/{kind}", data={"csrf_token": token})
        draft = clerk.get(where.headers["location"]).text
        assert f'name="{field}"' in draft and f'value="{notice}"' in draft
        assert 'value="8 Clinton Street"' in draft  # the recipient's address
        assert "Land disturbed" in draft or "violations[0]" in draft
    refused = clerk.post(
        f"/documents/{notice}/follow/maintenance-easement", data={"csrf_token": token}
    )
    assert refused.status_code == 403


def test_the_attorney_issues_an_easement_and_the_agreement_shares_its_property(desk):
    attorney = desk.signed_in("ada")
    easement = issued(attorney, "maintenance-easement", "homer-individual")
    assert re.fullmatch(r"[A-Z]+-\d{4}-\d{4}", easement)
    page = attorney.get(f"/documents/{easement}").text
    assert "Record service" not in page and "Record a disposition" not in page
    for fmt, magic in (("pdf", b"%PDF-"), ("docx", b"PK"), ("html", b"<!DOCTYPE")):
        assert attorney.get(f"/documents/{easement}/file.{fmt}").content[:9].startswith(magic)
    token = csrf_of(page)
    started = attorney.post(
        f"/documents/{easement}/follow/maintenance-agreement", data={"csrf_token": token}
    )
    where = started.headers["location"]
    draft = attorney.get(where).text
    assert "Margaret A. O&#39;Connell" in draft and 'value="87.18-02-05.000"' in draft
    assert "to fix</h2>" not in draft  # everything the agreement needs came across
    agreement = attorney.post(f"{where}/issue", data={"csrf_token": token})
    assert agreement.status_code == 303
    number = agreement.headers["location"].rsplit("/", 1)[1]
    assert "Maintenance agreement, " in attorney.get(f"/documents/{number}").text

    clerk = desk.signed_in("ann")  # a clerk may view, never correct or issue one
    viewed = clerk.get(f"/documents/{easement}").text
    assert easement in viewed and "Correct this document" not in viewed
    ctoken = csrf_of(viewed)
    assert (
        clerk.post(f"/documents/{easement}/correct", data={"csrf_token": ctoken}).status_code == 403
    )


HEADER = "name,street,city,state,zip,committed,convicted,court,docket\n"
ROW = "Tioughnioga Ridge Development LLC,41 Route 281,Homer,NY,13077,2024-02-01,2024-05-01"


def test_older_convictions_are_previewed_then_imported_all_or_nothing(desk):
    import sqlite3

    clerk = desk.signed_in("ann")
    clerk.get("/documents")  # the register is made when first opened
    token = csrf_of(clerk.get("/history/import").text)
    count = "select count(*) from offenses where reference like 'imported from%'"

    def offenses() -> int:
        with sqlite3.connect(desk.home / "docgen.sqlite") as db:
            return db.execute(count).fetchone()[0]

    before = offenses()
    bad = HEADER + ROW + ",Homer Village Court,24-3\n" + ROW + ",,\n"
    shown = clerk.post(
        "/history/import",
        data={"csrf_token": token},
        files={"file": ("older.csv", bad.encode(), "text/csv")},
    )
    # the register's checks, before anything is recorded: every row shown, the bad one named
    assert shown.status_code == 400 and "2 rows in older.csv" in shown.text
    assert "Homer Village Court" in shown.text and "Row 3 of the file you uploaded" in shown.text
    assert "older.csv:" not in shown.text
    assert "Import these rows" not in shown.text and offenses() == before
    refused = clerk.post(
        "/history/import/commit",
        data={"csrf_token": token, "text": bad, "filename": "older.csv"},
    )
    assert refused.status_code == 400 and "nothing imported" in refused.text
    assert "Row 3 of the file you uploaded" in refused.text and offenses() == before

    good = HEADER + ROW + ",Homer Village Court,24-3\n"
    shown = clerk.post(
        "/history/import",
        data={"csrf_token": token},
        files={"file": ("older.csv", good.encode(), "text/csv")},
    )
    assert shown.status_code == 200 and "Import these rows" in shown.text
    text = re.search(r'name="text" value="([^"]*)"', shown.text).group(1)
    assert html.unescape(text) == good
    done = clerk.post(
        "/history/import/commit",
        data={"csrf_token": token, "text": good, "filename": "older.csv"},
    )
    assert done.headers["location"] == "/history/import?done=1" and offenses() == before + 1
    assert "1 conviction imported" in clerk.get(done.headers["location"]).text

    missing = clerk.post(
        "/history/import",
        data={"csrf_token": token},
        files={"file": ("x.csv", b"name,street\nA,B\n", "text/csv")},
    )
    assert missing.status_code == 400 and "city" in missing.text
    attorney = desk.signed_in("ada")
    assert attorney.get("/history/import").status_code == 403


def test_a_certification_gives_one_file_per_firm(desk):
    clerk = desk.signed_in("ann")
    case, _ = typed_sample("contractor-certification", "homer-three-contractors")
    number = issued(clerk, "contractor-certification", "homer-three-contractors")
    page = clerk.get(f"/documents/{number}").text
    firms = [c["firm"] for c in case["contractors"]]
    assert len(firms) == 3 and "Record service" not in page
    for n, firm in enumerate(firms, start=1):
        assert f"Contractor certification for {html.escape(firm)} (PDF)" in page
        part = clerk.get(f"/documents/{number}/as/part-{n}.pdf").content
        text = pdf_text(part)
        assert firm in text.replace("\n", " ")
        assert all(other not in text for other in firms if other != firm)
        # The per-firm file is a file of the issued document: verify says so, naming it.
        (desk.home / f"part-{n}.pdf").write_bytes(part)
        done = docgen(desk.home, "verify", str(desk.home / f"part-{n}.pdf"))
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"{number}, contractor-certification" in done.stdout
        assert f"the part of {firm}" in done.stdout
    assert clerk.get(f"/documents/{number}/as/part-4.pdf").status_code == 404


def test_service_is_recorded_per_person_with_what_the_affidavit_states(desk):
    clerk = desk.signed_in("otto")
    number = issued(clerk, "notice-of-violation", "homer-second-offense-continued")
    page = clerk.get(f"/documents/{number}").text
    token = csrf_of(page)
    assert "<option selected>" not in page and "Tioughnioga Ridge Development LLC</option>" in page
    by_hand = {
        "to": "Cayuga Street Holdings LLC",
        "method": "personal-delivery",
        "date": "2026-11-04",
        "served_by": "Dana R. Whitcomb",
        "place": "77 South Main Street, Homer, NY 13077, at the front office",
        "time": "10:45",
        "person": "Alan P. Mercer",
        "capacity": "managing member",
        "description": "male, about 50, 6 ft, grey hair",
    }
    done = clerk.post(f"/documents/{number}/service", data={**by_hand, "csrf_token": token})
    assert done.status_code == 303, done.text
    mailed = {
        "to": "Tioughnioga Ridge Development LLC",
        "method": "certified-mail",
        "date": "2026-11-04",
        "received": "2026-11-06",
        "received_by": "R. Vantine",
        "article": "9589 0710 5270 0123 4568 59",
        "served_by": "Dana R. Whitcomb",
        "oath": "affirmation",
    }
    done = clerk.post(f"/documents/{number}/service", data={**mailed, "csrf_token": token})
    assert done.status_code == 303, done.text
    page = clerk.get(f"/documents/{number}").text
    assert "(handed to Alan P. Mercer, managing member)" in page
    mail = "Certified mail, return receipt requested"
    assert f"<td>Tioughnioga Ridge Development LLC</td><td>{mail}</td>" in page
    first = re.search(r"Affidavits of service: <a href=\"/documents/([^\"]+)\"", page).group(1)
    text = pdf_text(clerk.get(f"/documents/{first}/file.pdf").content).replace("\n", " ")
    assert "10:45" in text and "Alan P. Mercer, managing member of Cayuga" in text

    # the register's checks are the form's: a time given for a mailing is refused, kept
    wrong = {**mailed, "time": "09:00", "date": "2026-11-05"}
    refused = clerk.post(f"/documents/{number}/service", data={**wrong, "csrf_token": token})
    assert refused.status_code == 400 and "personal delivery" in refused.text
    assert 'value="R. Vantine"' in refused.text  # what was typed stays

    # dispositions: shown on the page; one ahead of its offense refused
    assert "Offense and disposition" in page and "<td>Pending</td>" in page
    early = {"disposition": "convicted", "date": "2026-01-05", "court": "Homer Village Court"}
    refused = clerk.post(f"/documents/{number}/disposition", data={**early, "csrf_token": token})
    assert refused.status_code == 400
    fine = {**early, "date": "2026-11-20", "docket": "26-118"}
    assert (
        clerk.post(
            f"/documents/{number}/disposition", data={**fine, "csrf_token": token}
        ).status_code
        == 303
    )
    page = clerk.get(f"/documents/{number}").text
    assert "<td>Convicted</td><td>November 20, 2026</td><td>Homer Village Court</td>" in page


def test_the_attorney_issues_an_easement_with_counsels_final_text(desk):
    """The Word copy edited by counsel goes with Issue: the register keeps the generated
    draft, the final, the redline and the final's PDF/A, each downloadable and verified;
    a file that is not a recordable DOCX is refused with the reason, nothing numbered."""
    import docx

    attorney = desk.signed_in("ada")
    where, token = start_draft(attorney, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    attorney.post(where, data={**typed, "csrf_token": token})
    page = attorney.get(where).text
    assert 'enctype="multipart/form-data"' in page and 'name="final"' in page
    word = attorney.get(f"{where}/word")
    assert word.status_code == 200 and word.content[:2] == b"PK"
    edited = docx.Document(io.BytesIO(word.content))
    edited.add_paragraph("Counsel adds this sentence before signing.")
    final = io.BytesIO()
    edited.save(final)

    refused = attorney.post(
        f"{where}/issue",
        data={"csrf_token": token},
        files={"final": ("final.pdf", b"%PDF-1.7 not a Word file", "application/pdf")},
    )
    assert refused.status_code != 303 and "not a DOCX" in html.unescape(refused.text)

    done = attorney.post(
        f"{where}/issue",
        data={"csrf_token": token},
        files={"final": ("final.docx", final.getvalue(), "application/octet-stream")},
    )
    assert done.status_code == 303, done.text
    number = done.headers["location"].rsplit("/", 1)[1]
    shown = attorney.get(f"/documents/{number}").text
    kept = {}
    for stored in ("docx", "final", "redline", "final-pdfa"):
        assert f"file.{stored}" in shown
        got = attorney.get(f"/documents/{number}/file.{stored}")
        assert got.status_code == 200, stored
        kept[stored] = got.content
    assert kept["final"] == final.getvalue()
    assert kept["redline"][:2] == b"PK" and kept["final-pdfa"][:5] == b"%PDF-"
    assert "Counsel adds this sentence" in pdf_text(kept["final-pdfa"])
    assert (
        "final.docx"
        in attorney.get(f"/documents/{number}/file.final").headers["content-disposition"]
    )
