"""Violation packet: notice, penalty statement and stop-work order in one PDF and one DOCX,
each part on a new page with its own page numbering."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn

from docgen import api
from tests.helpers.enforcement_cases import PACKETS, case_data, cli, squash, write_yaml
from tests.helpers.readback import docx_text, pdf_pages

PACKET = PACKETS[0]
GOLDEN = Path(__file__).parent / "golden" / "packet"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("packet")
    result = api.render("packet", PACKET, out=f"{out}/")
    return {path.suffix[1:]: path.read_bytes() for path in result.files}, result.document


def runs(pages: list[str]) -> list[list[tuple[int, int]]]:
    """The pages' "Page X of Y" marks, split wherever the numbering restarts at 1."""
    marks = [tuple(map(int, re.search(r"Page (\d+) of (\d+)", p).groups())) for p in pages]
    out: list[list[tuple[int, int]]] = []
    for mark in marks:
        if mark[0] == 1:
            out.append([])
        out[-1].append(mark)
    return out


def test_pdf_numbers_each_document_from_page_1(rendered):
    files, _ = rendered
    pages = pdf_pages(files["pdf"])
    parts = runs(pages)
    assert len(parts) == 3
    for part in parts:
        total = len(part)
        assert part == [(n, total) for n in range(1, total + 1)]
    heads = ["Notice of Violation No.", "Statement of Penalties No.", "Stop-Work Order No."]
    starts = [0, len(parts[0]), len(parts[0]) + len(parts[1])]
    for head, start, part in zip(heads, starts, parts, strict=True):
        for page in pages[start : start + len(part)]:
            assert head in " ".join(page.split())


def test_docx_has_one_section_per_document_with_restarting_numbers(rendered):
    files, _ = rendered
    document = docx.Document(io.BytesIO(files["docx"]))
    assert len(document.sections) == 3
    for section in document.sections:
        assert section._sectPr.find(qn("w:pgNumType")).get(qn("w:start")) == "1"
    heads = [" ".join(p.text for p in s.header.paragraphs) for s in document.sections]
    assert "Notice of Violation No. NOV-2026-0021" in heads[0]
    assert "Statement of Penalties No. NOV-2026-0021-PS" in heads[1]
    assert "Stop-Work Order No. NOV-2026-0021-SWO" in heads[2]
    footer = document.sections[0].footer._element.xml
    assert "SECTIONPAGES" in footer


def test_every_part_is_in_every_format(rendered):
    files, _ = rendered
    for text in (
        squash(" ".join(pdf_pages(files["pdf"]))),
        squash(docx_text(files["docx"])),
        squash(files["html"].decode()),
    ):
        for words in ("Notice of Violation", "Statement of Penalties", "Stop-Work Order"):
            assert squash(words) in text
        assert squash("Last day to file a written notice of appeal") in text
        assert squash("Certificate of Service") in text
    assert files["html"].decode().count('<section class="document"') == 3


def test_packet_wording_matches_golden(rendered):
    from test_golden import golden_text

    _, document = rendered
    text = golden_text(document.standalone())
    target = GOLDEN / f"{PACKET.stem}.txt"
    if os.environ.get("DOCGEN_UPDATE_GOLDEN"):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    assert text == target.read_text(encoding="utf-8")


def test_without_effective_there_is_no_stop_work_order(tmp_path):
    data = {k: v for k, v in case_data(PACKET).items() if k not in ("effective", "contact")}
    document = api.build("packet", data)
    assert document.html.count('<section class="document"') == 2
    assert "Stop-Work Order No." not in document.html


def test_stop_work_keys_without_effective_are_an_error(tmp_path):
    data = {k: v for k, v in case_data(PACKET).items() if k != "effective"}
    code, out = cli("check", "packet", write_yaml(tmp_path, data))
    assert code == 1 and "Effective: is required" in out and "§ 228-79C(2)" in out


@pytest.mark.parametrize(
    ("change", "expected"),
    [({"remedies": []}, "missing (d)"), ({"stray": 1}, "Stray: is not a key")],
)
def test_packet_checks_the_notice_and_writes_nothing(tmp_path, change, expected):
    data = case_data(PACKET) | change
    out_dir = tmp_path / "out"
    code, out = cli("render", "packet", write_yaml(tmp_path, data), "-o", f"{out_dir}/")
    assert code == 1 and expected in out
    assert not out_dir.exists() or list(out_dir.iterdir()) == []


def test_cli_renders_the_packet(tmp_path):
    code, out = cli("render", "packet", PACKET, "-f", "pdf", "-o", f"{tmp_path}/")
    assert code == 0, out
    assert (tmp_path / "NOV-2026-0021-packet.pdf").exists()
