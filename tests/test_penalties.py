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
    return assess(charged, priors, case["statement"], HOMER)


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
    if "counted" in expect:
        assert len(a.counted) == expect["counted"] == a.offense_number - 1
    if "counts" in expect:
        assert [c["count"] for c in got["counts"]] == expect["counts"]
    if "counted_reason" in expect:
        assert a.counted and all(expect["counted_reason"] in f.reason for f in a.counted)
    if "first_reason" in case:
        assert case["first_reason"] in a.counted[0].reason
    if "counted_reason_not" in expect:
        assert all(expect["counted_reason_not"] not in f.reason for f in a.counted)
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
        assess([Charged(date(2026, 11, 1))], [], date(2026, 11, 30), load_pack("macedon"))


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
