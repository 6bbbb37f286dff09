"""A copy for each person served (LAW.md § 9): `docgen render KIND CASE --copies` writes the
original, addressed in the window to the landowner, and a copy for each person in
copies_to, addressed to that person and saying "Copy for ..." (PDF, and the DOCX as
LibreOffice lays it out)."""

from __future__ import annotations

from conftest import ROOT

from tests.helpers.cli import docgen
from tests.helpers.envelope import window_block
from tests.helpers.office import office_pdfs
from tests.helpers.readback import docx_text, pdf_text

CASE = ROOT / "fixtures/notice-of-violation/homer-second-offense-continued.yaml"
STEM = "NOV-2026-0007-notice-of-violation"
LANDOWNER = "CERTIFIED MAIL 9589 0710 5270 0123 4567 81 Cayuga Street Holdings LLC"
DEVELOPER = "CERTIFIED MAIL 9589 0710 5270 0123 4568 59 Tioughnioga Ridge Development LLC"
COPY_FOR = "Copy for Tioughnioga Ridge Development LLC (developer)."


def test_copies_write_one_file_per_person_each_addressed_to_them(tmp_path):
    run = docgen("render", "notice-of-violation", CASE, "--copies", "-o", f"{tmp_path}/out/")
    assert run.returncode == 0, run.stderr
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{stem}.{fmt}" for stem in (STEM, f"{STEM}-copy-1") for fmt in ("pdf", "docx", "html")
    )
    original, copy = (out / f"{STEM}.pdf").read_bytes(), (out / f"{STEM}-copy-1.pdf").read_bytes()
    assert " ".join(window_block(original).words).startswith(LANDOWNER)
    assert " ".join(window_block(copy).words).startswith(DEVELOPER)
    flat = " ".join(pdf_text(copy).split())
    assert COPY_FOR in flat and "This notice is issued to the landowner" in flat
    assert "Copy for" not in " ".join(pdf_text(original).split())
    assert "Issued to the landowner." in " ".join(pdf_text(original).split())
    word = (out / f"{STEM}-copy-1.docx").read_bytes()
    assert COPY_FOR in " ".join(docx_text(word).split())
    laid_out = office_pdfs({"copy": word}, tmp_path)["copy"]
    assert " ".join(window_block(laid_out).words).startswith(DEVELOPER)


def test_copies_are_refused_where_a_kind_has_none_or_for_one_file(tmp_path):
    cert = ROOT / "fixtures/contractor-certification/homer-three-contractors.yaml"
    run = docgen("render", "contractor-certification", cert, "--copies", "-o", f"{tmp_path}/o/")
    assert run.returncode == 2 and "has no copies" in run.stderr
    run = docgen("render", "notice-of-violation", CASE, "--copies", "-o", tmp_path / "x.pdf")
    assert run.returncode == 2 and "into a directory" in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_landowner_whose_name_ends_in_a_period_gets_one_period(tmp_path):
    # "This notice is issued to the landowner, Cayuga Street Holdings, Inc." on the copy's
    # header: the name's own period ends the sentence (issue 47: "Inc.." was printed).
    import yaml

    data = yaml.safe_load(CASE.read_text(encoding="utf-8"))
    data["recipient"]["name"] = "Cayuga Street Holdings, Inc."
    case = tmp_path / "inc.yaml"
    case.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    run = docgen(
        "render", "notice-of-violation", case, "--copies", "-f", "pdf", "-o", f"{tmp_path}/o/"
    )
    assert run.returncode == 0, run.stderr
    flat = " ".join(pdf_text((tmp_path / "o" / f"{STEM}-copy-1.pdf").read_bytes()).split())
    assert "issued to the landowner, Cayuga Street Holdings, Inc. " in flat
    assert "Inc.." not in flat
