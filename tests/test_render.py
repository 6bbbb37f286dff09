"""The render pipeline: escaping, determinism, nothing fetched, atomic writes."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
import zipfile

import pytest
from conftest import ROOT, write_case

from docgen import api
from docgen.documents.kind import Options
from tests.helpers.readback import docx_text, html_text, pdf_text

HOSTILE = "O'Brien & Sons <Ltd> \"{{ 7*7 }}\" {% include 'x' %}"
CASE = f"""
jurisdiction: homer
number: PS-9
issued: 2026-11-03
officer: {{name: Dana Whitcomb, title: Code Enforcement Officer}}
recipient:
  name: '{HOSTILE.replace("'", "''")}'
  role: landowner
  address: {{street: '<img src="file:///etc/passwd">', city: Homer, state: NY, zip: "13077"}}
offense: {{committed: 2026-11-01, nature: silt fence down, provision: "§ 228-78D(1)"}}
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = write_case(tmp_path_factory.mktemp("hostile"), CASE)
    doc = api.build("penalty-statement", path)
    return doc, api.to_bytes(doc, "pdf"), api.to_bytes(doc, "docx")


def test_case_data_prints_literally_in_every_format(hostile):
    doc, pdf, docx_bytes = hostile
    flat = lambda text: " ".join(text.split())  # noqa: E731
    for text in (html_text(doc.standalone()), pdf_text(pdf), docx_text(docx_bytes)):
        assert HOSTILE in flat(text)
        assert "49" not in flat(text).split(HOSTILE)[0][-5:]
        assert '<img src="file:///etc/passwd">' in flat(text)


def test_docx_is_never_truncated_by_markup_characters(hostile):
    _doc, _, docx_bytes = hostile
    text = docx_text(docx_bytes)
    assert "How this was computed" in text and "Dana Whitcomb" in text
    with zipfile.ZipFile(io.BytesIO(docx_bytes)) as archive:
        assert "&amp; Sons &lt;Ltd&gt;" in archive.read("word/document.xml").decode()


def test_nothing_is_fetched(hostile, caplog):
    from docgen.render.formats import to_bytes

    doc, _, _ = hostile
    sneaky = doc.html.replace(
        "</main>",
        '<img src="file:///etc/passwd"><img src="http://127.0.0.1:9/x.png">'
        '<img src="data:image/png;base64,iVBORw0KGgo="></main>',
    )
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        pdf = to_bytes(type(doc)(**{**doc.__dict__, "html": sneaky}), "pdf")
    refused = [r.getMessage() for r in caplog.records if "refused to fetch" in r.getMessage()]
    assert any("file:///etc/passwd" in m for m in refused)
    assert any("http://127.0.0.1" in m for m in refused)
    assert any("data:" in m for m in refused)
    assert pdf.startswith(b"%PDF")


def test_same_case_same_bytes_in_separate_processes(tmp_path):
    case = ROOT / "fixtures" / "penalty-statement" / "homer-second-offense-continued.yaml"
    runs = []
    for n in range(2):
        out = tmp_path / f"run{n}"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "docgen.cli",
                "render",
                "penalty-statement",
                str(case),
                "-o",
                f"{out}/",
            ],
            check=True,
            capture_output=True,
        )
        runs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert runs[0].keys() == {
        "PS-2026-0007-penalty-statement.pdf",
        "PS-2026-0007-penalty-statement.docx",
        "PS-2026-0007-penalty-statement.html",
    }
    assert runs[0] == runs[1]


def test_pdf_is_tagged_with_title_and_language(hostile):
    from pypdf import PdfReader

    _, pdf, _ = hostile
    reader = PdfReader(io.BytesIO(pdf))
    root = reader.trailer["/Root"]
    assert "/StructTreeRoot" in root and root["/Lang"] == "en-US"
    assert reader.metadata.title == "Statement of Penalties No. PS-9"
    assert reader.metadata["/CreationDate"].startswith("D:20261103")


def test_pdf_a_variant(tmp_path):
    case = ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml"
    result = api.render(
        "penalty-statement", case, ("pdf",), tmp_path / "a.pdf", Options(), pdf_variant="pdf/a-3b"
    )
    from pypdf import PdfReader

    xmp = PdfReader(result.files[0]).xmp_metadata
    assert xmp is not None and "pdfaid" in xmp.rdf_root.toxml()


def test_an_error_leaves_no_file(tmp_path):
    path = write_case(tmp_path, CASE.replace("committed: 2026-11-01", "committed: 2026-12-01"))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(Exception, match="is after the date November 3, 2026"):
        api.render("penalty-statement", path, ("pdf", "docx", "html"), out)
    assert list(out.iterdir()) == []


def test_output_names_are_sanitized(tmp_path):
    path = write_case(tmp_path, CASE.replace("number: PS-9", "number: '../../etc/PS 9\u202e'"))
    out = tmp_path / "out"
    out.mkdir()
    result = api.render("penalty-statement", path, ("html",), out)
    assert [p.parent for p in result.files] == [out]
    assert result.files[0].name == "etc-PS-9-penalty-statement.html"


def test_custom_templates_render_in_a_sandbox(tmp_path):
    folder = tmp_path / "tpl" / "base"
    folder.mkdir(parents=True)
    (folder / "macros.html.j2").write_text(
        "{% macro masthead(pack, officer_title=None) %}{{ pack.__class__.__mro__ }}{% endmacro %}"
        "{% macro cite(ref) %}{% endmacro %}{% macro address_block(p) %}{% endmacro %}"
        "{% macro signature(n, t, d=None) %}{% endmacro %}"
    )
    case = ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml"
    with pytest.raises(Exception, match=r"unsafe|sandbox|undefined"):
        api.build("penalty-statement", case, Options(templates=str(tmp_path / "tpl")))
