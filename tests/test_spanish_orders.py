"""The Spanish courtesy renditions of the stop-work order, its placard and the notice lifting
it (LAW.md §§ 3 and 13), read back from the PDF, the DOCX and the HTML: the courtesy
statement first; § 228-79C(2)'s words quoted in English, tagged English, beside their
Spanish rendering; the placard with every line at least 14 pt, its English
placard unchanged. (Their block-by-block parity with the English documents is
tests/test_spanish.py's, for every sample of a kind with a rendition.)"""

from __future__ import annotations

import io
import re

import docx
import pdfplumber
import pytest
from lxml import html as lxml_html
from test_taglines import pdf_langs

from docgen import api
from docgen.documents.kind import Options
from docgen.law.packs import load_pack
from docgen.render import language
from docgen.render.filters import phone, said_long_date
from tests.helpers.enforcement_cases import ORDERS, ROOT, case_data, squash
from tests.helpers.readback import docx_text, docx_text_in, pdf_pages, pdf_text


def es_long_date(day):
    """A date as the Spanish copy writes it."""
    with language.speaking("es"):
        return said_long_date(day)


HOMER = load_pack("homer")
LIFTED = sorted((ROOT / "fixtures" / "stop-work-lifted").glob("*.yaml"))
QUOTED = ("stop_work", "stop_work_duration", "stop_work_failure")

# The English words each Spanish rendering in templates/notices/es/_enforcement.html.j2
# (and the order's effect in es/stop_work_order.html.j2) was translated from: when a
# pack's wording changes, this fails, and the rendering is reviewed with it.
TRANSLATED_FROM = {
    "stop_work": "halt all land development activities, except those activities that "
    "address the violations leading to the stop-work order",
    "stop_work_duration": "The stop-work order shall be in effect until the {name} confirms "
    "that the land development activity is in compliance and the violation has been "
    "satisfactorily addressed.",
    "stop_work_failure": "Failure to address a stop-work order in a timely manner may result "
    "in civil, criminal, or monetary penalties in accordance with the enforcement measures "
    "authorized in this article.",
    "order_effect": "This order takes effect on service: on the day it is handed to you or "
    "posted at the site; if it is only mailed to you, when service by mail is complete, on "
    "the later of the day you receive it and five days after the day it is mailed.",
}


def test_the_renderings_were_translated_from_the_packs_words():
    e = HOMER.enforcement
    found = {key: getattr(e, key).value for key in QUOTED}
    found["order_effect"] = e.service.order_effect.value
    assert found == {k: v.format(name=HOMER.name.value) for k, v in TRANSLATED_FROM.items()}


def rendered(kind: str, path, layout: str | None = None) -> tuple[str, bytes, bytes]:
    doc = api.build(kind, path, Options(layout=layout, language="es"))
    return doc.html, api.to_bytes(doc, "pdf"), api.to_bytes(doc, "docx")


@pytest.fixture(scope="module")
def orders():
    return {path.stem: rendered("stop-work-order", path) for path in ORDERS}


def quotes(html: str) -> list[tuple[str | None, str, str]]:
    """(lang, quoted words, its paragraph's text || the next paragraph's) of each quote."""
    tree = lxml_html.document_fromstring(html)
    found = []
    for q in tree.iter("q"):
        para = q.getparent()
        said = f"{para.text_content()} || {para.getnext().text_content()}"
        found.append((q.get("lang"), q.text_content(), said))
    return found


@pytest.mark.parametrize("stem", [p.stem for p in ORDERS])
def test_the_spanish_order_quotes_the_law_in_english_beside_its_rendering(orders, stem):
    html, pdf, docx_bytes = orders[stem]
    found = quotes(html)
    assert [(lang, words) for lang, words, _ in found] == [
        ("en", getattr(HOMER.enforcement, key).value) for key in QUOTED
    ]
    # Each quote follows its rendering in the same sentence, marked as its translation.
    for _, words, said in found:
        rendering = squash(said.split(" || ")[0])
        assert (
            squash(f"(traducción de: “{words}”)") in rendering
            or squash(f"(traducción de: {words})") in rendering
        )
    text, word = squash(pdf_text(pdf)), squash(docx_text(docx_bytes))
    for key in QUOTED:
        english = squash(getattr(HOMER.enforcement, key).value)
        assert english in text and english in word, key
    for spanish in (
        "COPIA DE CORTESÍA EN ESPAÑOL",
        "Pedir una traducción no extiende ningún plazo",
    ):
        assert squash(spanish) in text and squash(spanish) in word
    data = case_data(ORDERS[[p.stem for p in ORDERS].index(stem)])
    assert squash(f"Orden n.º: {data['number']}") in text
    assert squash(f"Fecha de emisión: {es_long_date(data['issued'])}") in text
    assert squash(phone(re.sub(r"\D", "", data["contact"]["phone"]))) in text
    # The quoted words are read as English: /Lang on their structure elements, w:lang in Word.
    assert "en" in pdf_langs(pdf)
    tagged = docx_text_in(docx_bytes, "en")
    for key in QUOTED:
        assert squash(getattr(HOMER.enforcement, key).value) in squash(tagged), key
    assert '<html lang="es-US">' in html


@pytest.fixture(scope="module")
def placards():
    return {path.stem: rendered("stop-work-order", path, "placard") for path in ORDERS}


@pytest.mark.parametrize("stem", [p.stem for p in ORDERS])
def test_the_spanish_placard_every_line_14_pt(placards, stem):
    """The order on its first page; the placard's last lines with the language-access block
    (LAW.md § 13) on a second sheet, every line of both at least 14 pt (LAW.md § 3)."""
    html, pdf, docx_bytes = placards[stem]
    data = case_data(ORDERS[[p.stem for p in ORDERS].index(stem)])
    pages = pdf_pages(pdf)
    assert len(pages) == 2
    assert squash("OBRA SUSPENDIDA") in squash(pages[0])
    with pdfplumber.open(io.BytesIO(pdf)) as read:
        assert min(round(c["size"], 1) for page in read.pages for c in page.chars) >= 14.0
    site = data["site"].get("address", {}).get("street") or data["site"]["description"]
    for text in (squash("".join(pages)), squash(docx_text(docx_bytes))):
        for value in (
            "OBRA SUSPENDIDA",
            "COPIA DE CORTESÍA EN ESPAÑOL",
            "Rige la orden en inglés fijada junto a esta",
            "pedir una traducción no extiende ningún plazo",
            site,
            data["number"],
            es_long_date(data["effective"]),
            phone(re.sub(r"\D", "", data["contact"]["phone"])),
            "deben detener todas las actividades de urbanización del terreno",
            "No atender a tiempo una orden de suspensión de obras",
            "No retire este aviso",
        ):
            assert squash(value) in text, value
    assert 'class="taglines' in html  # the language-access block is posted with it
    styles = {p.style.name for p in docx.Document(io.BytesIO(docx_bytes)).paragraphs}
    assert "Placard Heading" in styles
    # The English placard, which controls, is unchanged: no Spanish on it.
    english = api.build("stop-work-order", ORDERS[0], Options(layout="placard"))
    english_text = pdf_text(api.to_bytes(english, "pdf"))
    assert "STOP WORK ORDER" in english_text and "SUSPENDIDA" not in english_text


@pytest.mark.parametrize("path", LIFTED, ids=[p.stem for p in LIFTED])
def test_the_spanish_lifting_notice(path):
    html, pdf, docx_bytes = rendered("stop-work-lifted", path)
    data = case_data(path)
    for text in (squash(pdf_text(pdf)), squash(docx_text(docx_bytes))):
        assert squash("COPIA DE CORTESÍA EN ESPAÑOL") in text
        assert squash(HOMER.enforcement.stop_work_duration.value) in text
        assert squash(f"queda levantada a partir del {es_long_date(data['issued'])}") in text
        assert squash(f"notificada el {es_long_date(data['order']['served'])}") in text
    assert [(lang, words) for lang, words, _ in quotes(html)] == [
        ("en", HOMER.enforcement.stop_work_duration.value)
    ]
