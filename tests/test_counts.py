"""Printed counts agree with their nouns: "once every year", "within one (1) day", never
"one (1) years"; for every count the law or the case can give."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, write_case
from jinja2 import Environment

from docgen import api
from docgen.documents.kind import Options
from docgen.render.filters import FILTERS

AGREEMENT = ROOT / "fixtures" / "maintenance-agreement" / "homer-individual.yaml"


def render(source: str, **context) -> str:
    env = Environment(autoescape=True)
    env.filters.update(FILTERS)
    return env.from_string(source).render(**context)


@pytest.mark.parametrize(
    ("count", "quantity", "every"),
    [
        (1, "one (1) day", "every day"),
        (2, "two (2) days", "every two (2) days"),
        (30, "thirty (30) days", "every thirty (30) days"),
    ],
)
def test_quantity_and_every_agree_with_the_count(count, quantity, every):
    assert render('{{ n | quantity("day") }}', n=count) == quantity
    assert render('{{ n | every("day") }}', n=count) == every


def test_in_review_a_count_from_the_case_is_marked():
    marked = render('{{ n | every("year", True) }}', n=1, review=True)
    assert marked == 'every <mark class="case">year</mark>'
    assert render('{{ n | quantity("year", False) }}', n=2, review=True) == "two (2) years"


@pytest.mark.parametrize("review", [False, True])
def test_an_agreement_inspected_every_year_says_so(tmp_path, review):
    text = AGREEMENT.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^inspection:.*\n", "", text)
    case = write_case(tmp_path, text + "inspection: {interval_years: 1, report_days: 1}\n")
    for kind in ("maintenance-agreement", "maintenance-easement"):
        html = api.build(kind, case, Options(review=review)).html
        words = re.sub(r"<[^>]+>", "", html)
        assert "once every year" in words, kind
        assert re.search(r"(?i)within one \(1\) day after each inspection", words), kind
        assert not re.search(r"\(1\) (years|days)|one (years|days)", words), kind
