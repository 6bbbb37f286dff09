"""Spanish courtesy renditions (LAW.md § 13): amounts in Spanish words and dates in Spanish
order, checked against num2words and Babel; the notice's Spanish rendition has every block
of the English one, says that the English document controls and that a translation extends
no deadline, and prints no English sentence but the quoted law and the names it keeps."""

from __future__ import annotations

import difflib
import re
from datetime import date
from decimal import Decimal

import pytest
import yaml
from babel.dates import format_date
from conftest import SAMPLES
from lxml import html as lxml_html
from num2words import num2words

from docgen import api
from docgen.documents import get_kind
from docgen.documents.base import Options
from docgen.render.filters import es_amount_words, es_long_date, es_money_words
from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_text

NOTICES = [path for kind, path in SAMPLES if kind == "notice-of-violation"]
# Every sample of a kind with a Spanish rendition.
RENDERED = [(k, p) for k, p in SAMPLES if "es" in get_kind(k).renditions]
RENDERED_IDS = [f"{k}/{p.stem}" for k, p in RENDERED]
SPANISH = Options(language="es")


@pytest.mark.parametrize(
    "value", ["1", "2", "15", "21", "31", "100", "101", "250", "350", "1000", "1050", "2500"]
)
def test_whole_dollars_are_num2words_spanish_currency(value):
    said = num2words(Decimal(value), lang="es", to="currency", currency="USD")
    assert es_amount_words(value) == said.removesuffix(" con cero centavos")


@pytest.mark.parametrize("value", ["0.01", "1.01", "21.21", "350.50", "1050.25", "999.99"])
def test_cents_are_num2words_spanish_currency(value):
    said = num2words(Decimal(value), lang="es", to="currency", currency="USD")
    assert es_amount_words(Decimal(value)) == said


def test_exact_from_decimal_and_millions_take_de():
    assert es_amount_words(Decimal("0.1")) == "cero dólares con diez centavos"
    assert es_amount_words("1000000") == "un millón de dólares"
    assert es_amount_words("2000000.01") == "dos millones de dólares con un centavo"
    assert es_money_words("1050.25") == "mil cincuenta dólares con veinticinco centavos ($1,050.25)"


@pytest.mark.parametrize(
    "day", [date(2026, 1, 1), date(2026, 11, 3), date(2026, 12, 31), date(2027, 2, 28)]
)
def test_dates_are_babel_spanish_long_dates(day):
    assert es_long_date(day) == format_date(day, format="long", locale="es_US")
    assert es_long_date(day).startswith(f"{day.day} de ")


def visible_blocks(html: str) -> list[str]:
    """The document's blocks, in order: its heading, its sections (lettered or numbered:
    (a) to (f), 1. to 6.; or by their place), its tables with their rows, its lists with
    their items and its boxed sections (the certificate of service, the language-access
    block); not the courtesy statement, which the Spanish rendition alone has."""
    tree = lxml_html.document_fromstring(html)
    marks = []
    for el in tree.iter("h1", "h2", "table", "ol", "ul", "section"):
        if el.tag == "table":
            marks.append(f"table.{el.get('class')}:{len(el.findall('.//tr'))}")
        elif el.tag in ("ol", "ul"):
            marks.append(f"{el.tag}:{len(el.findall('li'))}")
        elif el.tag == "section" and "courtesy" not in el.get("class", ""):
            marks.append(f"section.{el.get('class')}")
        elif found := re.match(r"\(([a-f])\)|(\d)\.", el.text_content().strip()):
            marks.append(found[1] or found[2])
        elif el.tag != "section":
            marks.append(el.tag)
    return marks


# Blocks of the English document the Spanish rendition still lacks, found by the block
# comparison when it came to count every section, list and box (the first renditions were
# compared on their lettered sections and tables alone): a shrinking list, so that any
# other difference fails. (English block, Spanish block or None where it has none.)
KNOWN_GAPS = {
    "notice-of-violation": [
        # How to appeal, Other consequences and the Certificate of Service.
        ("section.appeal-procedure keep-together", None),
        ("ul:5", None),
        ("h2", None),
        ("ul:5", None),
        ("h2", None),
        ("section.certificate", None),
    ],
    # "4. Other measures" names them in a sentence, not as the list; "5." has four steps
    # of the English six.
    "penalty-statement": [("ul:5", None), ("ol:6", "ol:4")],
}


def differences(english: list[str], spanish: list[str]) -> list[tuple[str | None, str | None]]:
    """Each block of ``english`` that ``spanish`` lacks or has otherwise, in order."""
    found: list[tuple[str | None, str | None]] = []
    matcher = difflib.SequenceMatcher(a=english, b=spanish, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            left, right = english[i1:i2], spanish[j1:j2]
            size = max(len(left), len(right))
            left += [None] * (size - len(left))
            right += [None] * (size - len(right))
            found += list(zip(left, right, strict=True))
    return found


ENGLISH = re.compile(r"\b(the|and|of|shall|must|within|this|notice|may|days?|by|is)\b", re.I)


def spanish_sentences(html: str) -> list[str]:
    """The rendition's own text: without what it keeps in English on purpose (lang="en":
    the quoted law, names, case text), the letterhead and window (proper names and an
    address), the citations and the language-access block."""
    tree = lxml_html.document_fromstring(html)
    for el in tree.xpath(
        '//*[@lang="en"] | //header | //*[contains(@class, "window")] | '
        '//*[contains(@class, "cite")] | //section[contains(@class, "taglines")] | //head'
    ):
        el.drop_tree()
    return [line.strip() for line in tree.text_content().splitlines() if line.strip()]


@pytest.mark.parametrize(("kind", "path"), RENDERED, ids=RENDERED_IDS)
def test_the_spanish_rendition_has_every_block_and_no_english_sentence(kind, path):
    english = api.build(kind, path)
    spanish = api.build(kind, path, SPANISH)
    blocks = visible_blocks(english.html)
    assert differences(blocks, visible_blocks(spanish.html)) == KNOWN_GAPS.get(kind, [])
    assert blocks[0] == "h1" and len(blocks) >= 3  # a heading, a section, the tagline block
    leftovers = [line for line in spanish_sentences(spanish.html) if ENGLISH.search(line)]
    assert leftovers == []
    assert spanish.lang == "es-US" and '<html lang="es-US">' in spanish.html
    assert spanish.filename.endswith("-es")


@pytest.mark.parametrize(("kind", "path"), RENDERED, ids=RENDERED_IDS)
def test_the_spanish_pdf_says_the_english_controls_and_writes_spanish_amounts_and_dates(kind, path):
    spanish = api.build(kind, path, SPANISH)
    text = " ".join(pdf_text(api.to_bytes(spanish, "pdf")).split())
    english = pdf_text(api.to_bytes(api.build(kind, path), "pdf"))
    statement = text.index("COPIA DE CORTESÍA EN ESPAÑOL.")
    assert statement < text.index(" Conforme a ")
    assert "El documento en inglés es el que tiene validez legal y prevalece" in text
    assert "Pedir una traducción no extiende ningún plazo" in text
    issued = yaml.safe_load(path.read_text(encoding="utf-8"))["issued"]
    assert f": {es_long_date(issued)}" in text
    # Every amount: the Spanish words, then the figure, as the filters write them.
    # A document that prints an amount in English prints it in Spanish (the order none).
    figures = re.findall(r"\(\$([\d,]+\.\d\d)\)", text)
    assert bool(figures) == ("$" in english)
    for figure in figures:
        amount = Decimal(figure.replace(",", ""))
        assert es_money_words(amount) in text, figure


def test_a_language_without_a_rendition_or_unknown_is_a_usage_error(tmp_path):
    other = next(path for kind, path in SAMPLES if kind == "notice-of-deficiency")
    run = docgen("render", "notice-of-deficiency", other, "--language", "es", "-o", tmp_path / "o/")
    assert (
        run.returncode == 2 and "--language es: notice-of-deficiency has no Spanish" in run.stderr
    )
    run = docgen("render", "notice-of-violation", NOTICES[0], "--language", "xx", "-o", tmp_path)
    assert run.returncode == 2 and "--language xx: no such language" in run.stderr
    assert not any(tmp_path.iterdir())
    assert "es" in get_kind("notice-of-violation").renditions
