"""The conformance gate: every kind's samples (and the packet, and each alternative
layout) through validators docgen did not write (tests/helpers/validators.py).

- PDF: pdfua finds nothing (no error, no warning, no rule left unevaluated) and
  ``qpdf --check`` is clean, as rendered and as issued (signed);
- signed PDF: pdfsig reads "Signature is Valid" and "Total document signed", and a copy
  with one byte changed reads otherwise;
- DOCX: openxml-audit finds nothing and predicts that Word opens it cleanly, and
  LibreOffice loads it (the kinds' samples are loaded by tests/test_word_layout.py);
- HTML: axe-core finds no violation at any impact.

Each validator also gets a broken input of its own, to show it can fail.
"""

from __future__ import annotations

import io
import zipfile

import pikepdf
import pytest
from conftest import SAMPLE_IDS, SAMPLES
from desk_browser import axe_violations

from docgen import api
from docgen.demo import bundle_cases
from docgen.documents import KINDS
from docgen.documents.kind import Options
from docgen.render.pdf_tags import add_table_scopes
from docgen.signing.codes import IssueMark
from docgen.signing.keys import read_key
from docgen.signing.sign import Signer, sign_pdf
from tests.helpers import pki
from tests.helpers.office import office_convert
from tests.helpers.validators import (
    openxml_problems,
    pdfsig_problems,
    pdfua_findings,
    qpdf_problems,
    tampered,
)

OFFICER = "Dana R. Whitcomb, Code Enforcement Officer"
# Documents rendered other than through the session's cache of the kinds' samples: the
# bundles (their PDF is laid out part by part) and each kind's alternative layouts.
OTHERS = [(name, path, None) for name, path in bundle_cases()] + [
    (kind, path, layout) for kind, path in SAMPLES for layout in KINDS[kind].layouts
]
OTHER_IDS = [
    f"{kind}/{path.stem}" + (f"/{layout}" if layout else "") for kind, path, layout in OTHERS
]
ALL_IDS = SAMPLE_IDS + OTHER_IDS
# One issued (signed) sample per kind: the first of its folder.
ISSUED: dict[str, object] = {}
for _kind, _path in SAMPLES:
    ISSUED.setdefault(_kind, _path)


@pytest.fixture(scope="module")
def others() -> dict[str, dict[str, bytes]]:
    made = {}
    for sid, (kind, path, layout) in zip(OTHER_IDS, OTHERS, strict=True):
        _, made[sid] = api.render_bytes(kind, path, options=Options(layout=layout))
    return made


@pytest.fixture
def document(request, renders, others):
    """The sample's bytes by format: 'pdf', 'docx', 'html'."""
    sid = request.param
    if sid in others:
        return others[sid]
    kind, path = SAMPLES[SAMPLE_IDS.index(sid)]
    rendered = renders.get(kind, path)
    return {"pdf": rendered["pdf"], "docx": rendered["docx"], "html": rendered["html"].encode()}


def pytest_generate_tests(metafunc):
    if "document" in metafunc.fixturenames:
        metafunc.parametrize("document", ALL_IDS, indirect=True)


@pytest.fixture(scope="module")
def issued(tmp_path_factory) -> dict[str, dict[str, bytes]]:
    """Each kind's first sample as the register issues it: the verification line printed,
    the PDF signed with a municipal key from a local PKI (tests/helpers/pki.py)."""
    settings = pki.install(tmp_path_factory.mktemp("settings"))
    key = read_key(settings.parent / "keys" / "homer.p12", pki.PASSPHRASE.encode())
    signer = Signer(key, "Village of Homer", settings.parent / "keys" / "root.pem")
    made = {}
    for kind, path in ISSUED.items():
        mark = IssueMark(
            "https://homer.example.gov", "DOC-2026-0001", "7K3M-Q9PX-2D4H",
            "the Village of Homer", OFFICER, True,
        )  # fmt: skip
        _, files = api.render_bytes(kind, path, ("pdf", "html"), Options(mark=mark))
        signed = sign_pdf(files["pdf"], signer, OFFICER, "Issued by the Village of Homer")
        made[kind] = {"pdf": signed, "html": files["html"]}
    return made


@pytest.fixture(scope="module")
def page(browser):
    page = browser.new_page()
    yield page
    page.close()


# -- PDF ---------------------------------------------------------------------------------


def test_pdfua_finds_nothing(document):
    assert pdfua_findings(document["pdf"]) == []


def test_qpdf_finds_nothing(document):
    assert qpdf_problems(document["pdf"]) == []


@pytest.mark.parametrize("kind", ISSUED)
def test_an_issued_pdf_passes_pdfua_and_qpdf(issued, kind):
    assert pdfua_findings(issued[kind]["pdf"]) == []
    assert qpdf_problems(issued[kind]["pdf"]) == []


@pytest.mark.parametrize("kind", ISSUED)
def test_pdfsig_reads_every_signature_valid_over_the_whole_file(issued, kind):
    assert pdfsig_problems(issued[kind]["pdf"]) == []


def test_pdfsig_reads_a_changed_byte_and_an_update_after_signing(issued):
    signed = issued["notice-of-violation"]["pdf"]
    assert pdfsig_problems(tampered(signed)) == ["signature 1: Digest Mismatch."]
    appended = signed + b"\n% written after the signature\n"
    assert pdfsig_problems(appended) == ["signature 1: not the total document signed"]
    assert pdfsig_problems(api.to_bytes(api.build(*SAMPLES[0]), "pdf"))[0].startswith(
        "pdfsig found no signature"
    )


def test_pdfua_finds_a_header_cell_without_its_scope(renders):
    """The notice as WeasyPrint writes it, before docgen adds the scopes (its #2508)."""
    scoped = renders.get(*SAMPLES[0])["pdf"]
    with pikepdf.open(io.BytesIO(scoped)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/S") == pikepdf.Name.TH:
                del obj.A["/Scope"]
        out = io.BytesIO()
        pdf.save(out)
    found = pdfua_findings(out.getvalue())
    assert found and all(f.startswith("UA-15-003 WARNING") for f in found), found


def test_qpdf_finds_a_damaged_cross_reference(renders):
    pdf = renders.get(*SAMPLES[0])["pdf"]
    at = pdf.rindex(b"startxref") + len(b"startxref\n")
    damaged = pdf[:at] + b"1" + pdf[at:]  # the table is no longer where the file says
    assert qpdf_problems(damaged)[0] in ("exit 2", "exit 3")


# -- the scopes docgen adds (docgen/render/pdf_tags.py) ---------------------------------


def scopes(pdf: bytes) -> list[str]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        tree = doc.Root.StructTreeRoot
        cells = [o for o in doc.objects if isinstance(o, pikepdf.Dictionary) and "/S" in o]
        headers = [str(c.A.get("/Scope")) for c in cells if c.S == pikepdf.Name.TH]
        ids = {str(c.ID) for c in cells if "/ID" in c}
        assert ids == {k for k, _ in pikepdf.NameTree(tree.IDTree).items()}
        assert not [c for c in cells if "/A" in c and c.A.get("/Headers") == []]
        return headers


def test_column_headers_are_scoped_column_and_row_headers_row(renders):
    notice = renders.get("notice-of-violation", SAMPLES[0][1])["pdf"]
    certification = next(p for k, p in SAMPLES if k == "contractor-certification")
    assert set(scopes(notice)) == {"/Column"}  # <thead> rows: No., Observed, Provision ...
    assert set(scopes(renders.get("contractor-certification", certification)["pdf"])) == {"/Row"}


def test_a_pdf_without_header_cells_is_left_as_written(renders):
    easement = next(p for k, p in SAMPLES if k == "maintenance-easement")
    pdf = renders.get("maintenance-easement", easement)["pdf"]
    assert add_table_scopes(pdf) == pdf


def test_adding_the_scopes_twice_changes_nothing(renders):
    pdf = renders.get(*SAMPLES[0])["pdf"]
    assert add_table_scopes(pdf) == add_table_scopes(add_table_scopes(pdf))


# -- DOCX --------------------------------------------------------------------------------


def test_openxml_audit_finds_nothing(document):
    assert openxml_problems(document["docx"]) == []


def test_openxml_audit_finds_styles_word_would_repair(renders):
    """A DOCX carrying Word 2010's copy of the styles that disagrees with styles.xml (the
    frame python-docx starts from has one)."""
    docx = renders.get(*SAMPLES[0])["docx"]
    with zipfile.ZipFile(io.BytesIO(docx)) as source:
        styles = source.read("word/styles.xml")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
            for item in source.infolist():
                data = source.read(item)
                if item.filename == "[Content_Types].xml":
                    data = data.replace(b"</Types>", EFFECTS_TYPE + b"</Types>")
                if item.filename == "word/_rels/document.xml.rels":
                    data = data.replace(b"</Relationships>", EFFECTS_REL + b"</Relationships>")
                copy.writestr(item, data)
            copy.writestr("word/stylesWithEffects.xml", styles.replace(b"Address", b"Adress"))
    found = openxml_problems(out.getvalue())
    assert any("stylesWithEffects" in f for f in found), found


EFFECTS_TYPE = (
    b'<Override PartName="/word/stylesWithEffects.xml" ContentType="application/'
    b'vnd.ms-word.stylesWithEffects+xml"/>'
)
EFFECTS_REL = (
    b'<Relationship Id="rIdEffects" Type="http://schemas.microsoft.com/office/2007/'
    b'relationships/stylesWithEffects" Target="stylesWithEffects.xml"/>'
)


def test_libreoffice_loads_the_bundles_and_layouts_and_refuses_a_damaged_file(others, tmp_path):
    docx = {sid.replace("/", "--"): files["docx"] for sid, files in others.items()}
    good = next(iter(docx.values()))
    docx["damaged"] = good[: len(good) // 2]
    pdfs, refused = office_convert(docx, tmp_path)
    assert list(refused) == ["damaged"], refused
    assert set(pdfs) == set(docx) - {"damaged"}


# -- HTML --------------------------------------------------------------------------------


def test_axe_finds_nothing(document, page):
    page.set_content(document["html"].decode())
    assert axe_violations(page) == []


@pytest.mark.parametrize("kind", ISSUED)
def test_axe_finds_nothing_in_an_issued_document(issued, page, kind):
    page.set_content(issued[kind]["html"].decode())
    assert axe_violations(page) == []


def test_axe_finds_a_header_cell_with_no_text(renders, page):
    html = renders.get(*SAMPLES[0])["html"].replace("<th>No.</th>", "<th></th>", 1)
    page.set_content(html)
    found = axe_violations(page)
    assert any(f.startswith("empty-table-header") for f in found), found
