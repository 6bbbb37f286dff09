"""Stop-work order (§ 228-79C(2); § 228-79A(1)): the served copy and the one-page placard."""

from __future__ import annotations

import io

import docx
import pytest
from conftest import LAW_TEXT

from docgen import api
from docgen.documents.kind import Options
from docgen.law.packs import load_pack
from docgen.render.filters import long_date, phone
from tests.helpers.enforcement_cases import ORDERS, case_data, cli, squash, write_yaml
from tests.helpers.readback import docx_text, pdf_pages, pdf_text

HOMER = load_pack("homer")
KIND = "stop-work-order"
DEFAULT = next(p for p in ORDERS if "silt" in p.stem)
LISTED = next(p for p in ORDERS if "grading" in p.stem)
LAW = (LAW_TEXT / "homer-ch228-art12.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "key", ["stop_work", "stabilization", "stop_work_duration", "stop_work_failure"]
)
def test_order_wording_is_the_law_verbatim(key):
    assert getattr(HOMER.enforcement, key).value in LAW


@pytest.mark.parametrize("path", ORDERS, ids=[p.stem for p in ORDERS])
@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_served_copy_states_the_order(renders, path, fmt):
    data = case_data(path)
    r = renders.get(KIND, path)
    text = squash(pdf_text(r["pdf"]) if fmt == "pdf" else docx_text(r["docx"]))
    for key in ("stop_work", "stop_work_duration", "stop_work_failure"):
        assert squash(getattr(HOMER.enforcement, key).value) in text, key
    expected = [
        data["number"],
        data["recipient"]["name"],
        long_date(data["effective"]),
        data["officer"]["name"],
        data["contact"]["name"],
        "(607) 555-0142",
        *[v["nature"] for v in data["violations"]],
        *data.get("notices", []),
        *data.get("allowed_work", []),
    ]
    for value in expected:
        assert squash(value) in text, value


def test_default_allowed_work_is_corrective_work_and_stabilization(renders):
    text = squash(docx_text(renders.get(KIND, DEFAULT)["docx"]))
    assert squash("work that addresses the violations leading to this stop-work order") in text
    # site stabilization inside C(2)'s exception, cited to C(2); A(1)'s narrower rule is not
    # printed beside it (LAW.md § 3)
    assert squash("stop-work order, site stabilization among it. (§ 228-79C(2))") in text
    assert squash(HOMER.enforcement.stabilization.value) not in text
    listed = squash(docx_text(renders.get(KIND, LISTED)["docx"]))
    assert squash("work that addresses the violations leading") in listed  # examples inside it


@pytest.fixture(scope="module")
def placards():
    out = {}
    for path in ORDERS:
        doc = api.build(KIND, path, Options(layout="placard"))
        out[path.stem] = (case_data(path), api.to_bytes(doc, "pdf"), api.to_bytes(doc, "docx"))
    return out


@pytest.mark.parametrize("stem", [p.stem for p in ORDERS])
def test_placard_page_one_has_heading_site_number_date_contact(placards, stem):
    """The order on the placard's first page; the language-access block (LAW.md § 13) and
    the placard's last lines on a second sheet posted with it, where the page has no room."""
    data, pdf, docx_bytes = placards[stem]
    pages = pdf_pages(pdf)
    assert len(pages) == 2
    site = data["site"].get("address", {}).get("street") or data["site"]["description"]
    for text in (squash(pages[0]), squash(docx_text(docx_bytes))):
        for value in (
            "STOP WORK ORDER",
            site,
            data["number"],
            long_date(data["effective"]),
            phone("6075550142"),
            HOMER.enforcement.stop_work.value,
        ):
            assert squash(value) in text, value
    styles = {p.style.name for p in docx.Document(io.BytesIO(docx_bytes)).paragraphs}
    assert "Placard Heading" in styles


def test_placard_and_served_copy_share_their_wording(placards, renders):
    """The placard's sentences come from the same macros as the served copy's."""
    served = squash(pdf_text(renders.get(KIND, DEFAULT)["pdf"]))
    sentence = (
        "Tioughnioga Ridge Development LLC (developer), and all persons working at this site, "
        "are ordered to"
    )
    assert squash(sentence) in served
    assert squash(sentence) in squash(pdf_pages(placards[DEFAULT.stem][1])[0])


def test_unknown_layout_is_a_clear_error():
    code, out = cli("render", KIND, DEFAULT, "--layout", "poster", "-f", "html", "-o", "/dev/null")
    assert code == 2 and "no layout 'poster'" in out and "placard" in out


@pytest.mark.parametrize(
    ("change", "field", "label"),
    [
        (lambda d: d.update(effective="2026-11-01"), "effective", "Effective"),
        (lambda d: d["contact"].update(phone="555-0142"), "contact.phone", "Contact, phone"),
        (lambda d: d.pop("contact"), "contact", "Contact"),
        (lambda d: d["remedies"][0].update(due="2026-11-01"), "remedies[0].due", "Remedy 1, due"),
        (
            lambda d: d["violations"][0].update(observed="2026-11-20"),
            "violations[0].observed",
            "Violation 1, observed",
        ),
        (lambda d: d["served"].pop("date"), "served.date", "Served, date of service"),
        (lambda d: d.update(site={"tax_map": "67.07-3-12"}), "site", "Site"),
    ],
)
def test_check_errors(tmp_path, change, field, label):
    """Each problem names its field as the desk's form does; with --paths (for whoever
    writes case files), by its path in the case file."""
    data = case_data(DEFAULT)
    change(data)
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1 and f"  {label}:" in out and "§ 228-79C(2)" in out, out
    code, out = cli("check", KIND, write_yaml(tmp_path, data), "--paths")
    assert code == 1 and f"  {field}:" in out and "§ 228-79C(2)" in out, out


def test_macedon_has_no_stop_work_order(tmp_path):
    data = case_data(DEFAULT) | {"jurisdiction": "macedon"}
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1 and "Town of Macedon cannot issue a stop-work order" in out


def test_certificate_of_service_names_who_served_it(renders):
    from conftest import ROOT

    from tests.helpers.readback import docx_text, pdf_text

    case = ROOT / "fixtures" / "stop-work-order" / "homer-silt-fence.yaml"
    r = renders.get("stop-work-order", case)
    for text in (pdf_text(r["pdf"]), docx_text(r["docx"])):
        flat = " ".join(text.split())
        assert "I, Luis Ortega, Deputy Code Enforcement Officer, certify that on" in flat
        assert "November 12, 2026 I served this Stop-Work Order No. SWO-2026-0003" in flat
