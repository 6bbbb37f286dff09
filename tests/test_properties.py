"""Property-based tests (hypothesis), over every kind and every sample case.

Valid cases are made from each sample by replacing its text fields with generated text
(diacritics, Greek, Cyrillic, CJK, markup and template characters): they render in HTML
and DOCX, every one, and in PDF for a sample of them, with the text printed as typed.
Invalid cases are made by mangling a sample (wrong types, missing and unknown keys,
impossible dates, control characters): they raise DocgenError, never anything else.
Derandomized, so CI runs the same examples every time. Per sample case: 12 valid
(HTML+DOCX) and 60 invalid; per kind: 3 valid in PDF. The suite takes one sample per kind;
`make soak` the others too.
"""

from __future__ import annotations

import logging
import string
from functools import cache

import pytest
from conftest import SAMPLE_IDS, SAMPLES
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.documents import KINDS
from docgen.errors import DocgenError
from tests.helpers.casewalk import Path, del_in, dotted, leaves, set_in
from tests.helpers.readback import docx_text, html_text

LATIN = "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœŁłŠšŽžĆćČčĐđŐőŰűĞğŞşİıÀÉÎÕÜÇÑÅØ"
GREEK = "αβγδεζηθικλμνξοπρστυφχψωάέήίόύώΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ"
CJK = "東京中文字市町村王小明株式会社建設山川田水土木工事"
MARKUP = "<>&\"'{}%#$*|\\/[]()=+~`!?@;:,.-_"
ALPHABET = string.ascii_letters + string.digits + " " + LATIN + GREEK + CYRILLIC + CJK + MARKUP
TOKENS = [
    "{{ 7*7 }}",
    "{% include 'x' %}",
    "<b>bold</b>",
    "&amp;",
    "<script>x</script>",
    "url(http://127.0.0.1/)",
    "${HOME}",
    "%s",
    "{0}",
    "O'Brien",
    '"quoted"',
]

words_st = st.text(alphabet=ALPHABET, min_size=1, max_size=24)
text_st = (
    st.lists(st.one_of(words_st, st.sampled_from(TOKENS)), min_size=1, max_size=4)
    .map(" ".join)
    .map(lambda s: " ".join(s.split()))
    .filter(bool)
)
BAD_DATES = [
    "2026-02-30",
    "9999-12-31",
    "0001-01-01",
    "2026-13-01",
    "2026-00-10",
    "11/03/2026",
    "2026-1-3",
    "",
    "tomorrow",
    20261103,
    3.5,
    True,
    [2026, 11, 3],
]
CONTROLS = ["\x00", "\x07", "\x0b", "\x0d", "\x1b", "\x7f", "\x85", "\x9f"]
JUNK = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.sampled_from(BAD_DATES),
)
SETTINGS = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
}


@cache
def sample(index: int) -> tuple[str, dict, list[tuple[Path, object, str]]]:
    kind, path = SAMPLES[index]
    data = read_case_file(path)
    return kind, data, list(leaves(KINDS[kind].model, data))


def containers(data, path: Path = ()):
    """Every mapping and list in ``data`` with its path (the root too)."""
    yield path, data
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in items:
        if isinstance(value, dict | list):
            yield from containers(value, (*path, key))


@st.composite
def valid_cases(draw, index: int):
    """Sample ``index`` with some of its text fields replaced by generated text."""
    kind, data, fields = sample(index)
    written = []
    for path, _value, field_kind in fields:
        if field_kind == "text" and draw(st.booleans()):
            text = draw(text_st)
            data = set_in(data, path, text)
            written.append((dotted(path), text))
    return kind, data, written


@st.composite
def invalid_cases(draw, index: int):
    """(kind, data, how, surely_invalid): sample ``index`` mangled in one place."""
    kind, data, fields = sample(index)
    how = draw(st.sampled_from(["type", "delete", "unknown key", "bad date", "control"]))
    if how == "type":
        path = draw(
            st.sampled_from([p for p, _, _ in fields] + [p for p, _ in containers(data)][1:])
        )
        return kind, set_in(data, path, draw(JUNK)), f"{how} at {dotted(path)}", False
    if how == "delete":
        keys = [(*p, k) for p, c in containers(data) if isinstance(c, dict) for k in c]
        path = draw(st.sampled_from(keys))
        return kind, del_in(data, path), f"{how} {dotted(path)}", False
    if how == "unknown key":
        maps = [p for p, c in containers(data) if isinstance(c, dict)]
        path = draw(st.sampled_from(maps))
        key = draw(st.text(min_size=1, max_size=10).filter(lambda k: k.strip()))
        target = data
        for part in path:
            target = target[part]
        if key in target:
            key = f"{key}_unknown"
        return kind, set_in(data, (*path, key), draw(JUNK)), f"{how} in {dotted(path)}", True
    dates = [p for p, _, k in fields if k == "date"]
    if how == "bad date" and dates:
        path = draw(st.sampled_from(dates))
        return kind, set_in(data, path, draw(st.sampled_from(BAD_DATES))), how, True
    texts = [(p, v) for p, v, k in fields if k == "text"]
    path, value = draw(st.sampled_from(texts))
    place = draw(st.integers(0, len(value)))
    char = draw(st.sampled_from(CONTROLS))
    return kind, set_in(data, path, value[:place] + char + value[place:]), how, True


def flat(text: str) -> str:
    return " ".join(text.split())


PDF_INDEXES = [next(i for i, (k, _) in enumerate(SAMPLES) if k == kind) for kind in KINDS]
# The suite takes one sample of each kind, every field of its model walked; the other
# samples of a kind (the same model, other shapes of case) run under `make soak` (their
# marker): the property holds per kind, and every sample took 90 s of the suite's 14 min.
INDEXES = [
    i if i in PDF_INDEXES else pytest.param(i, marks=pytest.mark.soak, id=SAMPLE_IDS[i])
    for i in range(len(SAMPLES))
]
IDS = [SAMPLE_IDS[i] if i in PDF_INDEXES else None for i in range(len(SAMPLES))]


@pytest.mark.parametrize("index", INDEXES, ids=IDS)
@settings(max_examples=12, **SETTINGS)
@given(data=st.data())
def test_generated_valid_cases_render_in_html_and_docx(index, data):
    case = data.draw(valid_cases(index))
    kind, data, written = case
    event(f"valid {kind}: HTML+DOCX rendered")
    doc = api.build(kind, data)
    html = flat(html_text(doc.standalone()))
    docx = flat(docx_text(api.to_bytes(doc, "docx")))
    for field, text in written:
        assert text in html, f"{kind} {field}: {text!r} not printed as typed in the HTML"
        assert text in docx, f"{kind} {field}: {text!r} not printed as typed in the DOCX"


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.mark.parametrize("index", PDF_INDEXES, ids=[SAMPLE_IDS[i] for i in PDF_INDEXES])
@settings(max_examples=3, **SETTINGS)
@given(data=st.data())
def test_generated_valid_cases_render_in_pdf(index, data):
    case = data.draw(valid_cases(index))
    kind, data, _ = case
    event(f"valid {kind}: PDF rendered")
    records = _Records()
    logger = logging.getLogger("docgen.pdf")
    logger.addHandler(records)
    try:
        pdf = api.to_bytes(api.build(kind, data), "pdf")
    finally:
        logger.removeHandler(records)
    assert pdf.startswith(b"%PDF")
    assert not records.messages, records.messages  # no missing glyph, nothing fetched


@pytest.mark.parametrize("index", INDEXES, ids=IDS)
@settings(max_examples=60, **SETTINGS)
@given(data=st.data())
def test_generated_invalid_cases_raise_docgen_error_only(index, data):
    case = data.draw(invalid_cases(index))
    kind, data, how, surely_invalid = case
    try:
        api.build(kind, data)
    except DocgenError:
        event(f"invalid ({how.split(' ')[0]}): DocgenError")
        return
    except Exception as err:  # anything else is a defect: it would be a traceback
        pytest.fail(f"{kind}, {how}: {type(err).__name__}: {err}")
    event(f"invalid ({how.split(' ')[0]}): still valid, rendered")
    assert not surely_invalid, f"{kind}, {how}: accepted"
