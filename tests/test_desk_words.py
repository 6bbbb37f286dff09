"""The clerk's words over HTTP, against a real `docgen serve`: every form's refusal names
the field by its label and place as the clerk sees it (rows counted from 1), lists every
problem of the submit at once, and shows no path, option, file position, key or slug."""

from __future__ import annotations

import html
import re

import pytest
from desk_server import csrf_of, start_draft, typed_sample
from helpers.clerk_words import developer_words

from docgen.law.packs import load_pack
from tests.helpers.served import service_form


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


def shown(page: str) -> list[str]:
    """What the clerk reads of the page's problems: the error summary's lines, the error
    lines beside fields, and an error box's lines (tags removed, entities decoded)."""
    found = re.findall(r'<li><a href="#[^"]*">(.*?)</a></li>', page)
    found += re.findall(r'<span class="error-line">(.*?)</span>', page)
    boxes = re.findall(r'<div class="error-box" role="alert">(.*?)</div>', page, re.S)
    for box in boxes:
        found += re.findall(r"<(?:p|li)>(.*?)</(?:p|li)>", box, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in found]


def readable(lines: list[str]) -> None:
    assert lines
    assert {line: developer_words(line) for line in lines if developer_words(line)} == {}


def issued(client, kind: str, sample: str) -> str:
    where, token = start_draft(client, kind)
    _, typed = typed_sample(kind, sample)
    client.post(where, data={**typed, "csrf_token": token})
    done = client.post(f"{where}/issue", data={"csrf_token": token})
    assert done.status_code == 303, client.get(where).text
    return done.headers["location"].rsplit("/", 1)[1]


def test_the_case_form_names_each_field_by_its_label_and_row_all_at_once(desk):
    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    typed.pop("remedies[0].measure")
    typed["remedies[0].due"] = "2026-02-30"
    typed["recipient.address.zip"] = ""
    clerk.post(where, data={**typed, "csrf_token": token, "_action": "check"})
    page = clerk.get(where).text
    lines = shown(page)
    readable(lines)
    cite = load_pack("homer").cite("enforcement.elements.remedies")
    assert f"Remedy 1, measure: missing. {cite} requires it." in lines
    assert any(
        line.startswith("Remedy 1, due: 30 February 2026 is not a real calendar date")
        for line in lines
    ), lines
    assert any(line.startswith("Recipient, address, ZIP code: missing.") for line in lines)
    assert "3 problems to fix" in page
    # the typed text is kept, and the impossible date is shown as typed, not blanked
    assert 'value="2026-02-30"' in page


@pytest.mark.parametrize(
    ("user", "kind", "sample"),
    [
        ("ann", "notice-of-violation", "homer-second-offense-continued"),
        ("otto", "stop-work-order", "homer-silt-fence"),
        ("ann", "penalty-statement", "homer-third-offense"),
        ("otto", "contractor-certification", "homer-three-contractors"),
        ("ada", "maintenance-easement", "homer-llc-two-signers"),
    ],
)
def test_a_sample_with_a_field_of_each_part_left_out_is_refused_in_words(desk, user, kind, sample):
    """The first field of every part left blank (and every date made impossible): every
    message on the page is in the clerk's words."""
    client = desk.signed_in(user)
    where, token = start_draft(client, kind)
    _, typed = typed_sample(kind, sample)
    parts: set[str] = set()
    for name in list(typed):
        part = re.split(r"[.\[]", name)[0]
        if part not in parts:
            parts.add(part)
            typed[name] = ""
        elif re.search(r"(date|issued|observed|due|signed|trained|committed)$", name):
            typed[name] = "2026-02-30"
    client.post(where, data={**typed, "csrf_token": token, "_action": "check"})
    lines = shown(client.get(where).text)
    readable(lines)
    assert len(lines) >= 2


def test_service_refusals_name_the_forms_labels_all_at_once(desk):
    clerk = desk.signed_in("ann")
    number = issued(clerk, "notice-of-violation", "homer-first-offense")
    token = csrf_of(clerk.get(f"/documents/{number}").text)
    wrong = {
        "method": "certified-mail",
        "served_by": "Dana R. Whitcomb",
        "date": "2026-02-30",
        "received": "2026-13-01",
        "received_by": "",
        "time": "09:00",
        "capacity": "managing member",
        "article": "1234",
    }
    refused = clerk.post(f"/documents/{number}/service", data={**wrong, "csrf_token": token})
    assert refused.status_code == 400
    lines = shown(refused.text)
    readable(lines)
    assert lines[0] == f"{len(lines) - 1} problems to fix:"
    said = "\n".join(lines)
    assert "Date of service: 30 February 2026 is not a real calendar date" in said
    assert "Date received: '2026-13-01' is not a real calendar date" in said
    assert "Their capacity: is the capacity of Individual handed the copy" in said
    assert "describe a personal delivery; the method is certified mail" in said
    assert "Certified-mail article number: '1234'" in said
    assert "LAW.md" not in said and "--" not in said
    assert 'value="managing member"' in refused.text  # what was typed stays
    for name in ("date", "received", "capacity", "article"):  # each field is marked
        assert re.search(rf'name="{name}"[^>]*aria-invalid="true"', refused.text), name
    assert not re.search(r'name="served_by"[^>]*aria-invalid', refused.text)

    # a date before the issue date, from the register's own check of the document
    early = {**service_form("personal-delivery"), "date": "2020-01-02"}
    refused = clerk.post(f"/documents/{number}/service", data={**early, "csrf_token": token})
    lines = shown(refused.text)
    readable(lines)
    assert lines[0].startswith(f"Date of service: 2020-01-02: before {number} was issued")

    # a delivery by hand with nothing of it said: each fact the affidavit states is asked
    # for by its label, with the reason (LAW.md § 10), never filled in
    bare = {"method": "personal-delivery", "date": "2026-11-16", "csrf_token": token}
    refused = clerk.post(f"/documents/{number}/service", data=bare)
    said = "\n".join(shown(refused.text))
    recorded = "missing: an affidavit states only what was recorded: say"
    assert f"Place of delivery or posting: {recorded} where the copy was delivered" in said
    assert f"Time of delivery: {recorded} at what time it was delivered" in said
    assert f"Their description: {recorded} how the person who took it looked" in said
    assert f"Served by: {recorded} who served it (their name; type the issuing officer's" in said
    assert "--" not in said and "LAW.md" not in said


def test_disposition_and_lift_refusals_are_in_words(desk):
    clerk = desk.signed_in("ann")
    number = issued(clerk, "notice-of-violation", "homer-first-offense")
    token = csrf_of(clerk.get(f"/documents/{number}").text)
    convicted = {"disposition": "convicted", "date": "", "court": "Homer Village Court"}
    refused = clerk.post(
        f"/documents/{number}/disposition", data={**convicted, "csrf_token": token}
    )
    lines = shown(refused.text)
    readable(lines)
    penalties = load_pack("homer").part("penalties").ref
    assert lines == [f"Date: missing: a conviction needs its date ({penalties})"]
    impossible = {**convicted, "date": "2026-04-31"}
    refused = clerk.post(
        f"/documents/{number}/disposition", data={**impossible, "csrf_token": token}
    )
    assert shown(refused.text)[0].startswith("Date: 31 April 2026 is not a real calendar date")

    officer = desk.signed_in("otto")
    order = issued(officer, "stop-work-order", "homer-unpermitted-grading")
    token = csrf_of(officer.get(f"/documents/{order}").text)
    early = officer.post(
        f"/documents/{order}/lift", data={"date": "2026-12-01", "csrf_token": token}
    )
    lines = shown(early.text)
    readable(lines)
    # what the order lacks is its service, asked for beside the service form's date
    assert lines[0] == "When was this order served? Record its service here; then lift it."
    assert lines[1].startswith(f"{order} has no recorded service that stands")
    impossible = officer.post(
        f"/documents/{order}/lift", data={"date": "2026-02-29", "csrf_token": token}
    )
    lines = shown(impossible.text)
    assert lines[0].startswith("On what day was compliance confirmed?")  # beside the date
    assert "29 February 2026 is not a real calendar date" in lines[1]


def test_the_users_form_lists_every_problem_at_once(desk):
    admin = desk.signed_in("root")
    token = csrf_of(admin.get("/users").text)
    bad = {"name": "two words", "role": "clerk", "password": "short", "title": "x" * 300}
    refused = admin.post("/users/add", data={**bad, "csrf_token": token})
    assert refused.status_code == 400
    lines = shown(refused.text)
    readable(lines)
    assert lines[0] == "3 problems to fix:"
    assert lines[1].startswith("User name: one word")
    assert lines[2].startswith("Password: at least")
    assert lines[3].startswith("Title: at most")


def test_an_upload_is_refused_by_row_and_column_of_the_sheet(tmp_path):
    from docgen.desk.people.history_import import said
    from docgen.errors import DocgenError
    from docgen.register.people.history_csv import read_rows, validate

    header = "name,street,city,state,zip,committed,convicted,court,docket\n"
    rows = "A. Owner,1 Main Street,Homer,NY,1307,2024-02-30,2024-05-01,Homer Village Court,1\n"
    (tmp_path / "older.csv").write_text(header + rows, encoding="utf-8")
    with pytest.raises(DocgenError) as refused:
        validate(read_rows(tmp_path / "older.csv", "homer"), "older.csv")
    lines = said(refused.value, "older.csv")
    assert lines[1] == (
        "Row 2 of the file you uploaded, column zip: '1307' is not a ZIP code (12345 or 12345-6789)"
    )
    assert lines[2].startswith(
        "Row 2 of the file you uploaded, column committed: 30 February 2024 is not a real "
        "calendar date"
    )
    assert not [line for line in lines if ".csv" in line or "quote it" in line]
