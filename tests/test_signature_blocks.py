"""A recorded instrument's signature blocks, its municipality's name under a signature and
each acknowledgment are kept together (LAW.md § 8): read back from the PDF and the DOCX of
every instrument fixture, none is split across pages."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import docx
import pytest

from docgen import api
from tests.helpers.readback import pdf_pages

ROOT = Path(__file__).resolve().parents[1]
INSTRUMENTS = sorted(
    path
    for kind in ("maintenance-easement", "maintenance-agreement")
    for path in (ROOT / "fixtures" / kind).glob("*.yaml")
)


@pytest.mark.parametrize("path", INSTRUMENTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_signature_block_or_acknowledgment_is_split_across_pages(path):
    _, files = api.render_bytes(path.parent.name, path, ("pdf", "docx"))
    municipality = "Village of Homer" if "homer" in path.stem else "Town of Macedon"
    for page in pdf_pages(files["pdf"]):
        lines = [" ".join(line.split()) for line in page.splitlines() if line.strip()]
        for i, line in enumerate(lines):
            if line.endswith("ss.:"):  # an acknowledgment's venue: its notary on this page
                assert any(n.startswith("Notary Public") for n in lines[i:]), lines[i : i + 3]
            if line == municipality and i + 1 < len(lines) and lines[i + 1].startswith("By:"):
                assert any(n.startswith("Title:") for n in lines[i:]), lines[i:]
        assert not (lines and lines[0].startswith(("By:", "Name:", "Title:", "Notary Public")))
    # In Word the same blocks keep with the next paragraph to their last line
    paragraphs = docx.Document(io.BytesIO(files["docx"])).paragraphs
    for p, after in itertools.pairwise(paragraphs):
        if p.text.startswith("By: ") or (p.text == municipality and after.text.startswith("By:")):
            assert p.paragraph_format.keep_with_next, p.text
