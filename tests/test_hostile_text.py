"""Case data is text: markup, template syntax, URLs, bidi and zero-width characters print
literally in HTML, DOCX and PDF, never evaluated or fetched; control characters are
refused with an error naming the field. Every kind, every sample, every text field."""

from __future__ import annotations

import io
import json
import logging
import re
import unicodedata
import zipfile

import pytest
from conftest import SAMPLE_IDS, SAMPLES
from lxml import etree
from lxml import html as lxml_html

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.documents import KINDS
from docgen.errors import CaseInvalid
from tests.helpers.casewalk import dotted, leaves, model_fields, set_in
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, html_text, pdf_text

PAYLOADS = [
    "O'Brien & \"Sons\" <b>Ltd</b> {{ 7*7 }} {% include 'base/layout.html.j2' %}",
    '<img src="file:///etc/passwd"> <script>alert(1)</script> {# gone? #}',
    "background: url(http://127.0.0.1/) &amp; &lt;x&gt; ${HOME} %(x)s {0}",
    "zero\u200bwidth\u2060joined\ufeffnames \u200dand\u200c marks",
    "right\u200fto\u200eleft \u202eoverride\u202c and \u2067isolate\u2069 end",
]
CONTROLS = ["\x00", "\x07", "\x0b", "\x0d", "\x1b", "\x1f", "\x7f", "\x80", "\x85", "\x9f"]
FIRST_SAMPLE = {kind: (kind, path) for kind, path in reversed(SAMPLES)}


def flat(text: str) -> str:
    return " ".join(text.split())


def visible(text: str) -> str:
    """Text without invisible format characters (a PDF draws nothing for them) and without
    spaces (a PDF line may break after a '/' or '-', where the text had no space)."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Zs", "Cc"))


def hostile_case(kind: str, path) -> tuple[dict, list[tuple[str, str]]]:
    """The sample with a payload appended to every text field; (field, value) written."""
    data = read_case_file(path)
    written = []
    text_leaves = [(p, v) for p, v, k in leaves(KINDS[kind].model, data) if k == "text"]
    for index, (leaf, value) in enumerate(text_leaves):
        payload = PAYLOADS[index % len(PAYLOADS)]
        new = f"{value} {index}:{payload}"
        data = set_in(data, leaf, new)
        written.append((dotted(leaf), new))
    return data, written


def test_every_text_field_of_every_kind_refuses_control_characters_structurally():
    """A bare ``str`` field would let control characters through: use Text or Line."""
    bare = [
        f"{kind}: {path}"
        for kind, spec in KINDS.items()
        for path, kinds in model_fields(spec.model)
        if "bare-str" in kinds
    ]
    assert not bare, "fields typed as bare str (use Text or Line): " + ", ".join(bare)


@pytest.fixture(scope="module")
def rendered():
    out = {}
    for kind, (_, path) in FIRST_SAMPLE.items():
        data, written = hostile_case(kind, path)
        doc = api.build(kind, data)
        out[kind] = (doc, written, api.to_bytes(doc, "docx"), api.to_bytes(doc, "pdf"))
    return out


@pytest.mark.parametrize("kind", sorted(FIRST_SAMPLE))
def test_hostile_text_prints_literally_in_html(kind, rendered):
    doc, written, _, _ = rendered[kind]
    html = doc.standalone()
    text = flat(html_text(html))
    for field, value in written:
        assert flat(value) in text, f"{field}: {value!r} not printed literally in the HTML"
    # {{ 7*7 }} never evaluated: no 49 standing alone (a telephone number may hold the digits)
    assert not re.search(r"(?<!\d)49(?!\d)", text.replace(flat(PAYLOADS[0]), ""))
    tree = lxml_html.document_fromstring(html)
    assert not tree.body.findall(".//script") and not tree.body.findall(".//img")
    assert "file:///etc/passwd" not in html.replace("&#34;", '"').split('src="')[0][-1:]


@pytest.mark.parametrize("kind", sorted(FIRST_SAMPLE))
def test_hostile_text_prints_literally_in_docx_which_stays_valid_xml(kind, rendered):
    _, written, docx_bytes, _ = rendered[kind]
    with zipfile.ZipFile(io.BytesIO(docx_bytes)) as archive:
        for name in archive.namelist():
            if name.endswith(".xml") or name.endswith(".rels"):
                etree.fromstring(archive.read(name))  # raises on invalid XML
    text = flat(docx_text(docx_bytes))
    for field, value in written:
        assert flat(value) in text, f"{field}: {value!r} not printed literally in the DOCX"


@pytest.mark.parametrize("kind", sorted(FIRST_SAMPLE))
def test_hostile_text_prints_literally_in_pdf(kind, rendered):
    _, written, _, pdf = rendered[kind]
    text = visible(pdf_text(pdf))
    for field, value in written:
        if any(unicodedata.bidirectional(ch) in ("RLO", "RLE", "RLI", "R") for ch in value):
            # laid out right to left as Unicode requires: each word is still there
            for word in value.split():
                word = visible(word)
                assert word in text or word[::-1] in text, f"{field}: {word!r} not in the PDF"
        else:
            assert visible(value) in text, f"{field}: {value!r} not printed in the PDF"


def test_hostile_text_fetches_nothing(rendered, caplog):
    doc = rendered["penalty-statement"][0]
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        api.to_bytes(doc, "pdf")
    assert not [r for r in caplog.records if "refused to fetch" in r.getMessage()]


@pytest.mark.parametrize("kind,path", SAMPLES, ids=SAMPLE_IDS)
def test_control_characters_are_refused_naming_the_field(kind, path):
    data = read_case_file(path)
    strings = [(p, v, k) for p, v, k in leaves(KINDS[kind].model, data) if isinstance(v, str)]
    assert strings
    for index, (leaf, value, field_kind) in enumerate(strings):
        # text anywhere; in a date, ZIP or code the middle (its ends are trimmed as spacing)
        places = (0, 1, len(value)) if field_kind == "text" else (1,)
        for offset, place in enumerate(places):
            char = CONTROLS[(index + offset) % len(CONTROLS)]
            bad = set_in(data, leaf, value[:place] + char + value[place:])
            with pytest.raises(CaseInvalid) as caught:
                api.build(kind, bad)
            fields = [p.field for p in caught.value.problems]
            assert dotted(leaf) in fields, f"{dotted(leaf)}, U+{ord(char):04X}: {caught.value}"


@pytest.mark.parametrize("char", [*CONTROLS, "\x01", "\x1e", "\x84"])
def test_the_message_names_field_and_character(char):
    kind, path = FIRST_SAMPLE["penalty-statement"]
    data = set_in(read_case_file(path), ("recipient", "name"), f"Acme{char}Corp")
    with pytest.raises(CaseInvalid) as caught:
        api.build(kind, data)
    assert f"recipient.name: contains the control character U+{ord(char):04X}" in str(caught.value)


def test_newlines_and_tabs_are_text(tmp_path):
    kind, path = FIRST_SAMPLE["penalty-statement"]
    data = set_in(read_case_file(path), ("site", "description"), "Lot 4\n\tnorth of the creek")
    doc = api.build(kind, data)
    assert "Lot 4 north of the creek" in flat(html_text(doc.standalone()))


def test_control_character_through_the_cli(tmp_path):
    kind, path = FIRST_SAMPLE["penalty-statement"]
    data = set_in(read_case_file(path), ("recipient", "name"), "Acme\u0007 Excavating")
    case = tmp_path / "case.json"
    case.write_text(json.dumps(data), encoding="utf-8")  # JSON escapes it as \u0007
    run = docgen("render", kind, case, "-o", f"{tmp_path}/out/")
    assert run.returncode == 1
    assert "Recipient, name: contains the control character U+0007" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_close_bidi_closes_what_a_value_opens():
    from docgen.render.environment import close_bidi

    assert close_bidi("plain") == "plain"
    assert close_bidi("a\u202eb") == "a\u202eb\u202c"
    assert close_bidi("a\u202eb\u202c") == "a\u202eb\u202c"
    assert close_bidi("\u2067a\u202bb") == "\u2067a\u202bb\u202c\u2069"
    assert close_bidi("\u2067a\u202bb\u2069c\u202e") == "\u2067a\u202bb\u2069c\u202e\u202c"
    assert close_bidi(7) == 7


@pytest.mark.parametrize("kind", sorted(FIRST_SAMPLE))
def test_a_right_to_left_override_in_case_data_cannot_reverse_the_template(kind):
    _, path = FIRST_SAMPLE[kind]
    data = read_case_file(path)
    for leaf, value, field_kind in leaves(KINDS[kind].model, data):
        if field_kind == "text":
            data = set_in(data, leaf, f"{value} \u202eDESREVER")
    html = api.build(kind, data).html
    assert html.count("\u202e") >= 1
    assert html.count("\u202e") == html.count("\u202c"), "an override left open"


def test_the_words_after_an_override_read_forwards_in_the_pdf():
    kind, path = FIRST_SAMPLE["penalty-statement"]
    data = set_in(read_case_file(path), ("recipient", "name"), "ACME \u202eHoldings")
    text = flat(pdf_text(api.to_bytes(api.build(kind, data), "pdf")))
    assert "against ACME sgnidloH for the violation described below" in text
