"""§ 228-79C(4) as pure functions: every reading of shared/LAW.md §4 at its boundaries."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import write_case

from docgen import api
from docgen.cases.penalty import Offense, PriorOffense
from docgen.documents.penalty_statement import penalty_provision
from docgen.errors import CaseInvalid, UnsupportedKind
from docgen.law.packs import load_pack
from docgen.law.penalties import Charged, assess, years_before

CASES = yaml.safe_load((Path(__file__).parent / "data" / "penalties.yaml").read_text())
HOMER = load_pack("homer")


def run(case):
    if "offense" in case:
        charged = [Charged.offense(Offense(**case["offense"]))]
    else:
        charged = [
            Charged.listed(i, v["observed"], v.get("continued_through"))
            for i, v in enumerate(case["violations"])
        ]
    priors = [PriorOffense(**p) for p in case["priors"]]
    return assess(charged, priors, case["statement"], HOMER, penalty_provision(HOMER))


# What each key of a case's ``expect`` checks, given the assessment and its JSON. A key
# not here is a mistake in the table and fails (expectation_problems): a misspelled key
# must not pass by checking nothing.
EXPECTATIONS: dict[str, Callable[[Any, dict[str, Any], Any], bool]] = {
    "offense_number": lambda a, got, v: got["offense_number"] == v,
    "tier": lambda a, got, v: got["tier"] == v,
    "violations": lambda a, got, v: got["violations"] == v,
    "min": lambda a, got, v: got["fine_min_per_violation"] == v,
    "max": lambda a, got, v: got["fine_max_per_violation"] == v,
    "total_min": lambda a, got, v: got["total_fine_min"] == v,
    "total_max": lambda a, got, v: got["total_fine_max"] == v,
    "lookback_start": lambda a, got, v: a.lookback_start == v,
    "excluded": lambda a, got, v: len(a.excluded) == v,
    "counted": lambda a, got, v: len(a.counted) == v == a.offense_number - 1,
    "counts": lambda a, got, v: [c["count"] for c in got["counts"]] == v,
    "counted_reason": lambda a, got, v: bool(a.counted) and all(v in f.reason for f in a.counted),
    "first_reason": lambda a, got, v: v in a.counted[0].reason,
    "counted_reason_not": lambda a, got, v: all(v not in f.reason for f in a.counted),
    "excluded_reason": lambda a, got, v: (
        bool(a.excluded) and all(v in f.reason for f in a.excluded)
    ),
}
CASE_KEYS = {"name", "statement", "offense", "violations", "priors", "expect", "error"}


def unknown_keys(case: dict[str, Any]) -> list[str]:
    """Each key of the case, and of its ``expect``, that the table does not know."""
    unknown = sorted(set(case) - CASE_KEYS) + sorted(
        set(case.get("expect", {})) - set(EXPECTATIONS)
    )
    return [f"unknown key {key!r} in {case['name']!r}" for key in unknown]


def expectation_problems(case: dict[str, Any]) -> list[str]:
    """The case's unknown keys, else each of its expectations not met."""
    if unknown_keys(case):
        return unknown_keys(case)
    a = run(case)
    got = a.as_json("homer")
    return [
        f"{key}: expected {value!r}"
        for key, value in case["expect"].items()
        if not EXPECTATIONS[key](a, got, value)
    ]


@pytest.mark.parametrize("case", [c for c in CASES if "expect" in c], ids=lambda c: c["name"])
def test_assessment(case):
    assert expectation_problems(case) == []


def test_a_misspelled_expectation_key_fails():
    case = {**CASES[0], "expect": {**CASES[0]["expect"], "total_mx": "3500.00"}}
    assert expectation_problems(case) == [f"unknown key 'total_mx' in {CASES[0]['name']!r}"]
    assert expectation_problems({**CASES[0], "expekt": {}}) == [
        f"unknown key 'expekt' in {CASES[0]['name']!r}"
    ]


def test_an_expectation_not_met_is_named():
    case = {**CASES[0], "expect": {**CASES[0]["expect"], "total_max": "3499.99"}}
    assert expectation_problems(case) == ["total_max: expected '3499.99'"]


def test_every_case_of_the_table_uses_known_keys_only():
    assert [problem for case in CASES for problem in unknown_keys(case)] == []


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
        penalty_provision(load_pack("macedon"))
    assert penalty_provision(HOMER) == "§ 228-79C(4)"


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
        "counts",
        "total_fine_min",
        "total_fine_max",
        "counted_priors",
        "excluded_priors",
    }
    assert (out["offense_number"], out["tier"], out["violations"]) == (2, 2, 5)
    assert (out["total_fine_min"], out["total_fine_max"]) == ("1750.00", "3500.00")
    assert out["excluded_priors"][0]["reason"].startswith("not counted")
    assert out["counts"] == [
        {"index": 0, "committed": "2026-10-01", "continued_through": "2026-10-29", "count": 5}
    ]
    json.dumps(out)


def test_penalty_json_counts_each_listed_violation(tmp_path):
    """`docgen penalty --json` on a notice: violations is the total, counts one per violation."""
    from conftest import ROOT

    out = api.penalty(
        ROOT / "fixtures" / "notice-of-violation" / "homer-second-offense-continued.yaml"
    )
    assert out["violations"] == 6
    assert [(c["committed"], c["continued_through"], c["count"]) for c in out["counts"]] == [
        ("2026-10-01", "2026-10-29", 5),
        ("2026-10-29", None, 1),
    ]


def test_penalty_refuses_a_key_it_does_not_read(tmp_path):
    """A misspelled prior_offences must never print a first offense (reading 6)."""
    path = write_case(
        tmp_path,
        """
jurisdiction: homer
issued: 2026-11-03
offense: {committed: 2026-10-01}
prior_offences:
  - {committed: 2023-06-01, disposition: convicted, convicted: 2023-09-01}
""",
    )
    with pytest.raises(CaseInvalid) as err:
        api.penalty(path)
    (problem,) = err.value.problems
    assert problem.field == "prior_offences"
    assert "did you mean prior_offenses?" in problem.message


def test_penalty_offense_dates_one_violation_only(tmp_path):
    path = write_case(
        tmp_path,
        """
jurisdiction: homer
issued: 2026-11-03
offense: {committed: 2026-10-01}
violations:
  - {provision: "§ 228-78D(1)", nature: silt fence, observed: 2026-10-01}
  - {provision: "§ 228-79A(1)", nature: work, observed: 2026-10-02}
""",
    )
    with pytest.raises(CaseInvalid) as err:
        api.penalty(path)
    assert [p.field for p in err.value.problems] == ["offense"]
    assert "each counts on its own" in err.value.problems[0].message
