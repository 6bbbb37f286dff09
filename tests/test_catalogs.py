"""Every language from one source (LAW.md § 13): the translation catalogs are complete and
current, and a courtesy copy says every sentence of its English, in its language.

- The catalog template (docgen/locale/docgen.pot) holds exactly the messages the templates,
  the renderer, the looked-up values and the packs' printed words say today
  (scripts/catalogs.py makes it): a sentence added to a template and not extracted fails.
- Each language's catalog translates every one of them (none empty, none fuzzy), with the
  same placeholders and markup as the English.
- The faults of the first Spanish copies, each read back from the PDF: the whole penalty
  paragraph of § 228-79C(4); when service is complete and the weekend and holiday rule on a
  notice not yet served; posting said as posting (fijación), the means of service in
  Spanish; each prior's reason in Spanish; the municipality named one way.
"""

from __future__ import annotations

import re
import sys

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT
from lxml import html as lxml_html

from docgen import api
from docgen.documents import KINDS
from docgen.documents.kind import Options
from docgen.render import language
from tests.helpers.readback import pdf_pages, pdf_text

sys.path.insert(0, str(ROOT / "scripts"))
import catalogs

LANGUAGES = sorted(path.parent.name for path in language.LOCALE_DIR.glob("*/LC_MESSAGES"))
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}|</?\w+[^>]*>")


def squash(text: str) -> str:
    return "".join(text.split())


def read(path):
    with path.open("rb") as handle:
        return read_po(handle)


def ids(catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def test_the_catalog_template_holds_what_the_templates_say_today():
    said = ids(catalogs.template_messages())
    kept = ids(read(language.LOCALE_DIR / "docgen.pot"))
    assert said - kept == set(), "run `make catalogs`: messages not yet extracted"
    assert kept - said == set(), "run `make catalogs`: messages no template says any more"


def test_there_is_a_catalog_for_every_language_a_kind_is_rendered_in():
    rendered = {code for kind in KINDS.values() for code in getattr(kind, "renditions", ())}
    assert rendered and rendered <= set(LANGUAGES)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders_and_markup(code):
    template = {m.id: m for m in read(language.LOCALE_DIR / "docgen.pot") if m.id}
    catalog = {m.id: m for m in read(language.catalog_path(code)) if m.id}
    untranslated, mismatched = [], []
    for key in template:
        entry = catalog.get(key)
        strings = () if entry is None else entry.string
        strings = (strings,) if isinstance(strings, str) else tuple(strings)
        if entry is None or entry.fuzzy or not strings or not all(strings):
            untranslated.append(key)
            continue
        sources = (key,) if isinstance(key, str) else tuple(key)
        allowed = {p for source in sources for p in PLACEHOLDER.findall(source)}
        needed = allowed - {"%(count)s"}  # a plural's one form may say "the other"
        tagged = {'<span lang="en">', "</span>"}  # a translation may tag English it keeps
        for string in strings:
            found = set(PLACEHOLDER.findall(string)) - tagged
            if not (needed - tagged <= found <= allowed):
                mismatched.append((key, string))
    assert untranslated == [], f"{len(untranslated)} messages without {code} wording"
    assert mismatched == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_word_the_glossary_forbids_is_in_no_translation(code):
    """The glossary translators keep beside each catalog (docgen/locale/<code>/glossary.txt)
    marks the words a term is never rendered as (posting is never "publicación", never
    "публикация": publication): no message of the catalog says one."""
    glossary = (language.LOCALE_DIR / code / "glossary.txt").read_text(encoding="utf-8")
    never = re.findall(r"never \"?(\w+)\"?\s*[);(]", glossary)
    assert never, "the glossary names no word to avoid"
    said = [
        string
        for m in read(language.catalog_path(code))
        if m.id
        for string in ((m.string,) if isinstance(m.string, str) else m.string)
    ]
    found = [(word, s) for word in never for s in said if word.lower() in s.lower()]
    assert found == []


def build(kind: str, sample: str, code: str, **changes):
    data = api.load(ROOT / "fixtures" / kind / f"{sample}.yaml")[0]
    data.update(changes)
    doc = api.build(kind, data, Options(language=code))
    return " ".join(pdf_text(api.to_bytes(doc, "pdf")).split())


def test_the_spanish_penalty_paragraph_is_the_whole_of_c4():
    text = squash(build("penalty-statement", "homer-second-offense-continued", "es"))
    for words in (
        "Además de cualquier sanción prevista en este artículo o por la ley, o como "
        "alternativa a ella",
        "(traducción de: “In addition to or as an alternative to any penalty provided herein "
        "or by law”)",
        "las infracciones de este artículo se considerarán delitos menores (misdemeanors)",
        "violations of this article shall be deemed misdemeanors",
    ):
        assert squash(words) in text, words
    # Each prior's reason, in Spanish, its dates in Spanish order.
    assert squash("cuenta: cometida el") in text and "counted:" not in text


def test_an_unserved_spanish_notice_says_when_service_is_complete_and_how_days_are_counted():
    text = squash(build("notice-of-violation", "homer-first-offense", "es", served=None))
    for words in (
        "dentro de los 15 días siguientes a la notificación de este aviso",
        "si se le envía por correo, en la fecha posterior entre el día en que lo recibe y "
        "cinco días después del día en que se envía",
        "si el último día cae en sábado, domingo o día feriado, puede presentar la apelación "
        "el siguiente día hábil",
    ):
        assert squash(words) in text, words


def test_posting_is_fijacion_and_the_means_of_service_is_said_in_spanish():
    data = api.load(ROOT / "fixtures" / "notice-of-violation" / "homer-first-offense.yaml")[0]
    served = dict(data["served"], means="posting", method="posting at the site entrance")
    served["mailed"] = served["date"]
    text = squash(build("notice-of-violation", "homer-first-offense", "es", served=served))
    assert squash("por fijación en el sitio, con una copia enviada por correo") in text
    assert "publicación" not in text and "porposting" not in text
    assert squash("El aviso se fijó en el sitio el") in text  # when service was complete


def test_personal_delivery_is_said_in_spanish_with_the_method_as_typed():
    """The first Spanish notice said "por personal delivery to the landowner": the means
    is said in Spanish, the method as the officer typed it beside it."""
    text = squash(build("notice-of-violation", "homer-first-offense", "es"))
    said = "por entrega personal (personal delivery to the landowner at the site)"
    assert squash(said) in text
    assert "porpersonaldelivery" not in text


def test_the_municipality_is_named_one_way_in_spanish():
    text = build("notice-of-violation", "homer-first-offense", "es")
    assert "La entidad" not in text
    body = text.split("Aviso de Infracción", 1)[1].replace("Code of the Village of Homer", "")
    body = re.sub(r"“[^”]*”", "", body)  # the law quoted in English
    # Its English name only in a quoted law (the code's title is its name, and the
    # letterhead above the notice is the Village's own).
    sentences = [s for s in re.split(r"(?<=\.) ", body) if "Village of Homer" in s]
    assert all("“" in s or "traducción de" in s for s in sentences), sentences
    assert "Village of Homer practice" not in text and "(práctica de la Villa de Homer)" in text
    assert "Villa de Homer · Aviso de Infracción N.º" in text  # the running head
    assert "la Villa de Homer" in text or "La Villa de Homer" in text


SERVED_SAMPLES = sorted(
    (name, path)
    for name, kind in KINDS.items()
    if "ru" in getattr(kind, "renditions", ())
    for path in (ROOT / "fixtures" / name).glob("*.yaml")
)
# Each sample in each of its kind's layouts (the stop-work order's posted placard too).
LAYOUTS = [
    (kind, path, layout) for kind, path in SERVED_SAMPLES for layout in (None, *KINDS[kind].posted)
]
ENGLISH_WORDS = re.compile(r"\b(the|and|of|shall|must|within|this|notice|may|days?|by|is)\b", re.I)


def english_left(html: str) -> list[str]:
    """The lines of a courtesy copy that read as English, but what it tags English (the law
    quoted, names, what was typed), its address window, citations and language block."""
    tree = lxml_html.document_fromstring(html)
    for el in tree.xpath(
        '//*[@lang="en"] | //header | //*[contains(@class, "window")] | '
        '//*[contains(@class, "cite")] | //section[contains(@class, "taglines")] | //head'
    ):
        el.drop_tree()
    lines = [line.strip() for line in tree.text_content().splitlines() if line.strip()]
    return [line for line in lines if ENGLISH_WORDS.search(line)]


def test_an_english_sentence_left_untagged_is_found():
    """The check below finds an English sentence the catalog did not translate (the first
    Spanish notice's "por personal delivery to the landowner"), and passes the law quoted."""
    said = "<p>Entregado por personal delivery to the landowner.</p>"
    quoted = '<p>Dice: <span lang="en">“any person who violates the provisions”</span>.</p>'
    assert english_left(f"<html><body>{said}\n{quoted}</body></html>") == [
        "Entregado por personal delivery to the landowner."
    ]


COPIES = [(k, p, c, layout) for k, p, layout in LAYOUTS for c in ("es", "ru")]
COPY_IDS = [f"{k}/{p.stem}/{layout or 'document'}/{c}" for k, p, c, layout in COPIES]


@pytest.mark.parametrize(("kind", "path", "code", "layout"), COPIES, ids=COPY_IDS)
def test_a_copy_says_no_english_sentence_but_what_it_quotes(kind, path, code, layout):
    """Spanish and Russian alike, every served kind and layout: every sentence in the copy's
    language (what stays English is tagged so: the law quoted, names, what was typed)."""
    doc = api.build(kind, path, Options(language=code, layout=layout))
    assert english_left(doc.html) == []


# A courtesy copy says first, in its language, that it is a translation, that the English
# controls, and that asking for one extends no deadline (LAW.md § 13).
COURTESY = {
    "es": ("CORTESÍA", "inglés", "no extiende ningún plazo"),
    "ru": ("ДЛЯ СВЕДЕНИЯ", "английском", "не продлевает никаких сроков"),
}


@pytest.mark.parametrize(("kind", "path", "code", "layout"), COPIES, ids=COPY_IDS)
def test_a_copy_says_on_its_first_page_that_the_english_controls(kind, path, code, layout):
    doc = api.build(kind, path, Options(language=code, layout=layout))
    first = squash(pdf_pages(api.to_bytes(doc, "pdf"))[0])
    for words in COURTESY[code]:
        assert squash(words) in first, words


@pytest.mark.parametrize(
    ("kind", "path"), SERVED_SAMPLES, ids=[f"{k}/{p.stem}" for k, p in SERVED_SAMPLES]
)
def test_a_second_language_comes_from_its_catalog_alone(kind, path):
    """Russian, from docgen/locale/ru and nothing else: the same template, every sentence
    in Russian, its page furniture too, and its PDF's text in Cyrillic glyphs the fonts
    have."""
    doc = api.build(kind, path, Options(language="ru"))
    assert doc.lang == "ru" and doc.filename.endswith("-ru")
    text = pdf_text(api.to_bytes(doc, "pdf"))
    assert re.search(r"[а-яА-Я]{4,}", text) and "\ufffd" not in text
    assert doc.warnings == () or all("glyph" not in w for w in doc.warnings)


def blocks(html: str) -> list[str]:
    """Every block of a document, in order, by its element and class: its headings,
    paragraphs, list items, table rows and sections, but the courtesy statement (which a
    copy alone has: a section, or the placard's paragraph)."""
    tree = lxml_html.document_fromstring(html)
    for el in tree.xpath('//*[contains(concat(" ", @class, " "), " courtesy ")]'):
        el.drop_tree()
    tags = ("h1", "h2", "h3", "p", "li", "tr", "section", "table")
    return [f"{el.tag}.{el.get('class') or ''}" for el in tree.body.iter(*tags)]


@pytest.mark.parametrize(("kind", "path", "code", "layout"), COPIES, ids=COPY_IDS)
def test_a_copy_has_the_englishs_sections_and_paragraphs_and_no_other(kind, path, code, layout):
    english = blocks(api.build(kind, path, Options(layout=layout)).html)
    copy = blocks(api.build(kind, path, Options(language=code, layout=layout)).html)
    assert copy == english


def test_a_message_without_values_carries_no_markup():
    """A message with no values is printed escaped (a looked-up value, a role or a title,
    is text as typed): so none may hold markup of its own."""
    marked = [
        m.id
        for m in read(language.LOCALE_DIR / "docgen.pot")
        if isinstance(m.id, str) and m.id and "<" in m.id and "%(" not in m.id
    ]
    assert marked == []
