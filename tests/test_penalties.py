"""§ 228-79C(4) as pure functions: every reading of shared/LAW.md §4 at its boundaries."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import yaml
from conftest import write_case

from docgen import api
from docgen.cases.penalty import Offense, PriorOffense
from docgen.errors import CaseInvalid, UnsupportedKind
from docgen.law.packs import load_pack
from docgen.law.penalties import assess, years_before

CASES = yaml.safe_load((Path(__file__).parent / "data" / "penalties.yaml").read_text())
HOMER = load_pack("homer")


def run(case):
    offense = Offense(**case["offense"])
    priors = [PriorOffense(**p) for p in case["priors"]]
    return assess(offense, priors, case["statement"], HOMER)


@pytest.mark.parametrize("case", [c for c in CASES if "expect" in c], ids=lambda c: c["name"])
def test_assessment(case):
    a = run(case)
    got = a.as_json("homer")
    expect = case["expect"]
    for key, field in (
        ("offense_number", "offense_number"),
        ("tier", "tier"),
        ("violations", "violations"),
        ("min", "fine_min_per_violation"),
        ("max", "fine_max_per_violation"),
        ("total_min", "total_fine_min"),
        ("total_max", "total_fine_max"),
    ):
        if key in expect:
            assert got[field] == expect[key], field
    if "lookback_start" in expect:
        assert a.lookback_start == expect["lookback_start"]
    if "excluded" in expect:
        assert len(a.excluded) == expect["excluded"]
    if "excluded_reason" in expect:
        assert a.excluded and all(expect["excluded_reason"] in f.reason for f in a.excluded)


@pytest.mark.parametrize("case", [c for c in CASES if "error" in c], ids=lambda c: c["name"])
def test_impossible_history_names_the_field(case):
    with pytest.raises(CaseInvalid) as err:
        run(case)
    assert case["error"] in [p.field for p in err.value.problems]
    assert all(p.provision == "§ 228-79C(4)" for p in err.value.problems)


def test_money_is_decimal_and_comes_from_the_pack():
    a = run(CASES[0])
    assert isinstance(a.total_max, Decimal)
    assert a.tier.fine_max == HOMER.penalties.tiers[1].fine_max


def test_years_before_lands_on_feb_28_from_feb_29():
    assert years_before(date(2028, 2, 29), 5) == date(2023, 2, 28)
    assert years_before(date(2026, 10, 1), 5) == date(2021, 10, 1)


def test_macedon_has_no_penalty_provision():
    with pytest.raises(UnsupportedKind, match="no penalty provision"):
        assess(Offense(committed="2026-11-01"), [], date(2026, 11, 30), load_pack("macedon"))


def test_penalty_json_contract(tmp_path):
    path = write_case(
        tmp_path,
        """
jurisdiction: homer
issued: 2026-11-03
number: NOV-1
site: {description: ignored by the penalty command}
offense: {committed: 2026-10-01, continued_through: 2026-10-29}
prior_offenses:
  - {committed: 2023-06-01, disposition: convicted, convicted: 2023-09-01}
  - {committed: 2025-01-01, disposition: pending}
""",
    )
    out = api.penalty(path)
    assert set(out) == {
        "jurisdiction",
        "citation",
        "offense_number",
        "tier",
        "fine_min_per_violation",
        "fine_max_per_violation",
        "imprisonment_max_months",
        "violations",
        "total_fine_min",
        "total_fine_max",
        "counted_priors",
        "excluded_priors",
    }
    assert (out["offense_number"], out["tier"], out["violations"]) == (2, 2, 5)
    assert (out["total_fine_min"], out["total_fine_max"]) == ("1750.00", "3500.00")
    assert out["excluded_priors"][0]["reason"].startswith("not counted")
    json.dumps(out)
