"""`docgen issue maintenance-easement CASE --final EDITED.docx` (LAW.md § 8): the register keeps
the generated draft, counsel's final DOCX, the redline and a PDF/A-2b of the final, each with
its hash, and `verify` recognises every one; a final that cannot be recorded is refused with
the reason and nothing is numbered. On SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile

import docx
import pytest
from conftest import ROOT
from pypdf import PdfReader
from sqlalchemy import select

from docgen import api
from docgen.errors import DocgenError
from docgen.instruments.final import FinalRefused
from docgen.register import Issue
from docgen.register.storage.models import DocumentFile
from tests.helpers.cli import docgen

CASE = ROOT / "fixtures" / "maintenance-easement" / "homer-llc-two-signers.yaml"


def counsel_final() -> bytes:
    """Counsel's Word edit of the draft: a word added to the obstruction clause."""
    draft = api.to_bytes(api.build("maintenance-easement", CASE), "docx")
    document = docx.Document(io.BytesIO(draft))
    for p in document.paragraphs:
        for run in p.runs:
            run.text = run.text.replace("building, structure, fence", "building, shed, fence")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.mark.usefixtures("soffice")  # LibreOffice makes the PDF/A
def test_the_final_is_kept_with_the_draft_the_redline_and_a_pdf_a_and_verify_knows_each(
    reg, tmp_path
):
    final = counsel_final()
    (tmp_path / "final.docx").write_bytes(final)
    issued = reg.issue("maintenance-easement", CASE, Issue(final=final))
    assert {"pdf", "docx", "html", "final", "redline", "final-pdfa"} <= set(issued.hashes)
    assert issued.hashes["final"] == hashlib.sha256(final).hexdigest()
    with reg.engine.connect() as db:
        stored = dict(
            db.execute(
                select(DocumentFile.format, DocumentFile.content).where(
                    DocumentFile.document_id == issued.id
                )
            ).all()
        )
    assert stored["final"] == final and stored["docx"] == issued.files["docx"]  # the draft
    for fmt in ("docx", "final", "redline", "final-pdfa"):
        found = reg.verify(stored[fmt])
        assert found is not None and (found.number, found.format) == (issued.number, fmt)
        assert issued.hashes[fmt] == hashlib.sha256(stored[fmt]).hexdigest()
    body = zipfile.ZipFile(io.BytesIO(stored["redline"])).read("word/document.xml").decode()
    assert "<w:ins " in body and "shed" in body
    xmp = PdfReader(io.BytesIO(stored["final-pdfa"])).trailer["/Root"]["/Metadata"]
    assert b"pdfaid:part>2<" in xmp.get_object().get_data().replace(b" ", b"")
    run = docgen("verify", tmp_path / "final.docx")
    assert run.returncode == 0, run.stderr
    assert f"{issued.number}, maintenance-easement (final)" in run.stdout


def test_a_final_that_cannot_be_recorded_is_refused_and_nothing_is_numbered(reg):
    with pytest.raises(FinalRefused, match="not a DOCX file"):
        reg.issue("maintenance-easement", CASE, Issue(final=b"%PDF-1.7"))
    macro = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(counsel_final())) as src, zipfile.ZipFile(macro, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, src.read(item.filename))
        dst.writestr("word/vbaProject.bin", b"\0" * 64)
    with pytest.raises(FinalRefused, match="macro-enabled"):
        reg.issue("maintenance-easement", CASE, Issue(final=macro.getvalue()))
    with pytest.raises(DocgenError, match="--final is for the recorded instruments"):
        reg.issue(
            "contractor-certification",
            ROOT / "fixtures" / "contractor-certification" / "homer-three-contractors.yaml",
            Issue(final=counsel_final()),
        )
    assert reg.count() == 0


@pytest.mark.usefixtures("soffice")  # LibreOffice makes the PDF/A
def test_a_final_for_a_case_issued_without_one_is_a_correction_never_a_silent_repeat(reg):
    from docgen.register import RegisterError

    first = reg.issue("maintenance-easement", CASE, formats=("docx",))
    final = counsel_final()
    with pytest.raises(RegisterError, match=f"{first.number} was issued from this case without"):
        reg.issue("maintenance-easement", CASE, Issue(final=final))
    corrected = reg.supersede(first.number, CASE, Issue(final=final))
    assert corrected.number != first.number and corrected.supersedes == first.number
    assert corrected.hashes["final"] == hashlib.sha256(final).hexdigest()
    again = reg.supersede(first.number, CASE, Issue(final=final))  # the same correction, once
    assert again.number == corrected.number


GATED = (
    "tracked changes",
    "a linked picture",
    "a DOCTYPE",
    "no content types",
    "a zip bomb by size",
)


def test_issue_refuses_a_hostile_or_unfinished_final_and_numbers_nothing(reg, tmp_path):
    """`docgen issue ... --final` with each: exit 1, the reason, no traceback, no file
    written and nothing recorded."""
    from tests.helpers import hostile

    for what in GATED:
        make, expected = hostile.HOSTILE_FINALS[what]
        (tmp_path / "final.docx").write_bytes(make())
        run = docgen(
            "issue",
            "maintenance-easement",
            CASE,
            "--final",
            tmp_path / "final.docx",
            "-o",
            f"{tmp_path / 'out'}/",
        )
        assert run.returncode == 1, (what, run.stdout, run.stderr)
        assert expected in " ".join(run.stderr.split()) and "Traceback" not in run.stderr
        assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    assert reg.count() == 0


@pytest.mark.usefixtures("soffice")  # LibreOffice makes the PDF/A
def test_the_final_comes_out_the_pdf_a_to_record_first_and_export_gives_each(reg, tmp_path):
    """`issue --final -o DIR/` writes counsel's files, not the draft: the PDF/A to record
    (numbered, with its page numbering, without the access code), the final DOCX and the
    redline, which shows counsel's edit and nothing issuing adds; `export -f` gives each."""
    from tests.helpers.readback import pdf_text

    final = counsel_final()
    (tmp_path / "final.docx").write_bytes(final)
    out = tmp_path / "out"
    run = docgen(
        "issue", "maintenance-easement", CASE, "--final", tmp_path / "final.docx", "-o", f"{out}/"
    )
    assert run.returncode == 0, run.stderr
    number = run.stdout.split()[1]
    stem = f"{number}-maintenance-easement"
    written = sorted(p.name for p in out.iterdir())
    assert written == [f"{stem}-final.docx", f"{stem}-redline.docx", f"{stem}-to-record.pdf"]
    assert (out / f"{stem}-final.docx").read_bytes() == final
    to_record = " ".join(pdf_text((out / f"{stem}-to-record.pdf").read_bytes()).split())
    assert f"No. {number}" in to_record and "Page 1 of" in to_record
    assert "Access code" not in to_record and "building, shed, fence" in to_record
    body = zipfile.ZipFile(out / f"{stem}-redline.docx").read("word/document.xml").decode()
    deleted = " ".join(re.findall(r"<w:delText[^>]*>([^<]*)<", body))
    inserted = " ".join(re.findall(r"<w:ins [^>]*>.*?</w:ins>", body, re.S))
    assert "shed" in inserted
    assert "Access code" not in deleted and "not signed" not in deleted, deleted

    again = tmp_path / "again"
    for asked, names in {
        "record": [f"{stem}-to-record.pdf"],
        "final,redline": [f"{stem}-final.docx", f"{stem}-redline.docx"],
    }.items():
        run = docgen("export", number, "-f", asked, "-o", f"{again / asked}/")
        assert run.returncode == 0, run.stderr
        assert sorted(p.name for p in (again / asked).iterdir()) == names
    run = docgen("export", number, "-f", "all", "-o", f"{again / 'all'}/")
    assert sorted(p.name for p in (again / "all").iterdir()) == sorted(
        [*written, f"{stem}.docx", f"{stem}.html", f"{stem}.pdf"]
    )
    assert (again / "record" / f"{stem}-to-record.pdf").read_bytes() == (
        out / f"{stem}-to-record.pdf"
    ).read_bytes()
