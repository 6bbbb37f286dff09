"""Recorded instruments an attorney can record as drafted: model terms carry no statutory
citation and are listed for counsel; signature blocks carry none; the instrument's own
schedule of facilities is not "Schedule B"; the municipality signs under a named board
resolution; no contradiction, no drafting note; "a Member"; each county's tax map label.
Read back from the PDF and the DOCX."""

from __future__ import annotations

import re

import pytest
import yaml
from conftest import ROOT

from docgen import api
from docgen.documents.kind import Options
from docgen.errors import CaseInvalid
from tests.helpers.readback import docx_text, pdf_text

FIX = ROOT / "fixtures"
AGREEMENTS = sorted((FIX / "maintenance-agreement").glob("*.yaml"))
EASEMENTS = sorted((FIX / "maintenance-easement").glob("*.yaml"))
INSTRUMENTS = [("maintenance-agreement", p) for p in AGREEMENTS] + [
    ("maintenance-easement", p) for p in EASEMENTS
]
IDS = [f"{k}/{p.stem}" for k, p in INSTRUMENTS]


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def texts(renders, kind, path):
    r = renders.get(kind, path)
    return flat(pdf_text(r["pdf"])), flat(docx_text(r["docx"]))


@pytest.mark.parametrize(("kind", "path"), INSTRUMENTS, ids=IDS)
def test_model_terms_cite_no_statute_and_signatures_cite_nothing(renders, kind, path):
    for text in texts(renders, kind, path):
        assert "Schedule B)" not in text and "Town sample agreement" not in text
        assert "(model term)" not in text and "model term" not in text
        signatures = text[text.index("In witness whereof") : text.index("Approved as to Form")]
        assert "(§" not in signatures
        assert "Schedule B:" not in text and "Facilities Schedule: Stormwater" in text
        assert "The notary prints" not in text  # no drafting note in a recorded instrument
        assert "with the Owner's deed" not in text


@pytest.mark.parametrize("path", AGREEMENTS, ids=[p.stem for p in AGREEMENTS])
def test_the_recital_names_its_section_beside_what_it_requires(renders, path):
    # Issue 47: the recital of what the article requires ended "...Agreement; (§ 228-78D(5))",
    # a citation after the recital's own end; the section is named where it is said to require.
    for text in texts(renders, "maintenance-agreement", path):
        recital = re.search(
            r"Whereas, (\S+ [^ ]+) of the [^;]*? requires a formal maintenance", text
        )
        assert recital and recital.group(1).startswith("§"), text[:600]
        assert not re.search(r"; \(§ [^)]*\)", text), re.search(r"; \(§ [^)]*\)", text)


@pytest.mark.parametrize(("kind", "path"), INSTRUMENTS, ids=IDS)
def test_the_municipality_signs_under_its_board_resolution(renders, kind, path):
    body = (
        "Village Board of Trustees of the Village of Homer"
        if "homer" in path.stem
        else ("Town Board of the Town of Macedon")
    )
    for text in texts(renders, kind, path):
        assert re.search(rf"under Resolution No\. 2026-\d+ of the {body}, adopted August", text)


def test_an_instrument_without_the_boards_resolution_is_an_error(tmp_path):
    data, _ = api.load(AGREEMENTS[0])
    data.pop("authorization")
    with pytest.raises(CaseInvalid) as err:
        api.check("maintenance-agreement", data)
    assert "authorization" in [p.field for p in err.value.problems]


def test_a_standing_resolution_in_the_pack_serves_a_case_that_names_none(tmp_path, monkeypatch):
    """LAW.md § 8: `authorization` in the case or the pack. A case without one signs under
    the pack's standing resolution (read back from the PDF and the DOCX); the case's own
    resolution, when given, takes precedence; review mode does not mark the pack's."""
    pack = yaml.safe_load((ROOT / "docgen/law/homer.yaml").read_text(encoding="utf-8"))
    pack["recording"]["authorization"] = {
        "value": {
            "body": "Village Board of Trustees of the Village of Homer",
            "date": "2026-01-12",
            "resolution": "2026-3",
        },
        "ref": "Village Board Resolution 2026-3 (signing of stormwater instruments)",
    }
    (tmp_path / "homer_standing.yaml").write_text(
        yaml.safe_dump(pack, sort_keys=False), encoding="utf-8"
    )
    monkeypatch.setenv("DOCGEN_PACKS", str(tmp_path))
    data, _ = api.load(AGREEMENTS[0])
    own = data.pop("authorization")
    data["jurisdiction"] = "homer_standing"
    doc = api.build("maintenance-agreement", data)
    standing = (
        "under Resolution No. 2026-3 of the Village Board of Trustees of the Village of "
        "Homer, adopted January 12, 2026"
    )
    assert standing in flat(pdf_text(api.to_bytes(doc, "pdf")))
    assert standing in flat(docx_text(api.to_bytes(doc, "docx")))
    review = api.build("maintenance-agreement", data, Options(review=True)).html
    assert '<mark class="case">2026-3</mark>' not in review
    mine = api.build("maintenance-agreement", data | {"authorization": own}).html
    assert f"Resolution No. {own['resolution']}" in mine and "No. 2026-3 " not in mine


def test_review_lists_every_model_term_for_counsel():
    doc = api.render_case("maintenance-agreement", AGREEMENTS[0], Options(review=True)).review
    text = flat(pdf_text(api.to_bytes(doc, "pdf")))
    heading = "Model Terms for Counsel to Confirm"
    assert heading in text
    listed = text[text.index(heading) :]
    assert "confirm each against the adopted document before signing" in listed
    for term in (
        "at least once every five years",
        "Security (bond, letter of credit or escrow)",
        "On default the Village may do the work",
        "Effective date",
    ):
        assert term in listed, term
    table = text[: text.index(heading)]
    assert "Approved by the Village of Homer" in table
    assert "The board resolution named in the municipality's signature" in table


def test_macedon_review_names_the_towns_sample_agreement():
    doc = api.render_case("maintenance-agreement", AGREEMENTS[2], Options(review=True)).review
    text = flat(docx_text(api.to_bytes(doc, "docx")))
    listed = text[text.index("Model Terms for Counsel to Confirm") :]
    assert (
        "Sample Stormwater Control Facility Maintenance Agreement, available in the Town offices"
        in listed
    )


def test_an_easement_dated_after_an_approval_warns_and_does_not_claim_to_precede_it():
    data, _ = api.load(EASEMENTS[1])
    assert "approval" not in data["project"]
    assert api.check("maintenance-easement", data) == []
    clean = flat(docx_text(api.to_bytes(api.build("maintenance-easement", data), "docx")))
    assert "executes this easement before the issuance of any approval" in clean
    data["project"]["approval"] = {"board": "Village of Homer Planning Board", "date": "2026-08-04"}
    doc = api.build("maintenance-easement", data)
    for text in (
        flat(docx_text(api.to_bytes(doc, "docx"))),
        flat(pdf_text(api.to_bytes(doc, "pdf"))),
    ):
        assert "executes this easement before the issuance" not in text
        assert "Executed before approval" not in text
        assert "Village of Homer Planning Board gave final approval on August 4, 2026" in text
    (warning,) = api.check("maintenance-easement", data)
    assert warning.startswith("project.approval: the plans were given final approval on August 4")
    assert "(§ 228-78D(3))" in warning and doc.warnings == (warning,)


def test_a_member_signs_as_a_member(renders):
    path = next(p for p in EASEMENTS if p.stem == "homer-llc-two-signers")
    for text in texts(renders, "maintenance-easement", path):
        assert "Rosa L. Vantine, a Member of" in text
        assert "Alan P. Mercer, the Managing Member of" in text
        assert "the Member of" not in text


@pytest.mark.parametrize(("kind", "path"), INSTRUMENTS, ids=IDS)
def test_tax_map_numbers_are_labelled_as_the_county_labels_them(renders, kind, path):
    for text in texts(renders, kind, path):
        if "macedon" in path.stem:  # Wayne County: its parcel number, "Tax Map No."
            assert "Tax Map No.: 62111-" in text and "Section-Block-Lot" not in text
        else:
            assert "Tax Map No. (Section-Block-Lot):" in text


@pytest.mark.parametrize("kind", ["maintenance-agreement", "maintenance-easement"])
def test_a_signer_acknowledging_outside_new_york_gets_the_309_b_form(renders, kind):
    path = FIX / kind / "macedon-llc-two-signers.yaml"
    for text in texts(renders, kind, path):
        assert "State of Pennsylvania ) County of Erie ) ss.:" in text
        assert (
            "personally appeared Anita K. Oosterhout, the Chief Financial Officer of Canal "
            "Landing Partners LLC, personally known to me"
        ) in text
        assert (
            "and that such individual made such appearance before the undersigned in the "
            "County of Erie, State of Pennsylvania."
        ) in text
        assert "Notary Public, State of Pennsylvania" in text
        # the signer in New York keeps the RPL § 309-a(1) form
        assert text.count("State of New York ) County of") == 2  # Brink and the Town
