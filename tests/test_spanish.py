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
from docgen.documents.kind import Options
from docgen.law.packs import ENV, load_pack
from docgen.pack_check import moved_into
from docgen.render import language
from docgen.render.filters import es_amount_words, said_long_date, said_money_words
from tests.helpers.cli import docgen
from tests.helpers.enforcement_cases import ROOT, squash
from tests.helpers.readback import docx_text, docx_text_in, html_text, pdf_pages, pdf_text


def es_long_date(day):
    """A date as the Spanish copy writes it."""
    with language.speaking("es"):
        return said_long_date(day)


def es_words(english):
    """The Spanish catalog's rendering of ``english`` (the law's words, the pack's own)."""
    return language.catalog("es").get(english)


# How a served notice says its means of service in Spanish (the method as typed follows).
MEANS = {
    "personal": "por entrega personal",
    "mail": "por correo",
    "posting": "por fijación en el sitio, con una copia enviada por correo",
}


def es_money_words(amount):
    """An amount as the Spanish copy writes it: words, then figures."""
    with language.speaking("es"):
        return said_money_words(amount)


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
    assert differences(blocks, visible_blocks(spanish.html)) == []
    assert blocks[0] == "h1" and len(blocks) >= 3  # a heading, a section, the tagline block
    leftovers = [line for line in spanish_sentences(spanish.html) if ENGLISH.search(line)]
    assert leftovers == []
    assert spanish.lang == "es-US" and '<html lang="es-US">' in spanish.html
    assert spanish.filename.endswith("-es")


# A Spanish copy may be a page longer than its English: the law's words are quoted in
# English beside their rendering, every sentence of the English said (LAW.md § 13).
PAGES_OVER_ENGLISH = {
    "notice-of-violation": 2,  # the law of elements (e) and (f) quoted beside its rendering
    "penalty-statement": 1,
    "stop-work-order": 1,
    "stop-work-lifted": 1,
    "notice-of-deficiency": 1,
    "occupancy-order": 1,
    "restoration-notice": 1,
}


@pytest.mark.parametrize(("kind", "path"), RENDERED, ids=RENDERED_IDS)
def test_the_spanish_pdf_says_the_english_controls_and_writes_spanish_amounts_and_dates(kind, path):
    spanish = api.build(kind, path, SPANISH)
    text = " ".join(pdf_text(api.to_bytes(spanish, "pdf")).split())
    english_pdf = api.to_bytes(api.build(kind, path), "pdf")
    english = pdf_text(english_pdf)
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
    # The page budget: the notice and the statement in Spanish are never longer than the
    # English they render (the law's words quoted beside their rendering included).
    over = len(pdf_pages(api.to_bytes(spanish, "pdf"))) - len(pdf_pages(english_pdf))
    assert over <= PAGES_OVER_ENGLISH.get(kind, 0)


def test_a_language_without_a_rendition_or_unknown_is_a_usage_error(tmp_path):
    other = next(path for kind, path in SAMPLES if kind == "inspection-report")
    run = docgen("render", "inspection-report", other, "--language", "es", "-o", tmp_path / "o/")
    assert run.returncode == 2 and "--language es: inspection-report has no Spanish" in run.stderr
    run = docgen("render", "notice-of-violation", NOTICES[0], "--language", "xx", "-o", tmp_path)
    assert run.returncode == 2 and "--language xx: no such language" in run.stderr
    assert not any(tmp_path.iterdir())
    assert "es" in get_kind("notice-of-violation").renditions


HOMER = load_pack("homer")
# The law's words beside the penalties (the English other_consequences), each quoted in
# English with the Spanish rendering its pack gives beside it (es).
OTHER_MEASURES = ("injunction", "certificate_of_occupancy", "restoration", "fees")
# The pack's plain words on how to appeal (readings for counsel, not the law's): printed in
# the Spanish its pack gives.
PROCEDURE = ("heard_by", "in_person", "by_mail", "mailed_filing", "stay")


def sample(kind: str, stem: str):
    return next(path for k, path in SAMPLES if k == kind and path.stem == stem)


def pdf_body(pdf: bytes) -> str:
    """The PDF's text without its page furniture (the running head, "Page X of Y", the
    bullets of list items), so a sentence across a page break reads whole."""
    furniture = re.compile(r"(Page \d+ of \d+|Página \d+ de \d+|.* · .* (No\.|N\.º) \S+|•)")
    lines = pdf_text(pdf).splitlines()
    return "\n".join(line for line in lines if not furniture.fullmatch(line.strip()))


def read_back(doc) -> tuple[dict[str, str], str, list[str]]:
    """Its text in HTML, PDF and DOCX (squashed); the DOCX words tagged English; the HTML's
    quotes tagged English."""
    pdf, word = api.to_bytes(doc, "pdf"), api.to_bytes(doc, "docx")
    texts = {
        "html": squash(html_text(doc.html)),
        "pdf": squash(pdf_body(pdf)),
        "docx": squash(docx_text(word)),
    }
    tree = lxml_html.document_fromstring(doc.html)
    quoted = [squash(q.text_content()) for q in tree.iter("q") if q.get("lang") == "en"]
    return texts, squash(docx_text_in(word, "en")), quoted


@pytest.mark.parametrize("kind", ["notice-of-violation", "penalty-statement"])
def test_the_other_measures_quote_the_law_in_english_beside_their_spanish(kind):
    doc = api.build(kind, sample(kind, "homer-first-offense"), SPANISH)
    texts, tagged_english, quoted = read_back(doc)
    e = HOMER.enforcement
    for key in OTHER_MEASURES:
        value = getattr(e, key)
        for fmt, text in texts.items():
            assert squash(f"{es_words(value.value)} (traducción de:") in text, (fmt, key)
            assert squash(value.value) in text and squash(f"({value.ref})") in text, (fmt, key)
        assert squash(value.value) in quoted and squash(value.value) in tagged_english, key
    # The stop-work order as the Spanish order renders it, its words quoted beside it.
    stop = squash("deberán detener todas las actividades de urbanización del terreno")
    assert all(stop in text for text in texts.values())
    assert squash(e.stop_work.value) in quoted and squash(e.stop_work.value) in tagged_english
    assert e.remedies_added == {}  # Homer's article adds none (Wrenfield's below)


def test_the_spanish_notice_says_how_to_appeal_and_certifies_its_service():
    path = sample("notice-of-violation", "homer-first-offense")
    doc = api.build("notice-of-violation", path, SPANISH)
    texts, tagged_english, _ = read_back(doc)
    procedure = HOMER.enforcement.appeal_procedure
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    served = data["served"]
    for fmt, text in texts.items():
        assert squash("Cómo apelar") in text and squash("Otras consecuencias") in text, fmt
        for key in PROCEDURE:
            assert squash(es_words(getattr(procedure, key).value)) in text, (fmt, key)
        assert squash("Llame a la oficina del Secretario de la Villa al (607) 749-3322.") in text, (
            fmt
        )
        order = ("Cómo apelar", "Otras consecuencias", "Certificado de notificación")
        found = [text.index(squash(heading)) for heading in order]
        assert found == sorted(found), fmt
        assert (
            squash(
                f"certifico que el {es_long_date(served['date'])} notifiqué este Aviso de "
                f"Infracción n.º {data['number']} a {data['recipient']['name']} "
                f"{MEANS[served['means']]} ({served['method']})."
            )
            in text
        ), fmt
    assert squash(HOMER.offices.hours.value) in tagged_english  # as the settings say it


def test_the_spanish_statement_states_the_six_steps_of_its_computation():
    doc = api.build(
        "penalty-statement", sample("penalty-statement", "homer-third-offense"), SPANISH
    )
    texts, _, _ = read_back(doc)
    steps = (
        "no cuenta y no se indica aquí.",
        "en la fecha de la infracción actual o antes, y no más de cinco años antes",
        "una sanción mayor presupone una condena que el infractor ya tenía",
        "las condenas dictadas en la misma fecha cuentan como una sola infracción anterior",
        "la tercera infracción y cualquier posterior tienen la sanción más alta",
        "cada semana completa de siete días que continuó suma una más",
    )
    for fmt, text in texts.items():
        found = [text.index(squash(step)) for step in steps]
        assert found == sorted(found), fmt
        assert text.index(squash("5. Cómo se calculó")) < found[0], fmt


@pytest.fixture
def wrenfield(monkeypatch):
    monkeypatch.setenv(ENV, str(ROOT / "tests" / "data" / "packs"))
    return load_pack("wrenfield")


def wrenfield_notice(pack) -> dict:
    data = yaml.safe_load(NOTICES[0].read_text(encoding="utf-8"))
    return moved_into(data, pack)


def test_a_law_without_appeal_has_no_appeal_in_its_spanish_notice_and_its_added_remedy(wrenfield):
    doc = api.build("notice-of-violation", wrenfield_notice(wrenfield), SPANISH)
    english = api.build("notice-of-violation", wrenfield_notice(wrenfield))
    assert differences(visible_blocks(english.html), visible_blocks(doc.html)) == []
    texts, tagged_english, _ = read_back(doc)
    ticket = wrenfield.enforcement.remedies_added["appearance_tickets"]
    for fmt, text in texts.items():
        assert not re.search(r"apela|Cómo apelar|\(6\)", text, re.IGNORECASE), fmt
        assert squash(f"{ticket.es} (traducción de:") in text, fmt
        assert squash(f"{ticket.value}") in text and squash("(§ 86-4G)") in text, fmt
        assert re.findall(r"\((\d)\)(?:Propietario|Lugar|Naturaleza|Medidas|Sanciones)", text) == [
            "1",
            "2",
            "3",
            "4",
            "5",
        ], fmt
    assert squash(ticket.value) in tagged_english


def test_a_pack_without_the_spanish_of_its_own_words_is_a_usage_error(wrenfield, tmp_path):
    """The Spanish of an added remedy is the pack's: without it, nothing is written, and
    the error names the provision, the words and the key to give (LAW.md § 13)."""
    packs = tmp_path / "packs"
    packs.mkdir()
    text = (ROOT / "tests" / "data" / "packs" / "wrenfield.yaml").read_text(encoding="utf-8")
    ticket = wrenfield.enforcement.remedies_added["appearance_tickets"]
    lines = [line for line in text.splitlines() if line.strip() != f"es: {ticket.es}"]
    assert len(lines) == len(text.splitlines()) - 1
    (packs / "wrenfield.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    case = tmp_path / "notice.yaml"
    case.write_text(yaml.safe_dump(wrenfield_notice(wrenfield)), encoding="utf-8")
    out = tmp_path / "out"
    run = docgen(
        "render",
        "notice-of-violation",
        case,
        "--language",
        "es",
        "-o",
        f"{out}/",
        env={ENV: str(packs)},
    )
    assert run.returncode == 2, run.stderr
    assert "--language es: the pack gives no Spanish rendering (es) of § 86-4G" in run.stderr
    assert "'The Stormwater Management Officer may issue an appearance...'" in run.stderr
    assert "give es beside the value" in run.stderr and "Traceback" not in run.stderr
    assert "LAW.md" not in run.stderr  # the clerk reads the law, not the project's notes
    assert not out.exists() or not any(out.iterdir())
    run = docgen("render", "notice-of-violation", case, "-o", f"{out}/", env={ENV: str(packs)})
    assert run.returncode == 0, run.stderr  # the English notice needs no Spanish
