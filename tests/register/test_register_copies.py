"""`docgen issue KIND CASE --copies` (LAW.md § 9): one document, one number, with the
landowner's original and a copy addressed to each person in copies_to, each file stored
with its SHA-256 and written to -o (and by `export`); `verify` names whose copy a file is,
and a second process issuing the same case gets the same document. On SQLite and on
PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from docgen.errors import DocgenError
from docgen.register import Issue
from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

DEVELOPER = {
    "name": "Tioughnioga Ridge Development LLC",
    "role": "developer",
    "address": {"street": "41 Route 281", "city": "Homer", "state": "NY", "zip": "13077"},
}
APPLICANT = {
    "name": "Dana Pruitt",
    "role": "applicant",
    "address": {"street": "7 Clinton Avenue", "city": "Cortland", "state": "NY", "zip": "13045"},
}


def test_issue_copies_records_one_document_and_verify_names_each_copy(register_url, tmp_path):
    case = tmp_path / "case.json"
    case.write_text(json.dumps(notice() | {"copies_to": [DEVELOPER, APPLICANT]}))
    run = docgen("issue", "notice-of-violation", case, "--copies", "-f", "pdf", "-o", tmp_path)
    assert run.returncode == 0, run.stderr
    stem = "NOV-2026-0001-notice-of-violation"
    names = [f"{stem}.pdf", f"{stem}-copy-1.pdf", f"{stem}-copy-2.pdf"]
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == sorted(names)
    texts = [" ".join(pdf_text((tmp_path / n).read_bytes()).split()) for n in names]
    assert "Copy for" not in texts[0]
    assert "Copy for Tioughnioga Ridge Development LLC (developer)." in texts[1]
    assert "Copy for Dana Pruitt (applicant)." in texts[2]
    for name, whose in zip(
        names, ["", "Tioughnioga Ridge", "Dana Pruitt (applicant)"], strict=True
    ):
        run = docgen("verify", tmp_path / name)
        assert run.returncode == 0, run.stderr
        assert "NOV-2026-0001, notice-of-violation" in run.stdout
        assert ("the copy for" in run.stdout) == bool(whose) and whose in run.stdout

    # Another clerk, in another process, issues the same case: the same document.
    command = ("issue", "notice-of-violation", case, "--copies", "-f", "pdf", "-o", "again/")
    again = subprocess.run(
        [sys.executable, "-m", "docgen.cli", *map(str, command)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert "NOV-2026-0001" in again.stdout
    run = docgen("export", "NOV-2026-0001", "-f", "pdf", "-o", f"{tmp_path}/export/")
    assert run.returncode == 0, run.stderr
    for name in names:
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / name).read_bytes()
        assert (tmp_path / "export" / name).read_bytes() == (tmp_path / name).read_bytes()
    from docgen.register import Register

    with Register.open(register_url) as reg:
        assert reg.count() == 1
        stored = reg.document("NOV-2026-0001")
    for name, fmt in zip(names, ["pdf", "copy1.pdf", "copy2.pdf"], strict=True):
        digest = hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()
        assert stored.hashes[fmt] == digest


def test_copies_are_refused_for_a_kind_without_them_and_asked_of_an_issue_without(reg):
    with pytest.raises(DocgenError, match="has no copies"):
        reg.issue("contractor-certification", {"kind": "x"}, Issue(copies=True))
    case = notice() | {"copies_to": [DEVELOPER]}
    issued = reg.issue("notice-of-violation", case, formats=("html",))
    with pytest.raises(DocgenError, match="without copies; its number stands"):
        reg.issue("notice-of-violation", case, Issue(copies=True), formats=("html",))
    assert reg.count() == 1 and issued.number == "NOV-2026-0001"


def test_lift_copies_address_the_notice_to_each_person_the_order_was_served_on(reg, tmp_path):
    """`docgen lift NUMBER --copies`: the notice lifting an order, one number, the
    landowner's original and a copy for each other person served with the order, each in
    the window (PDF, and DOCX as LibreOffice lays it out), kept, verified and exported."""
    from datetime import date

    from tests.helpers.envelope import window_block
    from tests.helpers.office import office_pdfs
    from tests.helpers.readback import docx_text
    from tests.register.test_register_lift import order

    case = order() | {"copies_to": [DEVELOPER, APPLICANT]}
    issued = reg.issue("stop-work-order", case, formats=("html",))
    reg.record_service(
        issued.number, service_of("personal-delivery", issued.issued), formats=("html",)
    )
    run = docgen(
        "lift", issued.number, "--date", "2026-12-02", "--copies", "-f", "pdf,docx",
        "-o", tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    stem = "SWL-2026-0001-stop-work-lifted"
    people = [case["recipient"], DEVELOPER, APPLICANT]
    names = [stem, f"{stem}-copy-1", f"{stem}-copy-2"]
    word = {}  # Word's layout is the renderer's, not the database's: measured once
    if reg.url.startswith("sqlite"):
        (tmp_path / "office").mkdir()
        docx = {n: (tmp_path / f"{n}.docx").read_bytes() for n in names}
        word = office_pdfs(docx, tmp_path / "office")
    for name, person in zip(names, people, strict=True):
        pdf = (tmp_path / f"{name}.pdf").read_bytes()
        docx = (tmp_path / f"{name}.docx").read_bytes()
        copy = f"Copy for {person['name']} ({person['role']})."
        for text in (pdf_text(pdf), docx_text(docx)):
            flat = " ".join(text.split())
            assert "Notice Lifting Stop-Work Order" in flat
            if person is people[0]:
                assert "Copy for" not in flat
            else:
                assert copy in flat
        a = person["address"]
        lines = [person["name"], a["street"], f"{a['city']}, {a['state']} {a['zip']}"]
        for laid_out in (pdf, *([word[name]] if word else [])):
            block = window_block(laid_out)
            assert block.words == " ".join(lines).split(), f"{name}: {block.words}"
            assert 1.95 <= block.top <= 2.1 and 0.75 <= block.left <= 1.01
            assert block.height <= 1.125 and block.width <= 4.0
        run = docgen("verify", tmp_path / f"{name}.pdf")
        assert run.returncode == 0, run.stderr
        assert "SWL-2026-0001, stop-work-lifted" in run.stdout
        if person is people[0]:
            assert "the copy for" not in run.stdout
        else:
            assert f"the copy for {person['name']} ({person['role']})" in run.stdout
    stored = reg.document("SWL-2026-0001")
    for name, fmt in zip(names, ["pdf", "copy1.pdf", "copy2.pdf"], strict=True):
        digest = hashlib.sha256((tmp_path / f"{name}.pdf").read_bytes()).hexdigest()
        assert stored.hashes[fmt] == digest
    run = docgen("export", "SWL-2026-0001", "-f", "pdf", "-o", f"{tmp_path}/export/")
    assert run.returncode == 0, run.stderr
    for name in names:
        exported = (tmp_path / "export" / f"{name}.pdf").read_bytes()
        assert exported == (tmp_path / f"{name}.pdf").read_bytes()
    assert reg.document(issued.number).lifted_by == "SWL-2026-0001"
    with pytest.raises(DocgenError, match="already lifted by SWL-2026-0001"):
        reg.lift(issued.number, date(2026, 12, 3), copies=True)
