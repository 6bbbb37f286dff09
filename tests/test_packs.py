"""Jurisdiction packs: every value cited, prescribed wording verbatim from the law."""

from __future__ import annotations

import pytest
from conftest import LAW_TEXT

from docgen.law.pack import load_pack, pack_names, uncited

LAW = {
    "homer": (LAW_TEXT / "homer-ch228-art12.txt").read_text(encoding="utf-8"),
    "macedon": (LAW_TEXT / "macedon-ch301-art14.txt").read_text(encoding="utf-8"),
}


@pytest.mark.parametrize("name", pack_names())
def test_every_pack_value_carries_a_citation(name):
    assert list(uncited(load_pack(name)._data)) == []


@pytest.mark.parametrize("name", ["homer", "macedon"])
def test_certification_statement_is_the_law_verbatim(name):
    statement = load_pack(name).value("certification.statement")
    assert f'"{statement}"' in LAW[name]
    other = "macedon" if name == "homer" else "homer"
    assert f'"{statement}"' not in LAW[other]


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("homer", "enforcement.injunction"),
        ("homer", "enforcement.certificate_of_occupancy"),
        ("homer", "enforcement.restoration"),
        ("homer", "enforcement.fees"),
        ("homer", "penalties.misdemeanor_clause"),
        ("homer", "agreement.dedication"),
        ("macedon", "agreement.dedication"),
        ("homer", "certification.part_of_swppp"),
        ("macedon", "certification.part_of_swppp"),
    ],
)
def test_quoted_provisions_are_verbatim(name, key):
    assert load_pack(name).value(key) in LAW[name]


def test_penalty_tiers_match_the_text_of_228_79c4():
    tiers = load_pack("homer").penalties.tiers
    text = LAW["homer"]
    assert [t.fine_max for t in tiers] == ["350", "700", "1000"]
    assert [t.fine_min for t in tiers] == [None, "350", "700"]
    for tier in tiers:
        assert tier.text.split(" for conviction")[0].replace("$1,000", "$1,000") in text
    assert "within a period of five years" in text
    assert (
        "Each week's continued violation shall constitute a separate additional violation." in text
    )


def test_macedon_provides_no_enforcement_kinds():
    macedon = load_pack("macedon")
    for kind in ("notice-of-violation", "stop-work-order", "penalty-statement"):
        assert not macedon.provides(kind)
    for kind in ("contractor-certification", "maintenance-easement", "maintenance-agreement"):
        assert macedon.provides(kind)


def test_jurisdiction_facts():
    homer, macedon = load_pack("homer"), load_pack("macedon")
    assert (homer.value("name"), homer.value("county")) == ("Village of Homer", "Cortland")
    assert (macedon.value("name"), macedon.value("county")) == ("Town of Macedon", "Wayne")
    assert homer.value("counsel") == "counsel for the Village of Homer"
    assert macedon.value("counsel") == "attorney for the Town"
    assert "at reasonable times" in macedon.value("easement.access")
    assert "at reasonable times" not in homer.value("easement.access")
