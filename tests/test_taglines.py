"""The language-access block (LAW.md § 13): every delivered document carries one line per
language the municipality's settings choose, read back from the PDF, the DOCX and the HTML
with its language tag; it never adds a page to a sample, and on an issued document it moves
nothing else."""

from __future__ import annotations

import io
import os
import re
import subprocess

import docx
import pdfplumber
import pikepdf
import pytest
import yaml
from conftest import ROOT, SAMPLES
from docx.oxml.ns import qn
from lxml import html as lxml_html

from docgen import api, fonts
from docgen.documents import get_kind
from docgen.documents.kind import Options
from docgen.errors import DocgenError
from docgen.law.packs import load_pack
from docgen.law.taglines import catalog, default_languages, taglines
from docgen.register import Issue, Register
from docgen.render.filters import phone
from tests.helpers.cli import docgen, python_process
from tests.helpers.office import office_pdfs
from tests.helpers.readback import pdf_pages

PHONE = phone(load_pack("homer").offices.phone.value)
PACKET = ROOT / "fixtures/packet/homer-silt-fence-packet.yaml"
DELIVERED = [(kind, path) for kind, path in SAMPLES if get_kind(kind).delivered]
DELIVERED.append(("packet", PACKET))
OTHERS = [(kind, path) for kind, path in SAMPLES if not get_kind(kind).delivered]
NOTICE = next(path for kind, path in SAMPLES if kind == "notice-of-violation")


def expected(code: str) -> str:
    line = catalog()[code]
    return f"{line.before}{PHONE}{line.after}"


def squash(text: str) -> str:
    """Text without white space or bidi marks: what survives any extraction's spacing."""
    return re.sub(r"[\s\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", text)


def html_lines(html: str) -> list[tuple[str, str, str]]:
    tree = lxml_html.document_fromstring(html)
    return [
        (p.get("lang"), p.get("dir"), p.text_content())
        for p in tree.xpath("//section[contains(@class, 'taglines')]/p")
    ]


def pdf_langs(data: bytes) -> list[str]:
    """Each structure element's /Lang, in tree order."""
    found: list[str] = []

    def walk(element):
        if isinstance(element, pikepdf.Dictionary):
            if "/Lang" in element:
                found.append(str(element.Lang))
            kids = element.get("/K")
            if kids is not None:
                for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                    walk(kid)

    with pikepdf.open(io.BytesIO(data)) as pdf:
        walk(pdf.Root.StructTreeRoot)
    return found


def pdf_fonts(data: bytes) -> set[str]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return {
            str(font.get("/BaseFont"))
            for page in pdf.pages
            for font in page.Resources.get("/Font", {}).values()
        }


def docx_lines(data: bytes) -> list[tuple[str, str]]:
    """(language, text) of each paragraph whose runs carry a w:lang."""
    out = []
    for para in docx.Document(io.BytesIO(data)).paragraphs:
        marks = para._p.findall(".//" + qn("w:lang"))
        if marks:
            values = {v for m in marks for v in m.attrib.values()}
            assert len(values) == 1, para.text
            out.append((values.pop(), para.text))
    return out


@pytest.mark.parametrize(("kind", "path"), DELIVERED, ids=[f"{k}/{p.stem}" for k, p in DELIVERED])
def test_every_tagline_reads_back_in_html_pdf_and_docx(renders, kind, path):
    rendered = renders.get(kind, path)
    codes = default_languages()
    tags = [catalog()[code].tag for code in codes]
    # HTML: one paragraph per language, its lang and direction, its words and the phone.
    lines = html_lines(rendered["html"])
    assert [(lang, text) for lang, _, text in lines] == [
        (t, expected(c)) for t, c in zip(tags, codes, strict=True)
    ]
    assert [d for _, d, _ in lines] == [catalog()[c].direction for c in codes]
    # PDF: each line's structure element says its language; the text is there.
    assert pdf_langs(rendered["pdf"]) == tags
    text = squash(pdf_text_all(rendered["pdf"]))
    for code in codes:
        if catalog()[code].direction == "ltr" and catalog()[code].script != "complex":
            assert squash(expected(code)) in text, code
    # Embedded and subset (a six-letter tag before each name): Noto for Bengali and Arabic
    # script, WenQuanYi for Chinese and Korean (DejaVu Sans has the Hebrew of Yiddish).
    fonts = pdf_fonts(rendered["pdf"])
    assert all(re.fullmatch(r"/[A-Z]{6}\+.+", font) for font in fonts), fonts
    for family in ("Noto-Sans-Bengali", "Noto-Sans-Arabic", "WenQuanYi-Micro-Hei"):
        assert any(font.endswith(family) for font in fonts), family
    # DOCX: each line's runs carry its w:lang (in the slot Word reads for its script).
    assert docx_lines(rendered["docx"]) == [
        (t, expected(c)) for t, c in zip(tags, codes, strict=True)
    ]


def pdf_text_all(data: bytes) -> str:
    run = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True)
    return run.stdout.decode("utf-8")


def test_the_complex_scripts_are_in_the_pdf_as_their_letters(renders):
    """Arabic, Urdu, Yiddish and Bengali lines: every letter of each is in the PDF's text
    (their shaping reorders and joins glyphs, so the test compares letters, not order)."""
    text = pdf_text_all(renders.get("notice-of-violation", NOTICE)["pdf"])
    for code in ("ar", "ur", "yi"):
        letters = {ch for ch in expected(code) if ch.isalpha()}
        assert letters <= set(text), (code, letters - set(text))
    bengali = {ch for ch in expected("bn") if "\u0980" <= ch <= "\u09ff" and ch.isalpha()}
    assert len(bengali & set(text)) >= len(bengali) - 2


def test_the_docx_names_a_word_font_and_marks_right_to_left(renders):
    data = renders.get("notice-of-violation", NOTICE)["docx"]
    document = docx.Document(io.BytesIO(data))
    by_lang = {}
    for para in document.paragraphs:
        mark = para._p.find(".//" + qn("w:lang"))
        if mark is not None:
            by_lang[next(iter(mark.attrib.values()))] = para
    arabic = by_lang["ar"]
    assert arabic._p.pPr.find(qn("w:bidi")) is not None
    run = arabic.runs[0]._r
    assert run.rPr.find(qn("w:rtl")) is not None
    assert run.rPr.find(qn("w:lang")).get(qn("w:bidi")) == "ar"
    assert run.rPr.find(qn("w:rFonts")).get(qn("w:cs")) == "Arial"
    chinese = by_lang["zh-Hant"].runs[0]._r.rPr
    assert chinese.find(qn("w:lang")).get(qn("w:eastAsia")) == "zh-Hant"
    assert chinese.find(qn("w:rFonts")).get(qn("w:eastAsia")) == "Microsoft JhengHei"


@pytest.mark.parametrize(("kind", "path"), OTHERS, ids=[f"{k}/{p.stem}" for k, p in OTHERS])
def test_a_document_not_delivered_to_a_person_has_no_block(renders, kind, path):
    assert html_lines(renders.get(kind, path)["html"]) == []


ORDER = next(path for kind, path in SAMPLES if kind == "stop-work-order")


@pytest.mark.parametrize("code", [None, "es", "ru"])
def test_the_posted_placard_carries_the_block_at_14_pt_with_its_last_lines(code):
    """Issue 53: the placard posted at the site carries the language-access block too, at
    the placard's 14 pt (LAW.md § 3: every line), kept with its last lines (never alone on
    its sheet), in the HTML, the PDF and the DOCX; the English original and each copy."""
    placard = api.build("stop-work-order", ORDER, Options(layout="placard", language=code))
    codes = default_languages()
    assert [text for _, _, text in html_lines(placard.html)] == [expected(c) for c in codes]
    pdf = api.to_bytes(placard, "pdf")
    first = squash(expected("es"))
    pages = [squash(text) for text in pdf_pages(pdf)]
    (on,) = [text for text in pages if first in text]
    assert len(on[: on.index(first)]) > 20  # the placard's own last words before it
    with pdfplumber.open(io.BytesIO(pdf)) as read:
        sizes = [c["size"] for page in read.pages for c in page.chars]
    assert min(sizes) >= 13.95
    tagged = [
        p
        for p in docx.Document(io.BytesIO(api.to_bytes(placard, "docx"))).paragraphs
        if p._p.find(".//" + qn("w:lang")) is not None and p.style.name == "Placard Tagline"
    ]
    assert [p.text for p in tagged] == [expected(c) for c in codes]
    assert tagged[0].style.font.size.pt == 14


def test_the_packet_has_the_block_once():
    assert len(html_lines(api.build("packet", PACKET).html)) == len(default_languages())


@pytest.fixture
def chosen(tmp_path, monkeypatch):
    """Write homer's settings with ``language_access`` (returns the writer)."""
    folder = tmp_path / "settings"
    folder.mkdir()
    monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))

    def write(text: str):
        (folder / "homer.yaml").write_text(text, encoding="utf-8")

    return write


def test_the_settings_choose_the_languages_and_their_order(chosen):
    chosen("language_access:\n  taglines: [ko, es]\n")
    lines = html_lines(api.build("notice-of-violation", NOTICE).html)
    assert [lang for lang, _, _ in lines] == ["ko", "es-US"]


def test_an_unknown_language_is_an_error_naming_the_setting(chosen, tmp_path):
    chosen("language_access:\n  taglines: [es, tlh]\n")
    said = r"language_access\.taglines: no reviewed tagline wording for tlh"
    with pytest.raises(DocgenError, match=said):
        api.build("notice-of-violation", NOTICE)
    run = docgen("render", "notice-of-violation", NOTICE, "-o", tmp_path / "out/")
    assert run.returncode == 1 and "language_access.taglines" in run.stderr
    assert "tlh" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_language_no_installed_font_covers_is_an_error_naming_the_setting(tmp_path):
    """A machine whose fontconfig has no font folder at all (a fresh process, as fontconfig
    reads its configuration once per process): no chosen script is covered."""
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?><fontconfig><cachedir>' + str(tmp_path) + "</cachedir></fontconfig>"
    )
    asked = python_process(
        "from docgen.law.taglines import TaglineFontMissing, taglines\n"
        "try:\n    taglines(('bn',))\nexcept TaglineFontMissing as err:\n    print(err)",
        env=os.environ | {"FONTCONFIG_FILE": str(config)},
    )
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.startswith(
        "language_access.taglines: no installed font covers bn (Bengali); install the fonts"
    )
    assert taglines(("bn",))[0].tag == "bn"  # here, with the fonts the set-up installs


def test_a_language_is_covered_as_fc_list_says():
    """docgen asks fontconfig in its own process; ``fc-list :lang=LANG`` answers the same
    for each tagline's script and for a language no font has."""
    langs = [*sorted({line.fontconfig for line in catalog().values()}), "tlh"]
    assert len(langs) > 12
    for lang in langs:
        listed = subprocess.run(
            ["fc-list", f":lang={lang}", "family"], capture_output=True, text=True, check=True
        )
        assert fonts.covers(lang) == bool(listed.stdout.strip()), lang
    assert not fonts.covers("tlh")


def test_the_default_is_executive_law_202_a_twelve():
    assert sorted(default_languages()) == sorted(
        ["ar", "bn", "zh", "fr", "ht", "it", "ko", "pl", "ru", "es", "ur", "yi"]
    )
    assert set(default_languages()) <= set(catalog())


@pytest.fixture(scope="module")
def without_block(tmp_path_factory):
    """Every delivered sample rendered with no tagline languages (the block left out)."""
    folder = tmp_path_factory.mktemp("no-taglines")
    (folder / "homer.yaml").write_text("language_access:\n  taglines: []\n", encoding="utf-8")
    saved = os.environ["DOCGEN_SETTINGS"]
    os.environ["DOCGEN_SETTINGS"] = str(folder)
    try:
        docs = {f"{k}/{p.stem}": api.build(k, p) for k, p in DELIVERED}
        assert all(html_lines(d.html) == [] for d in docs.values())
        return {
            sid: {fmt: api.to_bytes(d, fmt) for fmt in ("pdf", "docx")} for sid, d in docs.items()
        }
    finally:
        os.environ["DOCGEN_SETTINGS"] = saved


def page_count(pdf: bytes) -> int:
    with pikepdf.open(io.BytesIO(pdf)) as document:
        return len(document.pages)


# Samples the block pushes onto another page, by name: at 8 pt, the size it is read at, and
# kept with the document's last text (LAW.md § 13), it takes a page more on these (with 6 pt
# type and a page of its own allowed, none grew). A sample that no longer grows, or one
# more that does, fails until the list says so.
KNOWN_GROWTH: set[str] = {
    "notice-of-deficiency/homer-silt-fence-washout",
    "occupancy-release/homer-released",
    "stop-work-lifted/homer-lifted",
    "stop-work-order/homer-silt-fence",
}
# The same in Word, through LibreOffice (its lines fall otherwise).
KNOWN_GROWTH_WORD: set[str] = {
    "notice-of-deficiency/homer-silt-fence-washout",
    "notice-of-violation/homer-deadline-thanksgiving",
    "occupancy-release/homer-released",
    "stop-work-lifted/homer-lifted",
}


def test_the_block_adds_no_page_to_any_delivered_sample_in_pdf(renders, without_block):
    counts = {
        f"{k}/{p.stem}": (
            page_count(without_block[f"{k}/{p.stem}"]["pdf"]),
            page_count(renders.get(k, p)["pdf"]),
        )
        for k, p in DELIVERED
    }
    assert {sid for sid, c in counts.items() if c[0] != c[1]} == KNOWN_GROWTH


def test_the_block_goes_with_more_than_a_line_of_the_documents_text(renders):
    """Issue 53: kept with the document's last text, the block never stands on a page with a
    stray line: where it takes the last lines to the next page, the signature goes whole
    (the lifting notice's and the release's; before, "Village of Homer" went alone)."""
    first = squash(expected("es"))
    for k, p in DELIVERED:
        pages = pdf_pages(renders.get(k, p)["pdf"])
        (on,) = [text for text in pages if first in squash(text)]
        before = on[: on.index("AVISO LEGAL IMPORTANTE")].split()
        assert len(before) >= 10, (k, p.stem, before)


@pytest.fixture(scope="module")
def word_pdfs(renders, without_block, tmp_path_factory):
    """Every delivered sample's DOCX, with the block and without, through LibreOffice (the
    DOCX as Word users see it): "kind-stem-with" / "-without" -> PDF."""
    docs = {}
    for k, p in DELIVERED:
        sid = f"{k}-{p.stem}"
        docs[f"{sid}-with"] = renders.get(k, p)["docx"]
        docs[f"{sid}-without"] = without_block[f"{k}/{p.stem}"]["docx"]
    return office_pdfs(docs, tmp_path_factory.mktemp("word"))


def test_in_word_the_block_is_kept_with_the_documents_last_text(renders, word_pdfs):
    """Issue 53: in Word the block never begins a page: the paragraph before it keeps with
    it (keep with next), as break-before: avoid does in the PDF."""
    first = squash(expected("es"))
    for k, p in DELIVERED:
        body = docx.Document(io.BytesIO(renders.get(k, p)["docx"])).element.body
        paragraphs = list(body.iter(qn("w:p")))
        at = next(i for i, q in enumerate(paragraphs) if q.find(".//" + qn("w:lang")) is not None)
        assert paragraphs[at - 1].find(f"{qn('w:pPr')}/{qn('w:keepNext')}") is not None, k
        pages = [squash(text) for text in pdf_pages(word_pdfs[f"{k}-{p.stem}-with"])]
        (on,) = [text for text in pages if first in text]
        before = re.sub(r"Page\d+of\d+", "", on[: on.index(first)])
        assert len(before) > 20, (k, p.stem, before)


def test_the_block_adds_no_page_to_any_delivered_sample_in_word(word_pdfs):
    """Through LibreOffice, the DOCX as Word users see it."""
    grown = {
        name: (page_count(word_pdfs[f"{name}-without"]), page_count(word_pdfs[f"{name}-with"]))
        for name in (f"{k}-{p.stem}" for k, p in DELIVERED)
    }
    known = {sid.replace("/", "-") for sid in KNOWN_GROWTH_WORD}
    assert {n for n, c in grown.items() if c[0] != c[1]} == known


def test_the_docx_sets_complex_scripts_at_the_blocks_size(renders):
    """Word and LibreOffice size Arabic, Hebrew and Bengali text by w:szCs: the frame's
    Tagline style gives it the block's 8 pt (without it they printed at 11 pt on 10 pt
    lines, over their neighbours)."""
    document = docx.Document(io.BytesIO(renders.get("notice-of-violation", NOTICE)["docx"]))
    rpr = document.styles["Tagline"].element.rPr
    assert rpr.find(qn("w:sz")).get(qn("w:val")) == "16"
    assert rpr.find(qn("w:szCs")).get(qn("w:val")) == "16"


def test_the_deficiency_table_takes_the_templates_column_widths_in_word(renders):
    """The notice of deficiency's table gives the deficiency the widest column (its cols'
    widths), in Word as in the PDF: with the block, the notice stays on two pages."""
    deficiency = next(path for kind, path in SAMPLES if kind == "notice-of-deficiency")
    data = renders.get("notice-of-deficiency", deficiency)["docx"]
    table = next(
        t for t in docx.Document(io.BytesIO(data)).tables if t.cell(0, 1).text == "Deficiency"
    )
    widths = [int(col.get(qn("w:w"))) for col in table._tbl.tblGrid.gridCol_lst]
    assert [round(100 * w / sum(widths)) for w in widths] == [6, 41, 15, 14, 24]


SERVED = [(kind, path) for kind, path in SAMPLES if get_kind(kind).served]


def issued_pdfs(tmp_path, settings: str | None) -> dict[str, bytes]:
    """Each served sample issued into a register of its own (so it carries the verification
    line and code, which a sample has not), as PDF: sample id -> bytes. Priors a sample
    lists are dropped: under issue the register is the history."""
    saved = os.environ.get("DOCGEN_SETTINGS")
    if settings is not None:
        (tmp_path / "homer.yaml").write_text(settings, encoding="utf-8")
        os.environ["DOCGEN_SETTINGS"] = str(tmp_path)
    try:
        out = {}
        with Register.open(f"sqlite:///{tmp_path / 'register.db'}") as register:
            for kind, path in SERVED:
                if get_kind(kind).made_by_register:
                    continue  # made only by its register step, from the order it rests on
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
                data.pop("prior_offenses", None)
                issued = register.issue(
                    kind, data, Issue(respondent="new", number_gap="samples"), formats=("pdf",)
                )
                out[f"{kind}/{path.stem}"] = issued.files["pdf"]
        return out
    finally:
        if saved is None:
            os.environ.pop("DOCGEN_SETTINGS", None)
        else:
            os.environ["DOCGEN_SETTINGS"] = saved


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text without its page number (the count changes with the pages) or its
    access code (drawn afresh for each issue)."""
    return [re.sub(r"Page \d+ of \d+|Access code: \S+", "#", text) for text in pdf_pages(pdf)]


@pytest.fixture(scope="module")
def issued(tmp_path_factory):
    """The served samples issued with the block and without it: (with, without)."""
    with_block = issued_pdfs(tmp_path_factory.mktemp("with"), None)
    without = issued_pdfs(tmp_path_factory.mktemp("without"), "language_access:\n  taglines: []\n")
    typed = {f"{k}/{p.stem}" for k, p in SERVED if not get_kind(k).made_by_register}
    assert set(with_block) == typed and len(typed) >= 6
    return with_block, without


def test_on_an_issued_document_the_block_is_never_alone_on_a_page(issued):
    """An issued document adds the verification line and code, which can leave the last page
    no room for the block (the notice of deficiency, an order served on two persons, a
    notice with a long history). The block is read with the document (LAW.md § 13): it is
    kept with the document's last text, so the page it is on begins with the document's
    own words, never with the block; at most one page is added, and every page before the
    last two is exactly as it is without the block."""
    with_block, without = issued
    for sid, pdf in with_block.items():
        pages, bare = page_texts(pdf), page_texts(without[sid])
        first = squash(expected("es"))
        on = [i for i, text in enumerate(pages) if first in squash(text)]
        assert on == [len(pages) - 1], (sid, on)
        # PDFium reads a page's body first, its margins (the running head) after it.
        assert squash(pages[-1]).index(first) > 0, sid
        assert len(bare) <= len(pages) <= len(bare) + 1, sid
        assert pages[:-2] == bare[: max(len(pages) - 2, 0)], sid


def test_an_issued_documents_verification_never_stands_alone_on_a_page(issued):
    """The verification line and its code close the document's own text on their page
    (issue 29: never alone on a page): the signature or the certificate above them, with or
    without the block after them."""
    for sid, pdf in issued[0].items():
        pages = page_texts(pdf)
        (page,) = [text for text in pages if "is genuine and current" in text]
        body = page.partition("\n")[2]  # after the running head: the page's own text
        before = body[: body.index("This document is not signed")]
        assert len(before.split()) > 20, (sid, before)
