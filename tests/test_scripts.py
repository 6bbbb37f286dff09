"""Every script prints: Latin with diacritics, Greek, Cyrillic and CJK get real glyphs in
the PDF, and a character no font of the document has gives a warning naming it."""

from __future__ import annotations

import io
import logging
import re
import subprocess
import sys

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.demo import sample_cases
from docgen.documents import KINDS
from docgen.fonts import face
from docgen.render.environment import templates_dir
from docgen.render.glyphs import coverage, describe, missing_glyphs, stylesheet_families
from tests.helpers.casewalk import leaves, set_in
from tests.helpers.readback import pdf_text

NAMES = [
    "Zoë Brontë-Çelik of Ærøskøbing, Łódź & Nguyễn",
    "Ελένη Παπαδοπούλου",
    "Юрий Алексеевич Гагарин",
    "王小明 株式会社東京建設",
]
NO_GLYPH = "\U0001d11e"  # MUSICAL SYMBOL G CLEF: in none of the fonts the set-up installs
LINEAR_B = "\U00010000"  # LINEAR B SYLLABLE B008 A
TEMPLATES = templates_dir()
FIRST_SAMPLE = {kind: path for kind, path in reversed(sample_cases())}


def embedded_fonts(pdf: bytes) -> set[str]:
    fonts = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return fonts


def with_names(kind: str, names: list[str]) -> dict:
    """The kind's first sample with every ``...name`` text field set to the names in turn."""
    data = read_case_file(FIRST_SAMPLE[kind])
    paths = [p for p, _, k in leaves(KINDS[kind].model, data) if k == "text" and p[-1] == "name"]
    assert paths, f"{kind}: no name field to write into"
    for index, path in enumerate(paths):
        data = set_in(data, path, names[index % len(names)])
    for index, name in enumerate(names[len(paths) :]):  # more scripts than name fields
        path = paths[index % len(paths)]
        data = set_in(data, path, f"{data_at(data, path)} {name}")
    return data


def data_at(data: dict, path: tuple) -> str:
    for part in path:
        data = data[part]
    return data


@pytest.mark.parametrize("kind", sorted(FIRST_SAMPLE))
def test_every_script_prints_with_real_glyphs(kind, caplog):
    data = with_names(kind, NAMES)
    doc = api.build(kind, data)
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        pdf = api.to_bytes(doc, "pdf")
    assert not [r for r in caplog.records if "no glyph" in r.getMessage()]
    fonts = embedded_fonts(pdf)
    assert any(f.startswith("Liberation") for f in fonts), fonts  # Latin, Greek, Cyrillic
    assert any(f.startswith("WenQuanYi") for f in fonts), fonts  # CJK
    text = " ".join(pdf_text(pdf).split())
    # Chinese and Japanese break between any two characters when a column is narrow: a
    # line break inside 株式会社 is not a missing glyph.
    text = re.sub(r"(?<=[\u3040-\u9fff]) (?=[\u3040-\u9fff])", "", text)
    for name in NAMES:
        for word in name.replace(",", " ").split():
            assert word in text, f"{kind}: {word!r} missing from the PDF text"


def test_a_character_without_a_glyph_is_named_in_a_warning(caplog):
    kind = "penalty-statement"
    doc = api.build(kind, with_names(kind, [f"Clef {NO_GLYPH} and Linear B {LINEAR_B}"]))
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        pdf = api.to_bytes(doc, "pdf")
    assert pdf.startswith(b"%PDF")  # a warning, not an error: the document still renders
    messages = [r.getMessage() for r in caplog.records if r.name == "docgen.pdf"]
    assert len(messages) == 1, messages
    assert "U+1D11E MUSICAL SYMBOL G CLEF" in messages[0]
    assert "U+10000 LINEAR B SYLLABLE B008 A" in messages[0]
    assert doc.number in messages[0]


def test_the_cli_prints_the_glyph_warning(tmp_path):
    data = read_case_file(FIRST_SAMPLE["penalty-statement"])
    path = tmp_path / "case.yaml"
    import yaml

    data = set_in(data, ("recipient", "name"), f"G clef {NO_GLYPH} Holdings")
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "docgen.cli",
            "render",
            "penalty-statement",
            str(path),
            "-f",
            "pdf",
            "-o",
            f"{tmp_path}/out/",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "warning:" in run.stderr and "U+1D11E MUSICAL SYMBOL G CLEF" in run.stderr
    assert "Traceback" not in run.stderr


def test_html_and_docx_do_not_check_glyphs(caplog):
    """Word and browsers substitute fonts themselves; only the PDF embeds ours."""
    kind = "penalty-statement"
    doc = api.build(kind, with_names(kind, [f"Clef {NO_GLYPH}"]))
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        api.to_bytes(doc, "html")
        api.to_bytes(doc, "docx")
    assert not caplog.records


def test_glyph_check_reads_the_stylesheet_fonts():
    css = (
        'p { font: 8.5pt "Liberation Sans", "DejaVu Sans", sans-serif; }\n'
        "html { font-family: 'Liberation Serif', Georgia, serif } /* font: 9pt Ignored */"
    )
    assert stylesheet_families(css) == (
        "Liberation Sans",
        "DejaVu Sans",
        "sans-serif",
        "Liberation Serif",
        "Georgia",
        "serif",
    )
    sheets = ("base/print.css",)
    everyday = "".join(NAMES) + "\u00a0\u00a7\u2013\u2014\u201c\u201d\u2019\u00b6"
    assert missing_glyphs(everyday, sheets) == []
    # bidi and zero-width format characters need no glyph; decomposable ones use their parts
    assert missing_glyphs("\u200f\u202e\u200b\u2060\ufeff", sheets) == []
    assert missing_glyphs(f"a{LINEAR_B}b{NO_GLYPH}{NO_GLYPH}", sheets) == [LINEAR_B, NO_GLYPH]
    assert describe(NO_GLYPH) == "U+1D11E MUSICAL SYMBOL G CLEF"


def test_the_faces_asked_in_process_are_fc_matchs_and_have_the_fonts_own_characters():
    """The check asks fontconfig in its own process. Each family of the stylesheets is the
    face ``fc-match`` names, and it has exactly the characters the face file's own map
    lists (read by fontTools) among the first 12,288 code points above ASCII and the
    map's own, with none of those the map lacks."""
    sheets = sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.css"))
    known = coverage(tuple(sheets))
    assert known is not None
    assert {"Liberation Serif", "WenQuanYi Micro Hei", "Noto Sans Arabic"} <= set(known.families)
    for family in known.families:
        file, index = subprocess.run(
            ["fc-match", "-f", "%{file}\n%{index}", f"{family}:style=Regular"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
        with TTFont(file, fontNumber=int(index), lazy=True) as font:
            own = {point for point in font.getBestCmap() if point > 127}
        found = face(family)
        assert found is not None and found.file == file, family
        asked = own | set(range(128, 0x3000)) | {ord(NO_GLYPH), ord(LINEAR_B)}
        assert {point for point in asked if found.has(point)} == own, family
