"""Counsel's edits (LAW.md § 8): `docgen compare` writes a redline of counsel's DOCX against
the generated draft, as Word tracked changes that LibreOffice opens; a final that is not a
DOCX, is encrypted or macro-enabled, or has lost the recording page set-up is refused with
the reason; the final becomes a PDF/A-2b through LibreOffice, read back with pypdf."""

from __future__ import annotations

import io
import re
import zipfile

import docx
import pytest
from conftest import ROOT
from docx.shared import Inches
from pypdf import PdfReader

from docgen import api
from docgen.instruments.final import FinalRefused, check_final, pdf_a
from tests.helpers.cli import docgen
from tests.helpers.office import office_pdfs
from tests.helpers.readback import pdf_text

FIX = ROOT / "fixtures"
CASES = {
    "homer": FIX / "maintenance-easement" / "homer-individual.yaml",
    "macedon": FIX / "maintenance-easement" / "macedon-llc-two-signers.yaml",
}


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def draft_of(juris: str) -> bytes:
    kind = CASES[juris].parent.name
    return api.to_bytes(api.build(kind, CASES[juris]), "docx")


def edit(draft: bytes) -> bytes:
    """Counsel's edits: a word added in the obstruction clause, a sentence deleted."""
    document = docx.Document(io.BytesIO(draft))
    for p in document.paragraphs:
        for run in p.runs:
            if "building, structure, fence" in run.text:
                run.text = run.text.replace("building, structure, fence", "building, shed, fence")
            if "If any provision of this" in run.text:
                run.text = ""
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def saved(document: docx.document.Document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.mark.parametrize("juris", ["homer", "macedon"])
def test_compare_writes_a_redline_of_tracked_changes_that_libreoffice_opens(juris, tmp_path):
    draft = draft_of(juris)
    (tmp_path / "draft.docx").write_bytes(draft)
    (tmp_path / "edited.docx").write_bytes(edit(draft))
    run = docgen(
        "compare",
        tmp_path / "draft.docx",
        tmp_path / "edited.docx",
        "-o",
        tmp_path / "redline.docx",
    )
    assert run.returncode == 0, run.stderr
    redline = (tmp_path / "redline.docx").read_bytes()
    body = zipfile.ZipFile(io.BytesIO(redline)).read("word/document.xml").decode("utf-8")
    inserted = re.findall(r"<w:ins [^>]*>.*?</w:ins>", body, re.S)
    deleted = re.findall(r"<w:del [^>]*>.*?</w:del>", body, re.S)
    assert any("shed" in change for change in inserted)
    assert any("If any provision" in change or "invalid" in change for change in deleted)
    assert 'w:author="Counsel"' in body
    docx.Document(io.BytesIO(redline))  # python-docx opens it
    (pdf,) = office_pdfs({"redline": redline}, tmp_path).values()
    assert "Grant of easement." in flat(pdf_text(pdf)) or "Approved plans." in flat(pdf_text(pdf))


def test_compare_refuses_a_file_that_is_not_a_docx(tmp_path):
    (tmp_path / "draft.docx").write_bytes(draft_of("homer"))
    (tmp_path / "notes.docx").write_text("not a word document", encoding="utf-8")
    run = docgen(
        "compare", tmp_path / "draft.docx", tmp_path / "notes.docx", "-o", tmp_path / "r.docx"
    )
    assert run.returncode == 1 and "notes.docx is not a DOCX file" in run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "r.docx").exists()


def test_a_final_that_cannot_be_recorded_is_refused_with_the_reason():
    draft = draft_of("homer")
    check_final(draft)  # the generated draft keeps the recording set-up
    check_final(edit(draft))  # and counsel's edits in Word keep it too
    with pytest.raises(FinalRefused, match="not a DOCX file"):
        check_final(b"%PDF-1.7 not a docx")
    with pytest.raises(FinalRefused, match="is encrypted"):
        check_final(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    macro = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(draft)) as src, zipfile.ZipFile(macro, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, src.read(item.filename))
        dst.writestr("word/vbaProject.bin", b"\0" * 64)
    with pytest.raises(FinalRefused, match="macro-enabled"):
        check_final(macro.getvalue())
    a4 = docx.Document(io.BytesIO(draft))
    a4.sections[0].page_width, a4.sections[0].page_height = Inches(8.27), Inches(11.69)
    with pytest.raises(FinalRefused, match="not letter size"):
        check_final(saved(a4))
    topless = docx.Document(io.BytesIO(draft))
    first = topless.paragraphs[0]
    first.style = topless.styles["Normal"]
    first.paragraph_format.space_before = Inches(0)
    with pytest.raises(FinalRefused, match="left blank for the County Clerk's recording stamp"):
        check_final(saved(topless))


@pytest.mark.parametrize("juris", ["homer", "macedon"])
@pytest.mark.usefixtures("soffice")
def test_the_final_becomes_a_pdf_a_2b_through_libreoffice(juris):
    final = edit(draft_of(juris))
    pdf = pdf_a(final)
    reader = PdfReader(io.BytesIO(pdf))
    metadata = reader.xmp_metadata
    assert metadata is not None
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r"pdfaid:part[^0-9]{0,5}2", xmp) and re.search(r"conformance[^A-Z]{0,5}B", xmp)
    text = flat(pdf_text(pdf))
    assert "building, shed, fence" in text or "shed" in text
    assert "If any provision of this" not in text
