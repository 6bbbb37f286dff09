"""Contractors' certifications through the register (docgen.register.sites.invitations), on
SQLite and PostgreSQL: a token kept only as its SHA-256, links refused alike when unknown,
expired, revoked or used; a signed certification issued with its own number and verified
naming signer, firm and site; a paper scan kept with its hash; a refused signing records
nothing; each firm's part of a multi-firm certification is a file of the document."""

from __future__ import annotations

import hashlib
import re
from datetime import date
from pathlib import Path

import pytest

from docgen.cases.loader import read_case_file
from docgen.desk.base.clock import local_time, zone
from docgen.errors import CaseInvalid
from docgen.register.matter.checks import public_record
from docgen.register.sites import certifying, invitations
from docgen.register.storage import db
from docgen.register.storage.models import Invitation
from docgen.signing.keys import PASSPHRASE_ENV
from tests.helpers import pki
from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_text

ROOT = Path(__file__).resolve().parents[2]
SITE = {"address": {"street": "12 Elm Street", "city": "Homer", "state": "NY", "zip": "13077"}}


def entry(**changes) -> dict:
    base = {
        "firm": "Acme Earthworks LLC",
        "role": "contractor",
        "address": {"street": "1 Main St", "city": "Cortland", "state": "NY", "zip": "13045"},
        "phone": "6075551234",
        "signer": {"name": "Jo Smith", "title": "President"},
        "responsibilities": ["silt fence"],
        "trained_contractor": {"name": "Pat Lee", "trained": "2022-01-10"},
    }
    return base | changes


@pytest.fixture
def site(reg):
    made = invitations.add_site(
        reg.engine, "homer", {"name": "Elm Street Subdivision"}, SITE, date(2026, 3, 2), "ann"
    )
    return invitations.site(reg.engine, made)


def signed_electronically(reg, site):
    """(token, entry, certification) of Acme Earthworks LLC, invited and signed
    electronically as the firm's page sends it (its time the desk's, before the register's)."""
    _, token = invitations.invite(
        reg.engine, site.id, "Acme Earthworks LLC", None, invitations.default_expires(site), "a"
    )
    today = invitations.today_in("homer").isoformat()
    signed = entry(
        signed=today,
        electronic_signature={"name": "Jo Smith", "at": f"{today} 09:00 EST", "intent": "I do"},
    )
    return token, signed, certifying.sign(reg, token, signed, "electronic", "I do")


def test_a_token_is_kept_hashed_and_every_dead_link_is_the_same_refusal(reg, site):
    later = invitations.default_expires(site)
    made, token = invitations.invite(reg.engine, site.id, "Acme Earthworks LLC", None, later, "a")
    assert len(token) >= 43
    with db.read_session(reg.engine) as s:
        row = s.get(Invitation, made.id)
        assert row.token_sha256 == hashlib.sha256(token.encode()).hexdigest()
        assert token not in repr(row.__dict__)
    assert certifying.open_link(reg.engine, token).invitation.status == "opened"
    revoked, other = invitations.invite(reg.engine, site.id, "Beta Paving", None, later, "a")
    invitations.revoke(reg.engine, revoked.id, "a")
    for dead in (other, "x" * 43, ""):
        with pytest.raises(invitations.InvalidLink, match=r"^this link is not valid$"):
            certifying.open_link(reg.engine, dead)
    with pytest.raises(invitations.InvitationError, match=r"Expires: .* is not after today"):
        invitations.invite(reg.engine, site.id, "Gamma", None, date(2020, 1, 1), "a")
    with pytest.raises(invitations.InvitationError, match="E-mail address: 'nobody' is not"):
        invitations.invite(reg.engine, site.id, "Gamma", "nobody", later, "a")


def test_signing_issues_the_firms_certification_once_and_verify_names_it(reg, site, tmp_path):
    token, signed, issued = signed_electronically(reg, site)
    assert issued.number.startswith("CC-")
    # Signed after land development began (2026-03-02): flagged with the provision.
    assert any(
        "after land development began" in w and "§ 228-78B(4)(a)" in w for w in issued.warnings
    )
    pdf = tmp_path / "acme.pdf"
    pdf.write_bytes(issued.files["pdf"])
    done = docgen("verify", pdf)
    assert done.returncode == 0, done.stderr
    assert (
        "certified by Jo Smith, President for Acme Earthworks LLC at 12 Elm Street" in done.stdout
    )
    with pytest.raises(invitations.InvalidLink):
        certifying.sign(reg, token, signed, "electronic", "I do")  # used
    listed = invitations.invitations(reg.engine, site.id)
    assert [(i.status, i.number, i.signed_by, i.late) for i in listed] == [
        ("signed", issued.number, "Jo Smith, President", True)
    ]


@pytest.mark.parametrize("sealed", [False, True], ids=["unsealed", "sealed"])
def test_an_electronic_original_says_how_and_when_it_was_signed_and_whether_sealed(
    reg, site, tmp_path, monkeypatch, sealed
):
    """Issue 47, item 3 (LAW.md § 5): the e-signed certification never says it is "not
    signed electronically" or that a paper original controls; it says who signed it, for
    which firm and when, and apart whether the Village sealed it; the signing's instant
    reads the same, to the minute and with the zone named, on the document, in `docgen
    verify`, the public check and `docgen certify list`. Before: the footer said the paper
    original controls, the document printed the desk's "2026-12-02 09:14 EST" (a moment
    taken before the register's), verify the same form and the list the UTC time unmarked."""
    if sealed:
        folder = tmp_path / "settings"
        pki.install(folder)
        monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))
        monkeypatch.setenv(PASSPHRASE_ENV, pki.PASSPHRASE)
    issued = signed_electronically(reg, site)[2]
    assert issued.signed is sealed
    text = " ".join(pdf_text(issued.files["pdf"]).split())
    assert "not signed electronically" not in text
    assert "paper original" not in text
    (row,) = invitations.invitations(reg.engine, site.id)
    at = local_time(row.signed_at, zone("homer"))
    assert re.fullmatch(r"[A-Z][a-z]+ \d{1,2}, \d{4}, \d\d:\d\d E[SD]T", at), at
    assert (
        f"Signed electronically by Jo Smith, President, for Acme Earthworks LLC on {at}: this "
        "is the electronic original." in text
    )
    assert f"/s/ Jo Smith (signed electronically on {at})" in text
    seal = "Sealed by the Village of Homer." if sealed else "Not sealed by the Village of Homer."
    assert seal in text
    assert ("Not sealed" in text) is not sealed
    pdf = tmp_path / "acme.pdf"
    pdf.write_bytes(issued.files["pdf"])
    done = docgen("verify", pdf)
    assert done.returncode == 0, done.stderr
    assert f"signed electronically at {at}" in done.stdout
    found = public_record(reg.engine, issued.number, issued.access_code)
    assert found is not None and found.certified.endswith(f"signed electronically at {at}")
    listed = docgen("certify", "list", site.id)
    assert listed.returncode == 0, listed.stderr
    assert f"Acme Earthworks LLC  signed {at} by Jo Smith, President (electronic)" in listed.stdout


def test_a_paper_scan_is_kept_with_its_hash_and_a_refused_signing_records_nothing(reg, site):
    later = invitations.default_expires(site)
    _, token = invitations.invite(reg.engine, site.id, "Beta Paving", None, later, "a")
    count = reg.count()
    future = entry(firm="Beta Paving", signed=invitations.today_in("homer").isoformat())
    future["trained_contractor"] = {"name": "Al", "trained": "2099-01-01"}
    with pytest.raises(CaseInvalid, match=r"trained_contractor\.trained"):
        certifying.sign(reg, token, future, "paper", scan=b"%PDF-1.7 scan")
    with pytest.raises(invitations.InvitationError, match="not a PDF, PNG or JPEG"):
        certifying.sign(reg, token, entry(firm="Beta Paving"), "paper", scan=b"GIF89a")
    assert reg.count() == count
    scan = b"\x89PNG\r\n\x1a\n" + b"0" * 100
    digest = hashlib.sha256(scan).hexdigest()
    paper = entry(firm="Beta Paving", signed="2026-03-01", paper_scan=digest)
    issued = certifying.sign(reg, token, paper, "paper", scan=scan)
    stored = reg.files(issued.number, "homer")
    assert stored["scan.png"] == scan
    assert reg.verify(scan).number == issued.number
    assert all("land development" not in w for w in issued.warnings)
    # Dated the day before land development began: in time, not flagged.
    assert [i.late for i in invitations.invitations(reg.engine, site.id)] == [False]


def test_each_firms_part_of_a_certification_is_a_file_of_the_document(reg, tmp_path):
    """Item 4: the per-firm file verifies (before, it was rendered afresh and answered
    "not issued by this register, or altered")."""
    case = read_case_file(
        ROOT / "fixtures" / "contractor-certification" / "homer-three-contractors.yaml"
    )
    issued = reg.issue("contractor-certification", case, formats=("pdf",))
    firms = [c["firm"] for c in case["contractors"]]
    stored = reg.files(issued.number, "homer")
    assert sorted(k for k in stored if k.startswith("part")) == [
        f"part{n}.pdf" for n in range(1, len(firms) + 1)
    ]
    for n, firm in enumerate(firms, start=1):
        path = tmp_path / f"part{n}.pdf"
        path.write_bytes(stored[f"part{n}.pdf"])
        done = docgen("verify", path)
        assert done.returncode == 0, done.stderr
        assert f"the part of {firm}" in done.stdout


def test_a_scan_is_typed_by_its_contents_and_bounded():
    assert certifying.scan_format(b"%PDF-1.7 ...") == "pdf"
    assert certifying.scan_format(b"\xff\xd8\xff\xe0 jpeg") == "jpg"
    for blob, why in (
        (b"", "the file is empty"),
        (b"<html>%PDF-", "not a PDF, PNG or JPEG file"),
        (b"%PDF-" + b"0" * certifying.MAX_SCAN, "larger than 10 MB"),
    ):
        with pytest.raises(invitations.InvitationError, match=f"^Signed scan: {why}"):
            certifying.scan_format(blob)
