"""The steps after the notice as each municipality's law gives them (§ 228-79C(5), (6);
LAW.md § 14): Macedon's article has neither provision, so each kind is refused naming what
is missing; the fictional adopter's pack provides each, and `pack check` renders each."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.helpers.enforcement_cases import cli, write_yaml

ROOT = Path(__file__).resolve().parents[1]
KINDS = {
    "occupancy-order": ("homer-occupancy", "withholding the certificate of occupancy"),
    "occupancy-release": ("homer-released", "no order preventing occupancy to release"),
    "restoration-notice": ("homer-restore", "the restoration of lands"),
    "restoration-cost": ("homer-cost", "the Town's corrective action"),
    "lien-notice": ("homer-lien", "a lien upon the property"),
    "lien-release": ("homer-paid", "no lien to release"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_macedon_refuses_each_step_naming_the_missing_provision(tmp_path, kind):
    sample, missing = KINDS[kind]
    data = yaml.safe_load((ROOT / "fixtures" / kind / f"{sample}.yaml").read_text("utf-8"))
    code, out = cli("check", kind, write_yaml(tmp_path, data | {"jurisdiction": "macedon"}))
    assert code == 1 and f"Town of Macedon cannot issue a {kind}" in out, out
    assert missing in out and "Homer's is § 228-79C(" in out, out
    assert "Traceback" not in out


def test_the_fictional_pack_provides_each_step_and_pack_check_renders_it():
    code, out = cli("pack", "check", ROOT / "tests" / "data" / "packs" / "alderbrook.yaml")
    assert code == 0, out
    for kind in KINDS:
        assert f"{kind:<26} renders (pdf, docx, html)" in out, (kind, out)


def test_the_cost_statement_refuses_a_total_its_items_do_not_make(tmp_path):
    data = yaml.safe_load(
        (ROOT / "fixtures" / "restoration-cost" / "homer-cost.yaml").read_text("utf-8")
    )
    data["total"] = "1500.00"
    code, out = cli("check", "restoration-cost", write_yaml(tmp_path, data))
    assert code == 1 and "$1,500.00 is not the sum of the items ($1,460.50)" in out, out
    assert "§ 228-79C(6)" in out
