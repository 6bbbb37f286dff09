"""One statement, signed, per firm (§ 228-78B(4); § 301-71D): each firm's certification with
its signature fits one page in the PDF and in Word (laid out by LibreOffice), for every
sample, for the blank forms and for the longest realistic firm name, address, signer and
training line; a name ending in a period never gets a second one."""

from __future__ import annotations

import copy
import re

import pytest
import yaml
from conftest import ROOT

from docgen import api
from docgen.law.packs import ENV
from docgen.render.filters import full_stop
from tests.helpers.office import office_pdfs
from tests.helpers.readback import docx_text, pdf_pages

KIND = "contractor-certification"
FIX = ROOT / "fixtures" / KIND
# The longest a firm's own lines realistically run: a firm name of 80 characters, a street
# line with building and suite, a long signer's name and title, a trained contractor whose
# training has lapsed (the note that says so), and the sample's three responsibilities.
LONGEST = {
    "firm": "Tully Valley Excavating & Site Development Contractors of Central New York, Inc.",
    "address": {
        "street": "12345 State Route 281, Building C, Suite 200",
        "city": "Tully",
        "state": "NY",
        "zip": "13159",
    },
    "phone": "3155550123",
    "role": "subcontractor",
    "signer": {
        "name": "Christopher J. Vanderhoff-Kowalczyk Jr.",
        "title": "Vice President of Field Operations and Safety",
    },
    "trained_contractor": {
        "name": "Maximilian R. Throckmorton-Vasquez Jr.",
        "trained": "2022-03-15",
    },
}


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def longest(jurisdiction: str, signed: bool) -> dict:
    data = yaml.safe_load((FIX / "homer-three-contractors.yaml").read_text(encoding="utf-8"))
    firm = copy.deepcopy(LONGEST) | {"responsibilities": data["contractors"][0]["responsibilities"]}
    if signed:
        firm["signed"] = "2026-09-02"
    return data | {
        "jurisdiction": jurisdiction,
        "contractors": [firm, firm | {"role": "contractor"}],
    }


def cases() -> dict[str, tuple[object, int]]:
    """name -> (the rendered document, how many firms it holds)."""
    out = {}
    for path in sorted(FIX.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[path.stem] = (api.build(KIND, path), len(data["contractors"]))
    for jurisdiction in ("homer", "macedon"):
        out[f"blank-{jurisdiction}"] = (api.blank(KIND, jurisdiction), 1)
        for signed in (True, False):
            name = f"longest-{jurisdiction}-{'signed' if signed else 'unsigned'}"
            out[name] = (api.build(KIND, longest(jurisdiction, signed)), 2)
    return out


@pytest.fixture(scope="module")
def rendered():
    return cases()


def test_each_firm_is_one_page_in_the_pdf(rendered):
    for name, (doc, firms) in rendered.items():
        pages = [flat(p) for p in pdf_pages(api.to_bytes(doc, "pdf"))]
        assert len(pages) == firms, (name, len(pages))
        for page in pages:
            assert page.count("I certify under penalty of law") == 1, name
            assert page.count("Signature: ____") == 1, name
            assert "Who signs:" in page, name


def test_each_firm_is_one_page_in_word(rendered, tmp_path):
    docx = {name: api.to_bytes(doc, "docx") for name, (doc, _) in rendered.items()}
    pdfs = office_pdfs(docx, tmp_path)
    for name, (_, firms) in rendered.items():
        pages = [flat(p) for p in pdf_pages(pdfs[name])]
        assert len(pages) == firms, (name, len(pages))
        for page in pages:
            assert page.count("I certify under penalty of law") == 1, name
            assert "Signature: ____" in page and "Who signs:" in page, name


def test_the_fictional_pack_blank_form_is_one_page(monkeypatch):
    monkeypatch.setenv(ENV, str(ROOT / "tests" / "data" / "packs"))
    assert len(pdf_pages(api.to_bytes(api.blank(KIND, "alderbrook"), "pdf"))) == 1


def test_a_name_ending_in_a_period_never_gets_a_second():
    assert full_stop("Tully Valley Excavating Inc.") == "Tully Valley Excavating Inc."
    assert full_stop("Dry swale") == "Dry swale." and full_stop("Is it? ") == "Is it?"
    data = yaml.safe_load((FIX / "homer-three-contractors.yaml").read_text(encoding="utf-8"))
    for firm in data["contractors"]:
        firm["firm"] = "Tully Valley Excavating Inc."
        firm["signer"]["title"] = "Pres."
    data["project"]["name"] = "Tully Valley Estates Inc."
    text = flat(docx_text(api.to_bytes(api.build(KIND, data), "docx")))
    assert "Tully Valley Excavating Inc." in text and not re.search(r"\w\.\.(?!\.)", text)
    instrument = yaml.safe_load(
        (ROOT / "fixtures" / "maintenance-agreement" / "homer-llc-two-signers.yaml").read_text(
            encoding="utf-8"
        )
    )
    instrument["owner"] |= {"name": "Tully Valley Excavating Inc.", "kind": "corporation"}
    instrument["facilities"][0]["type"] = "Pond No. 2."
    text = flat(docx_text(api.to_bytes(api.build("maintenance-agreement", instrument), "docx")))
    assert "Pond No. 2. A bioretention" in text
    assert not re.search(r"\w\.\.(?!\.)", text)
