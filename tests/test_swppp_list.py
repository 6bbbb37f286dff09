"""The SWPPP's list of contents is the pack's data (LAW.md § 15): each item of
§ 228-78B(2) and § 301-71B with its words copied from the seeds and its citation; an
adopter's list is checked by `pack check` like any value (id, words, citation; ids unique)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from docgen.law.pack import Swppp
from docgen.law.packs import load_pack
from docgen.pack_check import check_pack_file

ROOT = Path(__file__).resolve().parents[1]
SEED = {"homer": "homer-ch228-art12.txt", "macedon": "macedon-ch301-art14.txt"}
MARK = re.compile(r" (\[[a-z]\]|\([a-c]\)) ")


def seed_text(jurisdiction: str) -> str:
    return (ROOT / "tests" / "law_text" / SEED[jurisdiction]).read_text("utf-8")


@pytest.mark.parametrize(
    ("jurisdiction", "count", "first", "last"),
    [
        ("homer", 25, "§ 228-78B(2)(a)[1]", "§ 228-78B(2)(c)[11]"),
        ("macedon", 27, "§ 301-71B(1)(a)", "§ 301-71B(3)(j)"),
    ],
)
def test_each_item_is_the_law_s_words_verbatim_with_its_citation(jurisdiction, count, first, last):
    law = seed_text(jurisdiction)
    lines = set(law.split("\n"))
    items = load_pack(jurisdiction).part("swppp").items
    assert len(items) == count and items[0].ref == first and items[-1].ref == last
    for item in items:
        # an item with sub-items ([a]-[f], Conditions (a)-(c)) joins its lines with their marks
        for piece in MARK.split(item.words)[::2]:
            assert piece in lines, (item.id, piece[:60])


def test_the_lists_flag_what_applies_only_where_it_applies():
    homer = load_pack("homer").part("swppp")
    assert [i.ref for i in homer.items if i.part == "where-it-applies"] == ["§ 228-78B(2)(b)"]
    assert homer.approve.ref == "§ 228-77D(4)" and "shall approve the SWPPP" in homer.approve.value
    macedon = load_pack("macedon").part("swppp")
    assert macedon.received_by.value == "the appropriate board"
    assert macedon.received_by.ref == "§ 301-71A" and macedon.approve is None
    water = macedon.item("water-controls")
    assert water is not None and "Condition C:" in water.words and water.may_not_apply


def test_an_adopters_list_is_data_that_pack_check_reads():
    lines: list[str] = []
    failures = check_pack_file(ROOT / "tests" / "data" / "packs" / "alderbrook.yaml", lines.append)
    assert failures == 0
    assert any(line.startswith("swppp list (§ 412-31B(2)): 3 items") for line in lines)


def test_an_item_without_words_or_with_a_second_id_is_refused():
    item = {"id": "soils", "label": "Soils", "words": "Description of soils;", "ref": "§ 1"}
    base = {"ref": "§ 1", "received_by": {"value": "CEO", "ref": "§ 1"}}
    base["before_review"] = {"value": "No application ...", "ref": "§ 1"}
    with pytest.raises(ValidationError, match="two items have the id 'soils'"):
        Swppp.model_validate({**base, "items": [{**item, "part": "contents"}] * 2})
    with pytest.raises(ValidationError, match="words"):
        Swppp.model_validate({**base, "items": [{**item, "words": " ", "part": "contents"}]})
    with pytest.raises(ValidationError, match="ref"):
        Swppp.model_validate({**base, "items": [{**item, "ref": "", "part": "contents"}]})
