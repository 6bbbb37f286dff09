"""Maintenance easements and agreements (LAW.md §6-8), read back from real PDF and DOCX."""

from __future__ import annotations

import copy
import io
import re
import zipfile
from pathlib import Path

import docx
import pytest
import yaml
from conftest import LAW_TEXT, ROOT, SAMPLES, write_case
from lxml import etree

from docgen import api
from docgen.documents import maintenance_agreement, maintenance_easement
from docgen.documents.kind import Options
from docgen.documents.recording import clause_numbers, unmet
from docgen.errors import CaseInvalid
from docgen.law.acknowledgment import office_article
from docgen.law.packs import load_pack
from docgen.render.filters import money_words
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, html_text, pdf_pages, pdf_text

KINDS = ("maintenance-easement", "maintenance-agreement")
AGREEMENT_SAMPLES = [(k, p) for k, p in SAMPLES if k in KINDS]
IDS = [f"{k}/{p.stem}" for k, p in AGREEMENT_SAMPLES]
LAW = {
    "homer": (LAW_TEXT / "homer-ch228-art12.txt").read_text(encoding="utf-8"),
    "macedon": (LAW_TEXT / "macedon-ch301-art14.txt").read_text(encoding="utf-8"),
}

# The heading of each clause, by clause id: every term of LAW.md §6 and §7 in the text.
HEADINGS = {
    "maintenance-easement": {
        "grant": "Grant of easement.",
        "scope": "What the access includes.",
        "maintenance": "Maintenance remains the Grantor's.",
        "obstruction": "No obstruction.",
        "timing": "Executed before approval.",
        "runs": "Binding on later owners.",
        "recording": "Recording.",
        "agreement": "Maintenance agreement.",
        "general": "General.",
    },
    "maintenance-agreement": {
        "plans": "Approved plans.",
        "maintenance": "Maintenance.",
        "costs": "Costs.",
        "inspection": "Inspection by a professional engineer.",
        "access": "Access.",
        "alteration": "No alteration.",
        "repairs": "Repairs.",
        "security": "Security.",
        "default": "Default.",
        "recording": "Recording.",
        "successors": "Binding on later owners.",
        "dedication": "Dedication.",
        "effective": "Effective date.",
    },
}
# Words of the terms themselves (LAW.md §6, §7), beyond the headings.
TERMS = {
    "maintenance-easement": [
        "perpetual easement",
        "Easement Area",
        "before the issuance of any approval",
        "all subsequent landowners served by the Facilities",
        "to ensure that the Facilities are maintained in proper working condition",
        "runs with the land",
    ],
    "maintenance-agreement": [
        "maintained in perpetuity",
        "maintain, clean, repair, replace and continue",
        "ditches, swales, dry wells, inlets, pipes, culverts and ponds",
        "bears all costs",
        "held in common",
        "professional engineer licensed in the State of New York",
        "shall not alter, abandon or discontinue",
        "that the Village directs in writing or that the engineer's report recommends",
        "is a lien upon the Property until paid",
        "as a deed restriction on the Property",
        "all subsequent landowners",
        "accept dedication",
        "takes effect on",
    ],
}
WORDING = {
    "homer": {
        "access": "for periodic inspection by the Village of Homer",
        "counsel": "counsel for the Village of Homer",
        "clerk": "Cortland County Clerk",
        "signatory": "Mayor",
        "discharges": "Discharges from the SMPs shall not exceed design criteria.",
        "absent": ("Town", "reasonable times", "Wayne"),
    },
    "macedon": {
        "access": "at reasonable times for periodic inspection by the Town",
        "counsel": "attorney for the Town",
        "clerk": "Wayne County Clerk",
        "signatory": "Town Supervisor",
        "discharges": "or cause or contribute to water quality standard violations",
        "absent": ("Village", "Cortland"),
    },
}


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def case_of(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reviewed():
    """Review-mode renders of the Homer LLC samples, both kinds."""
    out = {}
    for kind in KINDS:
        path = ROOT / "fixtures" / kind / "homer-llc-two-signers.yaml"
        done = api.render_case(kind, path, Options(review=True))
        doc, review = done.document, done.review
        out[kind] = {
            "doc": doc,
            "pdf": api.to_bytes(doc, "pdf"),
            "docx": api.to_bytes(doc, "docx"),
            "review_pdf": api.to_bytes(review, "pdf"),
            "review_docx": api.to_bytes(review, "docx"),
        }
    return out


def test_fixtures_cover_both_municipalities_and_both_owner_kinds():
    for kind in KINDS:
        seen = {
            (case_of(p)["jurisdiction"], case_of(p)["owner"]["kind"])
            for k, p in SAMPLES
            if k == kind
        }
        assert {
            ("homer", "llc"),
            ("homer", "individual"),
            ("macedon", "llc"),
            ("macedon", "individual"),
        } <= seen
        llcs = [
            case_of(p) for k, p in SAMPLES if k == kind and case_of(p)["owner"]["kind"] == "llc"
        ]
        assert all(len(c["owner"]["signers"]) == 2 for c in llcs)


@pytest.mark.parametrize(("kind", "path"), AGREEMENT_SAMPLES, ids=IDS)
def test_every_term_party_acknowledgment_and_schedule_is_in_pdf_and_docx(renders, kind, path):
    r = renders.get(kind, path)
    case = case_of(path)
    pack = load_pack(case["jurisdiction"])
    for text in (flat(pdf_text(r["pdf"])), flat(docx_text(r["docx"]))):
        for heading in HEADINGS[kind].values():
            assert heading in text
        for term in TERMS[kind]:
            assert term.replace("Village", pack.short_name.value) in text
        # parties: the owner as grantor or owner, the municipality as grantee or party
        assert case["owner"]["name"] in text
        assert f"the {pack.name.value}, a municipal corporation of the State of New York" in text
        for signer in case["owner"]["signers"]:
            assert f"Name: {signer['name']}" in text or signer["name"] in text
        # acknowledgments: one per owner signer and one for the municipality's officer
        # (a signer acknowledging outside New York gets the RPL § 309-b form instead)
        signers = case["owner"]["signers"]
        in_ny = len([s for s in signers if "acknowledged_in" not in s]) + 1
        assert text.count("before me, the undersigned, personally appeared") == len(signers) + 1
        assert text.count(load_pack("homer").acknowledgment.certificate.value) == in_ny
        assert text.count("State of New York ) County of") == in_ny
        assert text.count("ss.:") == len(signers) + 1
        assert text.count("Notary Public, State of New York") == in_ny
        assert "Commission expires" in text and "Qualified in" in text
        for signer in signers:
            if case["owner"]["kind"] == "individual":
                filled = f"personally appeared {signer['name']}, personally known"
            else:
                filled = (
                    f"personally appeared {signer['name']}, {office_article(signer['title'])} "
                    f"{signer['title']} of "
                    f"{case['owner']['name']}, personally known"
                )
            assert filled in text
        # counsel approves as to form; schedules A and B
        assert f"Approved as to form by the {pack.counsel.value}" in text
        assert case["counsel"]["name"] in text
        assert "Schedule A: Legal Description of the Property" in text
        assert flat(case["property"]["legal_description"]).split(" bounded")[0][:80] in text
        assert "Facilities Schedule: Stormwater Management Facilities and Their Maintenance" in text
        for facility in case["facilities"]:
            assert f"{facility['type']}." in text
            for practice in facility.get("practices", []):
                assert flat(practice) in text
        # security in words and figures
        assert money_words(case["security"]["amount"]) in text


@pytest.mark.parametrize(("kind", "path"), AGREEMENT_SAMPLES, ids=IDS)
def test_first_page_is_ready_for_recording(renders, kind, path):
    r = renders.get(kind, path)
    case = case_of(path)
    first = flat(pdf_pages(r["pdf"])[0])
    pack = load_pack(case["jurisdiction"])
    assert first.index("Space above reserved for the") < first.index("Tax Map No.")
    assert f"{pack.recording.tax_map_label.value}: {case['property']['tax_map']}" in first
    assert "Record and return to:" in first
    assert f"{case['counsel']['name']}, {case['counsel']['title']}" in first
    assert " ".join(pack.recording.return_to.value) in first
    document = docx.Document(io.BytesIO(r["docx"]))
    assert document.paragraphs[0].style.name == "Clerk Space"
    assert 'class="clerk-space"' in r["html"] and "padding-top: 2.5in" in r["html"]


@pytest.mark.parametrize(("kind", "path"), AGREEMENT_SAMPLES, ids=IDS)
def test_homer_and_macedon_wording_differ_where_their_codes_do(renders, kind, path):
    r = renders.get(kind, path)
    juris = case_of(path)["jurisdiction"]
    words = WORDING[juris]
    for text in (flat(pdf_text(r["pdf"])), flat(docx_text(r["docx"]))):
        assert words["counsel"] in text
        assert words["clerk"] in text
        assert f"Title: {words['signatory']}" in text
        if kind == "maintenance-easement":
            assert words["access"] in text
        else:
            assert words["discharges"] in text
        for absent in words["absent"]:
            assert absent not in text, absent


@pytest.mark.parametrize("juris", ["homer", "macedon"])
def test_quoted_law_in_the_instruments_is_verbatim(juris):
    pack = load_pack(juris)
    access = pack.easement.access.value + " " + pack.easement.purpose.value
    access = f"for access to the facility {access}"
    assert access in LAW[juris]
    for key in ("duty", "program", "procedures", "discharges"):
        assert getattr(pack.agreement.after_construction, key).value in LAW[juris]


@pytest.mark.parametrize(("kind", "path"), AGREEMENT_SAMPLES, ids=IDS)
def test_docx_numbering_is_word_numbering_and_the_archive_is_sound(renders, kind, path):
    data = renders.get(kind, path)["docx"]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        parts = {name: archive.read(name) for name in archive.namelist()}
    xml = {name: etree.fromstring(blob) for name, blob in parts.items() if name.endswith(".xml")}
    body, numbering = xml["word/document.xml"], xml["word/numbering.xml"]
    styles = xml["word/styles.xml"]
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    abstract = {a.get(f"{w}abstractNumId") for a in numbering.iter(f"{w}abstractNum")}
    nums = {
        n.get(f"{w}numId"): n.find(f"{w}abstractNumId").get(f"{w}val")
        for n in numbering.iter(f"{w}num")
    }
    used = {n.get(f"{w}val") for n in body.iter(f"{w}numId")}
    assert used and used <= set(nums)
    assert {nums[u] for u in used} <= abstract
    style_ids = {s.get(f"{w}styleId") for s in styles.iter(f"{w}style")}
    assert {p.get(f"{w}val") for p in body.iter(f"{w}pStyle")} <= style_ids
    # The clauses are one numbered list, in the order the kind defines; no typed numbers.
    document = docx.Document(io.BytesIO(data))
    headings = HEADINGS[kind]
    module = maintenance_easement if kind == "maintenance-easement" else maintenance_agreement
    numbered = [
        p
        for p in document.paragraphs
        if p._p.pPr is not None and p._p.pPr.numPr is not None and p._p.pPr.numPr.ilvl.val == 0
    ]
    clause_paras = [p for p in numbered if any(p.text.startswith(h) for h in headings.values())]
    order = [c.id for c in module.CLAUSES]
    assert [p.text.split(".")[0] + "." for p in clause_paras][: len(order)] == [
        headings[i].split(".")[0] + "." for i in order
    ]
    assert len({p._p.pPr.numPr.numId.val for p in clause_paras}) == 1
    assert not any(re.match(r"^\(?\d+[.)]\s", p.text) for p in document.paragraphs)
    footer = b"".join(blob for name, blob in parts.items() if name.startswith("word/footer"))
    assert b"PAGE" in footer and b"NUMPAGES" in footer


def test_review_mode_marks_case_values_and_maps_requirements_to_clauses(reviewed):
    for r in reviewed.values():
        html = r["doc"].html
        assert '<mark class="case">Cayuga Street Holdings LLC</mark>' in html
        assert '<mark class="case">87.17-01-12.000</mark>' in html
        assert (
            '<mark class="case">forty-eight thousand five hundred dollars ($48,500.00)</mark>'
            in html
        )
        assert "Village Hall" not in re.findall(r'<mark class="case">([^<]*)</mark>', html)
        document = docx.Document(io.BytesIO(r["docx"]))
        lit = {
            run.text.strip()
            for p in document.paragraphs
            for run in p.runs
            if run.font.highlight_color is not None
        }
        assert {"Cayuga Street Holdings LLC", "87.17-01-12.000", "Alan P. Mercer"} <= lit
        assert "Village of Homer" not in lit and "Village Hall" not in lit
        # the review is a file of its own: never pages of the instrument
        for text in (flat(pdf_text(r["pdf"])), flat(docx_text(r["docx"]))):
            assert "Requirements and the Clauses That Meet Them" not in text
        for text in (flat(pdf_text(r["review_pdf"])), flat(docx_text(r["review_docx"]))):
            assert "Requirements and the Clauses That Meet Them" in text
            assert (
                "Values From the Case" in text and "owner.name Cayuga Street Holdings LLC" in text
            )
    # the table's clause numbers come from the clause order: the security row says Clause 7
    agreement = reviewed["maintenance-agreement"]
    numbers = clause_numbers(maintenance_agreement.CLAUSES)
    table = docx.Document(io.BytesIO(agreement["review_docx"])).tables[-1]
    rows = {row.cells[0].text: row.cells[2].text for row in table.rows}
    security = next(v for k, v in rows.items() if k.startswith("Security (bond"))
    assert security == f"Clause {numbers['security']}"
    easement = docx.Document(io.BytesIO(reviewed["maintenance-easement"]["review_docx"])).tables[-1]
    erows = {row.cells[0].text: row.cells[2].text for row in easement.rows}
    access = next(v for k, v in erows.items() if k.startswith("Access to the facility"))
    assert access == f"Clause {clause_numbers(maintenance_easement.CLAUSES)['grant']}; Clause 2"


def test_review_css_underlines_marked_values():
    css = (ROOT / "templates" / "agreements" / "agreement.css").read_text(encoding="utf-8")
    assert re.search(r"\.review mark\.case \{[^}]*text-decoration: underline", css)


def test_without_review_nothing_is_marked(renders):
    kind, path = AGREEMENT_SAMPLES[0]
    r = renders.get(kind, path)
    assert "<mark" not in r["html"] and "Review: Requirements" not in r["html"]


@pytest.mark.parametrize("module", [maintenance_easement, maintenance_agreement])
def test_every_requirement_is_met_by_a_clause_or_part(module):
    assert unmet(module.REQUIREMENTS, module.CLAUSES) == []


def test_case_values_are_escaped_once_in_review_mode(tmp_path):
    data = case_of(ROOT / "fixtures" / "maintenance-agreement" / "homer-individual.yaml")
    data["owner"]["name"] = data["owner"]["signers"][0]["name"] = "O'Brien & Sons <Ltd> {{ 7*7 }}"
    doc = api.build("maintenance-agreement", data, Options(review=True))
    assert '<mark class="case">O&#39;Brien &amp; Sons &lt;Ltd&gt; {{ 7*7 }}</mark>' in doc.html
    assert "O'Brien & Sons <Ltd> {{ 7*7 }}" in flat(html_text(doc.standalone()))


# -- errors: each names the field and the provision --------------------------------------


def problems(kind: str, data: dict) -> list[str]:
    with pytest.raises(CaseInvalid) as err:
        api.build(kind, data)
    return [str(p) for p in err.value.problems]


def sample(juris: str = "homer", owner: str = "llc-two-signers") -> dict:
    return copy.deepcopy(
        case_of(ROOT / "fixtures" / "maintenance-agreement" / f"{juris}-{owner}.yaml")
    )


@pytest.mark.parametrize(
    ("juris", "provision"),
    [("homer", "a term of the model agreement"), ("macedon", "a term of the model agreement")],
)
@pytest.mark.parametrize("kind", KINDS)
def test_inspection_interval_over_five_years_is_an_error(kind, juris, provision):
    data = sample(juris)
    data["inspection"] = {"interval_years": 6, "report_days": 45}
    found = problems(kind, data)
    assert any(
        p.startswith("inspection.interval_years: 6 years") and p.endswith(f"({provision})")
        for p in found
    )
    assert any(p.startswith("inspection.report_days: 45 days") for p in found)


def test_five_years_exactly_is_allowed():
    data = sample()
    data["inspection"] = {"interval_years": 5}
    assert api.check("maintenance-agreement", data) == []


@pytest.mark.parametrize(
    ("kind", "section"),
    [("maintenance-easement", "§ 228-78D(3)"), ("maintenance-agreement", "§ 228-78D(5)")],
)
def test_a_missing_signer_is_an_error(kind, section):
    data = sample()
    data["owner"]["signers"] = []
    assert problems(kind, data) == [
        "owner.signers: names no signer; the owner must sign the instrument and acknowledge it "
        f"before a notary for it to be recorded ({section}; Real Property Law § 309-a(1))"
    ]
    del data["owner"]["signers"]
    assert problems(kind, data)[0].startswith("owner.signers: names no signer")


def test_an_entity_signer_without_a_title_is_an_error():
    data = sample()
    del data["owner"]["signers"][1]["title"]
    found = problems("maintenance-agreement", data)
    assert found == [
        "owner.signers[1].title: is required: Rosa L. Vantine signs for Cayuga Street "
        "Holdings LLC (a limited liability company) in a representative capacity, which the "
        "acknowledgment states (Real Property Law § 309-a(1))"
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_an_owner_kind_without_an_acknowledgment_form_is_an_error(kind):
    data = sample("macedon")
    data["owner"]["kind"] = "estate"
    (found,) = problems(kind, data)
    assert found.startswith("owner.kind: 'estate' has no acknowledgment form")
    assert found.endswith("(Real Property Law § 309-a(1))")


def test_property_errors_cite_the_kinds_own_section():
    data = sample("macedon")
    data["property"]["deed"] = {"liber": "1", "page": "2"}  # and an instrument number
    (both,) = problems("maintenance-easement", data)
    assert both.startswith("property: needs the owner's deed reference") and both.endswith(
        "(§ 301-73B)"
    )
    data["property"]["tax_map"] = "lot 7"
    (easement,) = problems("maintenance-easement", data)
    assert easement.startswith("property.tax_map: 'lot 7' is not a tax map number")
    assert easement.endswith("(§ 301-73B)")
    (agreement,) = problems("maintenance-agreement", data)
    assert agreement.endswith("(§ 301-73D)")


def test_no_facilities_and_a_zero_security_are_errors():
    data = sample()
    data["facilities"] = []
    data["security"]["amount"] = 0
    found = problems("maintenance-agreement", data)
    assert any(p.startswith("facilities: lists no stormwater management facility") for p in found)
    assert any(p.startswith("security.amount: must be more than $0.00") for p in found)


def test_cli_reports_the_error_without_a_traceback(tmp_path):
    data = sample()
    data["inspection"] = {"interval_years": 7}
    path = write_case(tmp_path, yaml.safe_dump(data, allow_unicode=True))
    run = docgen("render", "maintenance-agreement", path, "-o", f"{tmp_path}/", cwd=ROOT)
    assert run.returncode == 1
    assert "Inspection, years between inspections: 7 years" in run.stderr
    assert "(a term of the model agreement)" in run.stderr and "Traceback" not in run.stderr
    assert not list(tmp_path.glob("*.pdf"))


def test_one_case_file_serves_both_kinds():
    data = sample("macedon", "individual")
    assert api.check("maintenance-easement", data) == api.check("maintenance-agreement", data) == []
    schema = api.schema("maintenance-agreement")
    assert set(schema["properties"]) == {
        "jurisdiction",
        "agreement",
        "owner",
        "property",
        "project",
        "facilities",
        "easement",
        "security",
        "inspection",
        "counsel",
        "authorization",
        "signatory",
    }


@pytest.mark.parametrize(("kind", "path"), AGREEMENT_SAMPLES, ids=lambda v: str(v))
def test_word_leaves_the_first_page_top_to_the_clerk(renders, kind, path):
    document = docx.Document(io.BytesIO(renders.get(kind, path)["docx"]))
    section = document.sections[0]
    assert section.different_first_page_header_footer
    assert "".join(p.text for p in section.first_page_header.paragraphs) == ""
    assert "Tax Map No." in section.header.paragraphs[0].text
    footer = section.first_page_footer._element.xml
    assert "PAGE" in footer and "NUMPAGES" in footer


def test_other_documents_keep_the_running_head_on_page_one(renders):
    notice = ROOT / "fixtures" / "notice-of-violation" / "homer-first-offense.yaml"
    document = docx.Document(io.BytesIO(renders.get("notice-of-violation", notice)["docx"]))
    assert not document.sections[0].different_first_page_header_footer
