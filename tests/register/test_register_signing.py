"""Issuing signs, then records: the register's SHA-256 is the signed PDF's, the access
code printed on the page is kept only as a hash, a key that cannot sign stops the issue
before a number is taken, and `docgen verify` checks the signature with the register."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml
from sqlalchemy import text

from docgen import api
from docgen.register.matter.checks import public_record, same_file
from docgen.signing.check import check_signature
from docgen.signing.keys import PASSPHRASE_ENV, SigningKeyError
from tests.helpers import pki
from tests.helpers.cli import docgen_process
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice

PDF = ("pdf", "html")


@pytest.fixture
def keyed(tmp_path, monkeypatch) -> Path:
    """Homer's settings naming a key its root CA issued; the passphrase in the environment."""
    folder = tmp_path / "settings"
    settings = pki.install(folder)
    monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))
    monkeypatch.setenv(PASSPHRASE_ENV, pki.PASSPHRASE)
    return settings


def words(pdf: bytes) -> str:
    return " ".join(pdf_text(pdf).split())


def test_an_issued_pdf_is_signed_before_it_is_recorded(reg, keyed):
    issued = reg.issue("notice-of-violation", notice(), formats=PDF)
    pdf = issued.files["pdf"]
    assert issued.signed
    assert reg.document(issued.number).hashes["pdf"] == hashlib.sha256(pdf).hexdigest()
    assert reg.verify(pdf).number == issued.number
    report = check_signature(pdf, keyed.parent / "keys" / "root.pem")
    assert report.valid, report.lines()
    text_ = words(pdf)
    assert "signed electronically for the Village of Homer by Dana R. Whitcomb" in text_
    assert f"https://homer.example.gov/v/{issued.number}" in text_
    assert f"Access code: {issued.access_code}" in text_
    assert f"Access code: {issued.access_code}" in issued.files["html"].decode()


def test_the_access_code_is_kept_hashed_and_opens_the_public_record(reg, keyed):
    issued = reg.issue("notice-of-violation", notice(), formats=PDF)
    with reg.engine.connect() as connection:
        stored = connection.execute(text("SELECT code_hash, signed FROM access_codes")).all()
    assert len(stored) == 1 and stored[0][1]
    assert issued.access_code not in stored[0][0] and stored[0][0].startswith("$argon2id$")
    found = public_record(reg.engine, issued.number, issued.access_code.lower())
    assert found is not None and found.kind == "notice-of-violation" and found.signed
    assert found.superseded_by is None
    assert public_record(reg.engine, issued.number, "2222-2222-2222") is None
    assert public_record(reg.engine, issued.number, None) is None
    assert public_record(reg.engine, "NOV-2026-0999", issued.access_code) is None
    assert same_file(reg.engine, found, issued.files["pdf"]) == "pdf"
    assert same_file(reg.engine, found, issued.files["pdf"] + b"\n") is None
    correction = reg.supersede(issued.number, notice(), formats=PDF)
    again = public_record(reg.engine, issued.number, issued.access_code)
    assert again.superseded_by == correction.number and again.in_effect == correction.number
    assert correction.access_code != issued.access_code
    # Corrected again: the first document's public record names the one now in effect.
    changed = notice()
    changed["violations"][0]["nature"] = "Land disturbed (1.2 acres) without an approved SWPPP"
    latest = reg.supersede(correction.number, changed, formats=PDF)
    third = public_record(reg.engine, issued.number, issued.access_code)
    assert (third.superseded_by, third.in_effect) == (correction.number, latest.number)


def test_without_a_key_the_page_says_it_is_unsigned(reg):
    issued = reg.issue("notice-of-violation", notice(), formats=PDF)
    assert not issued.signed
    assert check_signature(issued.files["pdf"], None).signed is False
    text_ = words(issued.files["pdf"])
    assert "This document is not signed electronically; the signed paper original controls." in (
        text_
    )
    assert f"Access code: {issued.access_code}" in text_
    assert any("verification.address" in w for w in issued.warnings)


def test_drafts_and_render_carry_no_verification_line():
    _, files = api.render_bytes("notice-of-violation", notice() | {"number": "N-1"}, PDF)
    assert "Access code" not in words(files["pdf"])
    assert "Access code" not in files["html"].decode()


@pytest.mark.parametrize("flaw", ["wrong-usage", "expired", "not-yet-valid"])
def test_a_key_that_cannot_sign_stops_the_issue_before_a_number(reg, tmp_path, monkeypatch, flaw):
    folder = tmp_path / "flawed"
    pki.install(folder, flaw=flaw)
    monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))
    monkeypatch.setenv(PASSPHRASE_ENV, pki.PASSPHRASE)
    with pytest.raises(SigningKeyError):
        reg.issue("notice-of-violation", notice(), formats=PDF)
    assert reg.count() == 0


def test_a_wrong_passphrase_stops_the_issue(reg, keyed, monkeypatch):
    monkeypatch.setenv(PASSPHRASE_ENV, "not the passphrase")
    with pytest.raises(SigningKeyError, match="wrong passphrase"):
        reg.issue("notice-of-violation", notice(), formats=PDF)
    assert reg.count() == 0


def test_docgen_verify_checks_the_signature_and_the_register(reg, keyed, tmp_path):
    from click.testing import CliRunner

    from docgen.cli import main

    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump(notice()), encoding="utf-8")
    made = CliRunner().invoke(
        main, ["issue", "notice-of-violation", str(case), "-f", "pdf", "-o", f"{tmp_path}/"]
    )
    assert made.exit_code == 0, made.output
    pdf = next(tmp_path.glob("*.pdf"))
    assert reg.verify(pdf.read_bytes()) is not None
    printed = r"access code: (\w{4}-){2}\w{4} \(printed on it\); PDF signed"
    assert re.search(printed, made.output)
    good = CliRunner().invoke(main, ["verify", str(pdf)])
    assert good.exit_code == 0, good.output
    assert "signature: valid" in good.output
    assert "signed by: Common Name: Dana R. Whitcomb" in good.output
    assert "changed after signing: no" in good.output
    # as a clerk runs it, a process of its own: no other package's warning on the terminal
    # (pyHanko imports DSA, which cryptography 51 deprecates: printed under every verify)
    fresh = docgen_process("verify", pdf)
    assert fresh.returncode == 0, fresh.stderr
    assert "signature: valid" in fresh.stdout
    assert fresh.stderr == ""
    # an incremental update after the signature: not the issued bytes, and reported
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    with pdf.open("rb") as source:
        writer = IncrementalPdfFileWriter(source)
        info = writer.trailer["/Info"]
        info["/Title"] = generic.TextStringObject("Withdrawn")
        writer.update_container(info)
        changed = tmp_path / "changed.pdf"
        with changed.open("wb") as target:
            writer.write(target)
    bad = CliRunner().invoke(main, ["verify", str(changed)])
    assert bad.exit_code == 1
    assert "not issued by this register, or altered" in bad.output
    assert "changed after signing: yes: an incremental update" in bad.output
