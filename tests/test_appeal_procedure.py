"""The appeal as a landowner needs it (LAW.md § 2, "Appeal deadline"): beside element (f)
the notice says who hears the appeal, how it is filed in person and by mail, when a mailed
appeal counts, the office's hours, whether filing stays the remedies, and a telephone
number for questions; each value beyond the article's words is a reading for counsel,
stated in the pack."""

from __future__ import annotations

import pytest
from conftest import SAMPLE_IDS, SAMPLES

from docgen.law.packs import load_pack
from docgen.render.filters import phone
from tests.helpers.enforcement_cases import squash
from tests.helpers.readback import docx_text, html_text, pdf_text

NOTICES = [(k, p) for k, p in SAMPLES if k == "notice-of-violation"]
NOTICE_IDS = [SAMPLE_IDS[SAMPLES.index(s)] for s in NOTICES]


@pytest.mark.parametrize(("kind", "path"), NOTICES, ids=NOTICE_IDS)
def test_the_notice_prints_the_appeal_procedure_beside_f(renders, kind, path):
    r = renders.get(kind, path)
    pack = load_pack("homer")
    ap, offices = pack.enforcement.appeal_procedure, pack.offices
    expected = [
        ap.heard_by.value,
        ap.in_person.value,
        f"Office hours: {offices.hours.value}.",
        ap.by_mail.value,
        ap.mailed_filing.value,
        ap.stay.value,
        f"Call the {pack.enforcement.appeal_office.value} at {phone(offices.phone.value)}.",
    ]
    for text in (html_text(r["html"]), pdf_text(r["pdf"]), docx_text(r["docx"])):
        flat = squash(text)
        start, end = flat.index(squash("(f) Right to appeal")), flat.index("Otherconsequences")
        places = [flat.find(squash(value), start) for value in expected]
        assert -1 not in places, [v for v, at in zip(expected, places, strict=True) if at < 0]
        assert places == sorted(places) and places[-1] < end


@pytest.mark.parametrize("jurisdiction", ["homer"])
def test_who_hears_it_mailed_filing_and_stay_are_readings_for_counsel(jurisdiction):
    ap = load_pack(jurisdiction).enforcement.appeal_procedure
    for value in (ap.heard_by, ap.mailed_filing, ap.stay):
        assert value.note and value.note.startswith("reading for counsel"), value
    # Homer's article is silent on a stay: the notice says so, in plain words, and states
    # the unsettled reading (Village Law § 7-712-a(6)) as unsettled, never as settled.
    assert "does not say whether filing an appeal stops the remedies" in ap.stay.value
    assert "not settled" in ap.stay.value and "7-712-a(6)" in ap.stay.value
    assert "for the Village's counsel to say" in ap.stay.value
    # A mailed appeal counts when received: never a date the Village might refuse.
    assert "filed on the day" in ap.mailed_filing.value and "receives it" in ap.mailed_filing.value
