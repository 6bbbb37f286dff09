"""Recorded instruments as a municipal attorney reads them (LAW.md § 8, revised): no drafting
notes in the instrument and the review in a file of its own; the parties as the law holds
them; dates that agree; an easement area found from the record; cross-references that
follow counsel's edits in Word. Read back from real PDF and DOCX (and LibreOffice)."""

from __future__ import annotations

import copy
import io
import re
import shutil
from html import unescape
from pathlib import Path

import docx
import pytest
import yaml
from conftest import ROOT
from docx.oxml.ns import qn
from pypdf import PdfReader

from docgen import api
from docgen.documents.exhibits import MAX_BYTES
from docgen.documents.kind import Options
from docgen.errors import CaseInvalid
from docgen.law.packs import ENV
from tests.helpers.office import office_pdfs
from tests.helpers.readback import docx_paragraphs, docx_text, pdf_pages, pdf_text

FIX = ROOT / "fixtures"
EXHIBITS = ROOT / "tests" / "data" / "exhibits"
KINDS = ("maintenance-easement", "maintenance-agreement")
INSTRUMENTS = [(k, p) for k in KINDS for p in sorted((FIX / k).glob("*.yaml"))]
IDS = [f"{k}/{p.stem}" for k, p in INSTRUMENTS]


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def sample(kind: str, name: str) -> dict:
    return yaml.safe_load((FIX / kind / f"{name}.yaml").read_text(encoding="utf-8"))


def texts(kind: str, data: dict, options: Options | None = None) -> tuple[str, str]:
    """The instrument's PDF and DOCX text."""
    doc = api.build(kind, data, options)
    return flat(pdf_text(api.to_bytes(doc, "pdf"))), flat(docx_text(api.to_bytes(doc, "docx")))


def problems(kind: str, data: dict) -> list[str]:
    with pytest.raises(CaseInvalid) as err:
        api.check(kind, data)
    return [str(p) for p in err.value.problems]


# -- 1. no drafting notes; the review is its own file -------------------------------------
@pytest.mark.parametrize(("kind", "path"), INSTRUMENTS, ids=IDS)
def test_no_clause_carries_a_citation_or_a_model_term_tag(renders, kind, path):
    r = renders.get(kind, path)
    document = docx.Document(io.BytesIO(r["docx"]))
    clauses = [
        p.text
        for p in document.paragraphs
        if p._p.pPr is not None and p._p.pPr.numPr is not None and p.text.strip()
    ]
    assert len(clauses) >= 9
    for text in clauses:
        assert "(§" not in text and "(model term)" not in text, text
    for text in (flat(pdf_text(r["pdf"])), flat(docx_text(r["docx"]))):
        assert "model term" not in text and "Review" not in text
        clauses_part = text[text.index("agree as follows:") : text.index("In witness whereof")]
        assert not re.search(r"\(§[^)]*\)", clauses_part)


def test_review_writes_a_file_beside_the_instrument_and_never_pages_of_it(tmp_path):
    path = FIX / "maintenance-agreement" / "homer-llc-two-signers.yaml"
    clean = api.render("maintenance-agreement", path, out=f"{tmp_path}/clean/")
    reviewed = api.render(
        "maintenance-agreement", path, out=f"{tmp_path}/review/", options=Options(review=True)
    )
    names = sorted(p.name for p in reviewed.files)
    assert names == sorted(
        f"SWMA-2026-04-maintenance-agreement{review}.{fmt}"
        for review in ("", "-review")
        for fmt in ("pdf", "docx", "html")
    ), names
    folder = tmp_path / "review"
    instrument = (folder / "SWMA-2026-04-maintenance-agreement.pdf").read_bytes()
    plain = next(p for p in clean.files if p.suffix == ".pdf").read_bytes()
    pages = pdf_pages(instrument)
    assert len(pages) == len(pdf_pages(plain))  # the page count counsel signs is the same
    assert f"Page {len(pages)} of {len(pages)}" in flat(pages[-1])
    assert "Requirements and the Clauses" not in flat(pdf_text(instrument))
    review = folder / "SWMA-2026-04-maintenance-agreement-review"
    for text in (
        flat(pdf_text(review.with_suffix(".pdf").read_bytes())),
        flat(docx_text(review.with_suffix(".docx").read_bytes())),
        flat(re.sub(r"<[^>]+>", " ", review.with_suffix(".html").read_text(encoding="utf-8"))),
    ):
        assert "Values From the Case" in text
        assert "Requirements and the Clauses That Meet Them" in text
        assert "Model Terms for Counsel to Confirm" in text
        assert "security.amount 48500" in text


def test_review_to_standard_output_is_a_usage_error():
    path = FIX / "maintenance-easement" / "homer-individual.yaml"
    with pytest.raises(Exception, match="--review writes a review file"):
        api.render("maintenance-easement", path, ("pdf",), out="-", options=Options(review=True))


def test_review_table_rows_never_split_across_pages():
    path = FIX / "maintenance-agreement" / "homer-llc-two-signers.yaml"
    done = api.render_case("maintenance-agreement", path, Options(review=True))
    assert "table.requirements tr { break-inside: avoid; }" in done.review.standalone()
    pages = [flat(page) for page in pdf_pages(api.to_bytes(done.review, "pdf"))]
    for row in done.review.html.split("<tr>")[2:]:
        first_cell = flat(unescape(re.sub(r"<[^>]+>", " ", row.split("</td>")[0])))
        cells = flat(unescape(re.sub(r"<[^>]+>", " ", row.split("</tr>")[0])))
        if len(first_cell) < 8:
            continue
        assert any(cells[:60] in page and cells[-25:] in page for page in pages), cells
    table = docx.Document(io.BytesIO(api.to_bytes(done.review, "docx"))).tables[-1]
    assert all(row._tr.trPr.find(qn("w:cantSplit")) is not None for row in table.rows)


# -- 2. parties as the law holds them -------------------------------------------------------
def trust_case(trustees: list[str]) -> dict:
    data = sample("maintenance-easement", "homer-individual")
    data["owner"] = {
        "name": "The Quinlan Family Irrevocable Trust",
        "kind": "trust",
        "address": {"street": "17 Clinton Street", "city": "Homer", "state": "NY", "zip": "13077"},
        "signers": [{"name": name} for name in trustees],
    }
    return data


def test_a_trust_grants_through_its_trustees_each_acknowledged_as_trustee():
    data = trust_case(["Eleanor M. Quinlan", "Robert J. Quinlan"])
    for text in texts("maintenance-easement", data):
        assert (
            "by Eleanor M. Quinlan and Robert J. Quinlan, as Trustees of The Quinlan Family "
            "Irrevocable Trust, with an address at 17 Clinton Street, Homer, NY 13077 "
            '(the "Grantor")'
        ) in text
        for name in ("Eleanor M. Quinlan", "Robert J. Quinlan"):
            assert f"{name}, as Trustee of The Quinlan Family Irrevocable Trust" in text
            assert (
                f"personally appeared {name}, as trustee of The Quinlan Family Irrevocable "
                "Trust, personally known to me"
            ) in text
        assert "the Trustee" not in text and "acting by its trustee" not in text
        assert "(s)" not in text and "(are)" not in text and "(ies)" not in text
        assert "he/she" not in text and "his/her" not in text
    (text, _) = texts("maintenance-easement", trust_case(["Eleanor M. Quinlan"]))
    assert "by Eleanor M. Quinlan, as Trustee of The Quinlan" in text


def test_a_firm_is_named_with_its_kind_and_state_of_organization():
    data = sample("maintenance-agreement", "macedon-llc-two-signers")
    for text in texts("maintenance-agreement", data):
        assert "Canal Landing Partners LLC, a Delaware limited liability company, with" in text
        assert "a limited liability company" not in text
    del data["owner"]["organized_in"]
    assumed = [w for w in api.check("maintenance-agreement", data) if "organized_in" in w]
    assert assumed == [
        "owner.organized_in: not given; Canal Landing Partners LLC is named as a New York "
        "limited liability company because its address is in New York; give the state it was "
        "organized in if it is another (§ 301-73D)"
    ]
    assert "a New York limited liability company" in texts("maintenance-agreement", data)[1]
    data["owner"]["address"] = {
        "street": "1 Market St",
        "city": "Erie",
        "state": "PA",
        "zip": "16501",
    }
    (problem,) = problems("maintenance-agreement", data)
    assert problem.startswith("owner.organized_in: is required: Canal Landing Partners LLC has")
    assert "Pennsylvania" in problem and "§ 301-73D" in problem
    person = sample("maintenance-easement", "homer-individual")
    person["owner"]["organized_in"] = "New York"
    (problem,) = problems("maintenance-easement", person)
    assert problem.startswith("owner.organized_in: is for a firm")


def test_the_municipal_signer_is_named_in_the_block_and_the_acknowledgment():
    data = sample("maintenance-easement", "homer-individual")
    for text in texts("maintenance-easement", data):
        assert "Name: Margaret A. Kinney Title: Mayor, under Resolution No. 2026-41" in text
        assert "personally appeared Margaret A. Kinney, the Mayor of the Village of Homer" in text
        assert "By: ______________________________ Name: ____" not in text
        assert "appeared ____" not in text
    del data["signatory"]
    (problem,) = problems("maintenance-easement", data)
    assert problem.startswith("signatory: is missing: the instrument names the Mayor")
    assert problem.endswith("(§ 228-78D(3))")


def test_a_standing_officer_in_the_pack_signs_when_the_case_names_none(monkeypatch):
    monkeypatch.setenv(ENV, str(ROOT / "tests" / "data" / "packs"))
    data = sample("maintenance-easement", "homer-individual") | {"jurisdiction": "alderbrook"}
    del data["signatory"]
    for text in texts("maintenance-easement", data):
        assert "Name: Rosalind T. Achterberg Title: Village President" in text
        assert (
            "appeared Rosalind T. Achterberg, the Village President of the Village of Alderbrook"
            in text
        )


def test_an_acknowledgment_outside_new_york_names_the_state_in_full_with_commission_and_seal():
    data = sample("maintenance-easement", "macedon-llc-two-signers")
    data["owner"]["signers"][1]["acknowledged_in"] = {"state": "PA", "county": "Erie"}
    for text in texts("maintenance-easement", data):
        assert "State of PA" not in text
        block = text[text.index("State of Pennsylvania ) County of Erie ) ss.:") :]
        block = block[: block.index("State of New York")]
        assert "County of Erie, State of Pennsylvania." in block
        assert "Notary Public, State of Pennsylvania" in block
        assert "Commission No.: ____" in block and "(Seal)" in block


@pytest.mark.parametrize("kind", ["maintenance-easement", "maintenance-agreement"])
def test_approval_as_to_form_is_counsel_s_and_cites_nothing(kind):
    """Counsel's approval as to form is not the Village's approval of § 228-78D(5): no
    citation follows it (LAW.md § 8), in the PDF and in the DOCX."""
    for text in texts(kind, sample(kind, "homer-individual")):
        approval = text[text.index("Approved as to form by") :]
        line = approval[: approval.index("______")]
        assert (
            line.strip()
            == "Approved as to form by the counsel for the Village of Homer, before recording."
        )
        assert "§" not in line


# -- 3. dates that agree ---------------------------------------------------------------------
def test_a_plan_approval_after_the_agreement_is_not_recited_as_past():
    data = sample("maintenance-agreement", "homer-llc-two-signers")
    data["agreement"]["date"] = "2027-05-03"
    data["project"]["approval"] = {"board": "Village of Homer Planning Board", "date": "2027-06-01"}
    assert not [w for w in api.check("maintenance-agreement", data) if "approval" in w]
    for text in texts("maintenance-agreement", data):
        assert "June 1, 2027" not in text
        assert "under plans submitted to the Village of Homer Planning Board for approval" in text
        assert "and before final plan approval, the Owner shall record it" in text


@pytest.mark.parametrize(("juris", "section"), [("homer", "228-78D(5)"), ("macedon", "301-73D")])
def test_a_final_approval_before_the_agreement_warns_and_the_agreement_claims_nothing(
    juris, section
):
    data = sample("maintenance-agreement", f"{juris}-llc-two-signers")
    data["project"]["approval"]["stage"] = "final"
    (warning,) = [w for w in api.check("maintenance-agreement", data) if "approval" in w]
    assert warning.startswith("project.approval: the plans were given final approval on")
    assert f"before final plan approval (§ {section})" in warning
    for text in texts("maintenance-agreement", data):
        assert "before final plan approval, the Owner" not in text
        assert "approves this agreement as to form the Owner shall record it" in text
    data["project"]["approval"]["stage"] = "preliminary"  # a preliminary one may come first
    assert not [w for w in api.check("maintenance-agreement", data) if "approval" in w]


# -- 4. findable from the record ---------------------------------------------------------------
def exhibit_case(tmp_path: Path, exhibit: str | None) -> Path:
    data = sample("maintenance-easement", "macedon-llc-two-signers")
    del data["easement"]["metes_and_bounds"]
    if exhibit is not None:
        data["easement"]["exhibit"] = exhibit
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def map_files(folder: Path) -> dict[str, Path]:
    """The sample map as PNG, JPEG and a one-page PDF."""
    from PIL import Image

    png = EXHIBITS / "canal-landing-easement-area.png"
    image = Image.open(png).convert("RGB")
    files = {"png": folder / "map.png", "jpeg": folder / "map.jpg", "pdf": folder / "map.pdf"}
    shutil.copy(png, files["png"])
    image.save(files["jpeg"], "JPEG", quality=80)
    image.save(files["pdf"], "PDF", resolution=150)
    return files


@pytest.mark.parametrize("fmt", ["png", "jpeg", "pdf"])
def test_a_map_exhibit_is_embedded_in_the_pdf_and_the_docx(tmp_path, fmt):
    files = map_files(tmp_path)
    case = exhibit_case(tmp_path, files[fmt].name)  # relative: read from the case's folder
    done, blobs = api.render_bytes("maintenance-easement", case, ("pdf", "docx", "html"))
    assert not [w for w in done.document.warnings if w.startswith("easement:")]
    last = PdfReader(io.BytesIO(blobs["pdf"])).pages[-1]
    assert "Exhibit 1: Map of the Easement Area" in last.extract_text()
    (image,) = last.images
    assert image.image.size[0] > 1000  # the map itself, not a placeholder
    document = docx.Document(io.BytesIO(blobs["docx"]))
    (shape,) = document.inline_shapes
    assert 6.0 <= shape.width.inches <= 6.5
    assert "Exhibit 1: Map of the Easement Area" in docx_paragraphs(blobs["docx"])[-2]
    assert 'src="data:image/' in blobs["html"].decode()
    for text in (flat(pdf_text(blobs["pdf"])), flat(docx_text(blobs["docx"]))):
        assert "The Easement Area is shown on Exhibit 1, a map attached to this easement." in text


def test_an_exhibit_that_cannot_be_attached_is_an_error_naming_the_field(tmp_path):
    with pytest.raises(CaseInvalid) as missing:
        api.check("maintenance-easement", exhibit_case(tmp_path, "nowhere.png"))
    (problem,) = (str(p) for p in missing.value.problems)
    assert problem.startswith("easement.exhibit: 'nowhere.png' does not exist in the case file's")
    (tmp_path / "map.png").write_text("not an image", encoding="utf-8")
    case = exhibit_case(tmp_path, "map.png")
    with pytest.raises(CaseInvalid, match="is not a PNG, JPEG or PDF file"):
        api.check("maintenance-easement", case)
    with (tmp_path / "big.png").open("wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.truncate(MAX_BYTES + 1)
    with pytest.raises(CaseInvalid, match="a map exhibit is between 1 byte and 20 MB"):
        api.check("maintenance-easement", exhibit_case(tmp_path, "big.png"))


def test_an_area_only_the_plans_show_is_a_warning_and_metes_and_bounds_is_schedule_c(renders):
    data = sample("maintenance-easement", "homer-individual")
    (warning,) = api.check("maintenance-easement", data)
    assert warning.startswith("easement: the easement area is described in words only")
    assert warning.endswith("(§ 228-78D(3))")
    path = FIX / "maintenance-easement" / "homer-llc-two-signers.yaml"
    text = flat(pdf_text(renders.get("maintenance-easement", path)["pdf"]))
    assert "The Easement Area is more particularly described in Schedule C." in text
    assert "Schedule C: Description of the Easement Area" in text
    assert "South 88° 14' 30\" East 212.40 feet" in text[text.index("Schedule C:") :]


def test_a_facility_without_maintenance_provisions_is_a_warning_naming_it(renders):
    path = FIX / "maintenance-agreement" / "homer-individual.yaml"
    (warning,) = [w for w in api.check("maintenance-agreement", path) if "practices" in w]
    assert warning.startswith("facilities[0].practices: none given for Dry swale;")
    for text in (flat(pdf_text(renders.get("maintenance-agreement", path)["pdf"])),):
        assert "as the maintenance provisions of the approved plans provide" not in text
        assert "as the approved plans provide" not in text
        assert "Maintenance: as Clause 2 of this agreement provides." in text


# -- 5. Word cross-references --------------------------------------------------------------------
def test_clause_references_are_ref_fields_to_bookmarks_on_the_clause_numbers(renders):
    path = FIX / "maintenance-agreement" / "homer-individual.yaml"
    document = docx.Document(io.BytesIO(renders.get("maintenance-agreement", path)["docx"]))
    body = document.element.body
    marks = {b.get(qn("w:name")): b for b in body.iter(qn("w:bookmarkStart"))}
    assert {"Clause_default", "Clause_maintenance", "Clause_security"} <= set(marks)
    default = marks["Clause_default"].getparent()
    assert default.pPr.numPr is not None  # on the numbered paragraph: REF \n prints its number
    fields = [t.text for t in body.iter(qn("w:instrText"))]
    assert fields.count(" REF Clause_default \\n \\h ") == 2
    assert " REF Clause_maintenance \\n \\h " in fields


def test_a_clause_inserted_in_word_renumbers_the_references_through_libreoffice(renders, tmp_path):
    path = FIX / "maintenance-agreement" / "homer-individual.yaml"
    document = docx.Document(io.BytesIO(renders.get("maintenance-agreement", path)["docx"]))
    before = flat(docx_text(renders.get("maintenance-agreement", path)["docx"]))
    assert (
        "to do work under Clause 9," in before
        and "may draw on the security to pay for work it does under Clause 9." in before
    )
    # counsel inserts a clause before Costs (clause 3): Default becomes clause 10
    costs = next(p for p in document.paragraphs if p.text.startswith("Costs."))
    new = copy.deepcopy(costs._p)
    for mark in [*new.iter(qn("w:bookmarkStart")), *new.iter(qn("w:bookmarkEnd"))]:
        mark.getparent().remove(mark)
    for run in new.findall(qn("w:r"))[1:]:
        new.remove(run)
    new.find(qn("w:r")).find(qn("w:t")).text = "Insurance. The Owner shall insure the Facilities."
    costs._p.addprevious(new)
    edited = io.BytesIO()
    document.save(edited)
    (pdf,) = office_pdfs({"edited": edited.getvalue()}, tmp_path).values()
    text = flat(pdf_text(pdf))
    assert "3. Insurance. The Owner shall insure the Facilities." in text
    assert "to do work under Clause 10," in text
    assert "pay for work it does under Clause 10." in text
    assert "Maintenance: as Clause 2 of this agreement provides." in text
