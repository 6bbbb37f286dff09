"""Issuing into the register: numbers, records, frozen documents, files after the record."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import text

from docgen.errors import CaseInvalid
from docgen.register import AmbiguousRespondent, Issue, RegisterError
from tests.helpers.cli import Run, docgen
from tests.helpers.envelope import window_block
from tests.helpers.readback import docx_text, html_text, pdf_text
from tests.helpers.register_cases import notice

HTML = ("html",)


def test_numbers_are_consecutive_per_kind_and_year(reg):
    numbers = [reg.issue("notice-of-violation", notice(), formats=HTML).number for _ in range(3)]
    assert numbers == ["NOV-2026-0001", "NOV-2026-0002", "NOV-2026-0003"]
    # Another year (one already past: a served document is never issued ahead of today).
    other_year = reg.issue("notice-of-violation", notice("2025-12-30"), formats=HTML)
    assert other_year.number == "NOV-2025-0001"


def test_the_number_is_printed_in_the_document_and_the_case_is_kept_as_rendered(reg):
    issued = reg.issue("notice-of-violation", notice(), formats=HTML)
    html = issued.files["html"].decode()
    assert "NOV-2026-0001" in html
    record = reg.document("NOV-2026-0001")
    assert record.case["number"] == "NOV-2026-0001"
    assert record.case["prior_offenses"] == []
    assert record.hashes == {"html": hashlib.sha256(issued.files["html"]).hexdigest()}
    assert reg.files("NOV-2026-0001") == issued.files
    assert record.docgen_version and record.pack_version.startswith("homer:")


def test_a_number_typed_in_the_case_is_kept_and_the_counter_steps_past_it(reg):
    typed = notice()
    typed["number"] = "NOV-2026-0001"  # the series' next: taken as typed
    assert reg.issue("notice-of-violation", typed, formats=HTML).number == "NOV-2026-0001"
    assert reg.issue("notice-of-violation", notice(), formats=HTML).number == "NOV-2026-0002"
    other = notice()
    other["number"] = "NOV-2026-0002"
    with pytest.raises(RegisterError, match="NOV-2026-0002 is already issued"):
        reg.issue("notice-of-violation", other, formats=HTML)


def test_the_same_case_issued_twice_is_the_first_document(reg, tmp_path):
    case = notice()
    first = reg.issue("notice-of-violation", case, formats=("html", "pdf"))
    out = tmp_path / "out"
    second = reg.issue("notice-of-violation", case, formats=("pdf",), out=f"{out}/", by="clerk 2")
    assert second.repeated and not first.repeated
    assert (second.number, second.id, second.issued) == (first.number, first.id, first.issued)
    assert second.files == {"pdf": first.files["pdf"]}  # the stored bytes, not a new render
    assert [p.read_bytes() for p in second.paths] == [first.files["pdf"]]
    assert reg.count() == 1
    with reg.engine.connect() as conn:
        assert conn.execute(text("SELECT max(last) FROM counters")).scalar() == 1
        source = conn.execute(text("SELECT source_sha256 FROM documents")).scalar()
    assert len(source) == 64
    changed = dict(case, officer={"name": "Lee Ortiz", "title": "Code Enforcement Officer"})
    assert reg.issue("notice-of-violation", changed, formats=HTML).number == "NOV-2026-0002"


def test_a_case_listing_its_own_priors_is_refused_with_the_reason(reg):
    data = notice()
    data["prior_offenses"] = [
        {"committed": "2024-01-01", "disposition": "convicted", "convicted": "2024-03-01"}
    ]
    with pytest.raises(CaseInvalid, match=r"prior_offenses: remove it.*from the register"):
        reg.issue("notice-of-violation", data, formats=HTML)
    assert reg.count() == 0


def test_an_invalid_case_uses_no_number(reg):
    bad = notice()
    del bad["remedies"]
    with pytest.raises(CaseInvalid, match="remedies"):
        reg.issue("notice-of-violation", bad, formats=HTML)
    assert reg.issue("notice-of-violation", notice(), formats=HTML).number == "NOV-2026-0001"


def test_issued_documents_and_their_files_are_frozen(reg):
    reg.issue("notice-of-violation", notice(), formats=HTML)
    for statement in (
        "UPDATE documents SET number = 'NOV-2026-9999'",
        "DELETE FROM documents",
        "UPDATE document_files SET content = :blob",
        "DELETE FROM document_files",
        "DELETE FROM audit",
    ):
        with pytest.raises(Exception, match="frozen"), reg.engine.begin() as conn:
            conn.execute(text(statement), {"blob": b"x"})
    assert reg.document("NOV-2026-0001").number == "NOV-2026-0001"


def test_files_are_written_after_the_record_and_verify(reg, tmp_path):
    issued = reg.issue("notice-of-violation", notice(), formats=HTML, out=f"{tmp_path}/out/")
    assert [p.name for p in issued.paths] == ["NOV-2026-0001-notice-of-violation.html"]
    found = reg.verify(issued.paths[0].read_bytes())
    assert (found.number, found.kind, found.respondent) == (
        "NOV-2026-0001",
        "notice-of-violation",
        "Tioughnioga Ridge Development LLC",
    )
    assert reg.verify(issued.paths[0].read_bytes() + b" ") is None


def test_supersede_gives_a_new_number_pointing_to_the_original(reg):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    corrected = notice()
    corrected["violations"][0]["nature"] = "Land disturbed (1.2 acres) without an approved SWPPP"
    second = reg.supersede(first.number, corrected, formats=HTML)
    assert second.number == "NOV-2026-0002" and second.supersedes == "NOV-2026-0001"
    assert reg.document("NOV-2026-0001").superseded_by == "NOV-2026-0002"
    assert reg.files("NOV-2026-0001") == first.files  # the original stays as served
    assert reg.verify(first.files["html"]).superseded_by == "NOV-2026-0002"
    # The offense lives on in the correction: counted once, not as its own prior.
    assert second.priors == ()
    # The same correction again (a double click) is the correction already issued; another
    # correction of the original is refused: the current document is the correction.
    assert reg.supersede(first.number, corrected, formats=HTML).number == "NOV-2026-0002"
    corrected["violations"][0]["nature"] = "Land disturbed (1.3 acres) without an approved SWPPP"
    with pytest.raises(RegisterError, match="already superseded by NOV-2026-0002"):
        reg.supersede(first.number, corrected, formats=HTML)


def verify_on_the_command_line(reg, file) -> Run:
    return docgen("verify", file, env={"DOCGEN_DATABASE_URL": reg.url})


def test_a_chain_of_corrections_is_read_whole_from_any_of_its_documents(reg, tmp_path):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    chain = [first.number]
    for acres in ("1.2", "1.3"):
        corrected = notice()
        corrected["violations"][0]["nature"] = f"Land disturbed ({acres} acres) without a SWPPP"
        chain.append(reg.supersede(chain[-1], corrected, formats=HTML).number)
    assert chain == ["NOV-2026-0001", "NOV-2026-0002", "NOV-2026-0003"]
    for number in chain:
        assert reg.document(number).corrections == tuple(chain)
    assert reg.document(chain[0]).superseded_by == chain[1]  # the step, and the whole line
    found = reg.verify(first.files["html"])
    assert (found.superseded_by, found.in_effect) == (chain[1], chain[2])
    assert reg.verify(reg.files(chain[2])["html"]).in_effect is None
    other = reg.issue(
        "notice-of-violation",
        notice(name="Cortland Earthworks Inc.", street="9 Elm Street"),
        formats=HTML,
    )
    assert reg.document(other.number).corrections == (other.number,)
    old = tmp_path / "old.html"
    old.write_bytes(first.files["html"])
    shown = verify_on_the_command_line(reg, old)
    assert f"superseded by {chain[1]}" in shown.stdout, shown.stdout + shown.stderr
    assert f"the current one is {chain[2]}" in shown.stdout


def test_every_change_is_audited_with_who_did_it(reg):
    issued = reg.issue("notice-of-violation", notice(), formats=HTML, by="Dana R. Whitcomb")
    reg.record_disposition(issued.number, "dismissed", issued.issued, by="Clerk Ames")
    trail = reg.audit()
    assert [(e["action"], e["actor"]) for e in trail][:2] == [
        ("disposition", "Clerk Ames"),
        ("issue", "Dana R. Whitcomb"),
    ]
    assert trail[0]["detail"]["before"]["disposition"] == "pending"
    assert trail[0]["detail"]["after"]["disposition"] == "dismissed"


def test_a_respondent_is_matched_on_normalized_name_and_address(reg):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    assert first.respondent.created
    variant = notice(name="TIOUGHNIOGA RIDGE DEVELOPMENT, L.L.C.", street="41 Route  281")
    second = reg.issue("notice-of-violation", variant, formats=HTML)
    assert second.respondent.id == first.respondent.id and not second.respondent.created


def test_similar_names_are_never_merged_silently(reg):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    similar = notice(name="Tioughnioga Ridge Developments LLC")
    with pytest.raises(AmbiguousRespondent) as err:
        reg.issue("notice-of-violation", similar, formats=HTML)
    assert [c.id for c in err.value.candidates] == [first.respondent.id]
    assert f"#{first.respondent.id} Tioughnioga Ridge Development LLC" in str(err.value)
    assert reg.count() == 1
    apart = reg.issue("notice-of-violation", similar, Issue(respondent="new"), formats=HTML)
    assert apart.respondent.id != first.respondent.id


def test_same_name_at_another_address_asks_and_an_id_keeps_alias_and_address(reg):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    moved = notice(name="Tioughnioga Ridge Dev. LLC", street="9 Main Street")
    with pytest.raises(AmbiguousRespondent, match="similar name"):
        reg.issue("notice-of-violation", moved, formats=HTML)
    same = reg.issue(
        "notice-of-violation",
        moved,
        Issue(respondent=first.respondent.id, keep_name=True),
        formats=HTML,
    )
    assert same.respondent.id == first.respondent.id
    assert "Tioughnioga Ridge Dev. LLC" in same.respondent.aliases
    assert "9 Main Street, Homer, NY 13077" in same.respondent.addresses
    # The alias and address now match without asking.
    assert reg.issue("notice-of-violation", moved, formats=HTML).respondent.id == same.respondent.id


def test_two_records_with_the_same_name_and_address_are_listed_not_picked(reg):
    reg.issue("notice-of-violation", notice(), formats=HTML)
    reg.issue("notice-of-violation", notice(), Issue(respondent="new"), formats=HTML)
    with pytest.raises(AmbiguousRespondent) as err:
        reg.issue("notice-of-violation", notice(), formats=HTML)
    assert len(err.value.candidates) == 2


# The steps after a notice (LAW.md §§ 11, 14), each made by the register's step from the
# documents it rests on, and the command that makes it.
STEPS = {
    "extension-letter": "docgen extend",
    "appeal-acknowledgment": "docgen appeal record",
    "appeal-hearing": "docgen appeal hearing",
    "appeal-decision": "docgen appeal decide",
    "occupancy-order": "docgen withhold-occupancy",
    "occupancy-release": "docgen release-occupancy",
    "restoration-notice": "docgen require-restoration",
    "restoration-cost": "docgen state-restoration-cost",
    "lien-notice": "docgen record-lien",
    "lien-release": "docgen release-lien",
}


def test_a_step_after_the_notice_is_never_issued_from_a_typed_case(reg):
    """An acknowledgment typed "on time" of a late appeal, a lien dated before any cost was
    stated, a later date no officer granted: none is issued from a case file, only by the
    register's step from what it holds (each refusal names that step)."""
    from docgen import api
    from docgen.demo import sample_cases

    for kind, path in sample_cases():
        if kind in STEPS:
            data, _ = api.load(path)
            data.pop("number", None)
            with pytest.raises(RegisterError, match="is not issued from a typed case") as refused:
                reg.issue(kind, data, formats=HTML)
            assert STEPS[kind] in str(refused.value), (kind, refused.value)
    assert reg.documents() == []


def test_every_kind_with_a_party_can_be_issued(reg, tmp_path):
    from docgen import api
    from docgen.demo import sample_cases
    from docgen.documents import get_kind

    issued = {}
    # The day's mailing list is made from the register's own service events
    # (docgen mailing-list), not issued from a case; nor are the kinds the register makes
    # from what it holds (the SWPPP's letters, a statement of fees, the year's figures).
    made = {k for k, _ in sample_cases() if get_kind(k).made_by_register}
    assert made == {"swppp-approval", "swppp-return", "fee-statement", "municipal-year"} | set(
        STEPS
    )
    samples = [(k, p) for k, p in sample_cases() if k != "mailing-list" and k not in made]
    for kind, path in samples:
        data, _ = api.load(path)
        data.pop("prior_offenses", None)  # the register holds the history
        data.pop("number", None)  # and the numbers (a sample's would run ahead of them)
        issued[kind] = reg.issue(kind, data, Issue(respondent="new"), formats=HTML)
    assert issued["maintenance-agreement"].number.startswith("MA-")
    assert issued["contractor-certification"].respondent is None
    assert {i.kind for i in issued.values()} == {k for k, _ in samples}


def test_a_correction_says_what_it_replaces_and_that_its_service_starts_its_own_period(
    reg, tmp_path
):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    corrected = notice()
    corrected["violations"][0]["nature"] = "Land disturbed (1.2 acres) without an approved SWPPP"
    second = reg.supersede(first.number, corrected, formats=("pdf", "docx"))
    for printed in (pdf_text(second.files["pdf"]), docx_text(second.files["docx"])):
        flat = " ".join(printed.split())
        assert "This document replaces No. NOV-2026-0001, issued November 16, 2026" in flat
        assert "run from service of this corrected notice" in flat
    assert "replaces" not in " ".join(html_text(first.files["html"].decode()).split())
    # The correction's head goes below the window: the addressee stays where the envelope
    # shows it (LAW.md § 9).
    window = window_block(second.files["pdf"])
    assert 1.95 <= window.top <= 2.1, window.top
    assert " ".join(window.words).startswith(corrected["recipient"]["name"])
    old = tmp_path / "old.html"
    old.write_bytes(first.files["html"])
    shown = verify_on_the_command_line(reg, old)
    assert "superseded by NOV-2026-0002" in shown.stdout, shown.stdout + shown.stderr


def test_every_table_of_rows_frozen_once_written_refuses_updates_and_deletes(reg):
    """The triggers each migration makes through docgen/register/migrations/frozen.py:
    documents, files and the audit trail (0001), mail outcomes (0016), sets of
    certifications (0018)."""
    tables = ("documents", "document_files", "audit", "mail_outcomes", "certification_sets")
    with reg.engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            rows = conn.execute(text("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"))
            expected = {f"{t}_frozen" for t in tables}
        else:
            rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
            expected = {f"{t}_frozen_{e}" for t in tables for e in ("update", "delete")}
        assert expected <= {name for (name,) in rows}
