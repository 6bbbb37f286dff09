"""Values are never misread: identifiers as written, money in four spellings only, no
yes/no where a number or text belongs, no text that prints nothing, no noncharacters or
broken surrogates, dates from 1900 to 2099."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT, write_case

from docgen import api
from docgen.cases.loader import parse_case_text
from docgen.errors import CaseInvalid
from tests.helpers.cli import docgen

PENALTY = (ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml").read_text()
AGREEMENT = (ROOT / "fixtures" / "maintenance-agreement" / "homer-individual.yaml").read_text()


def problems(tmp_path, text: str, kind: str = "penalty-statement") -> str:
    with pytest.raises(CaseInvalid) as err:
        api.check(kind, write_case(tmp_path, text))
    return str(err.value)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("06470", "06470"),  # octal to YAML 1.1: 3384
        ("0x1F", "0x1F"),
        ("1_000", "1_000"),
        ("1:30", "1:30"),  # base 60 to YAML 1.1: 90
        ("+5", "+5"),
        ("48500.10", "48500.10"),
        ("1e28", "1e28"),
        ("13077", 13077),
        ("-5", -5),
    ],
)
def test_numbers_are_read_as_written(written, read):
    assert parse_case_text(f"value: {written}\n")["value"] == read


def test_json_decimals_are_read_as_written():
    assert parse_case_text('{"a": 48500.10, "b": 7}', "x.json") == {"a": "48500.10", "b": 7}


def test_an_unquoted_zip_code_prints_as_written(tmp_path):
    case = write_case(tmp_path, PENALTY.replace('zip: "13077"', "zip: 06470"))
    doc = api.build("penalty-statement", case)
    assert "Homer, NY 06470" in doc.html and "03384" not in doc.html


def test_a_zip_code_that_lost_its_zero_is_refused_with_a_way_out(tmp_path):
    found = problems(tmp_path, PENALTY.replace('zip: "13077"', "zip: 6470"))
    assert "recipient.address.zip" in found and 'quote it, e.g. zip: "06470"' in found


def test_a_tax_map_number_is_never_a_number(tmp_path):
    text = re.sub(r"tax_map: .*", "tax_map: 87.10", AGREEMENT)
    assert "'87.10' is not a tax map number" in problems(tmp_path, text, "maintenance-agreement")


def amount(text: str) -> str:
    return re.sub(r"amount: [^}\n]*", f"amount: {text}", AGREEMENT)


@pytest.mark.parametrize(
    ("written", "value"),
    [("48500", "48500.00"), ("48500.00", "48500.00"), ('"48,500.00"', "48500.00"),
     ('"$48,500.00"', "48500.00"), ("7.5", "7.50")],
)  # fmt: skip
def test_the_four_ways_of_writing_money(tmp_path, written, value):
    from docgen.cases.loader import read_case_file
    from docgen.documents import KINDS

    data = read_case_file(write_case(tmp_path, amount(written)))
    case = KINDS["maintenance-agreement"].model.model_validate(data)
    assert str(case.security.amount) == value


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ('"25.000,00"', "is not an amount of money"),  # European: 25000, never $25.00
        ('"12,50"', "is not an amount of money"),  # never $1,250.00
        ('"48 500"', "is not an amount of money"),
        ('"USD 100"', "is not an amount of money"),
        ("1e28", "is not an amount of money"),
        ("0x10", "is not an amount of money"),
        ("48500.001", "more than two decimals"),
        ("-5", "is negative"),
        ('"$1,000,000,001"', "implausibly large"),
        ("yes", "yes/no value"),
    ],
)
def test_money_written_any_other_way_is_refused_naming_the_field(tmp_path, written, message):
    found = problems(tmp_path, amount(written), "maintenance-agreement")
    assert "security.amount: " in found and message in found


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("state: NY", "state: NO", "recipient.address.state"),
        ("role: landowner", "role: yes", "recipient.role"),
        ("name: Dana R. Whitcomb", "name: on", "officer.name"),
    ],
)
def test_a_yes_no_value_is_never_text(tmp_path, old, new, field):
    found = problems(tmp_path, PENALTY.replace(old, new))
    assert f"{field}: is a yes/no value" in found and "quote it" in found


def test_a_yes_no_value_is_never_a_number(tmp_path):
    text = re.sub(r"interval_years: \d+", "interval_years: yes", AGREEMENT)
    if text == AGREEMENT:
        text = AGREEMENT.replace("security:", "inspection: {interval_years: yes}\nsecurity:", 1)
    found = problems(tmp_path, text, "maintenance-agreement")
    assert "inspection.interval_years: is a yes/no value" in found


INVISIBLE = ["\u200b", "\u2060", "\u00ad", "\U000e0041\U000e007f", "\u3164", "\u2800",
             "\u200b\u2060\u00ad\u3164\u2800\ufe0f"]  # fmt: skip


@pytest.mark.parametrize("text", INVISIBLE, ids=[f"U+{ord(t[0]):04X}" for t in INVISIBLE])
def test_a_name_that_prints_nothing_is_missing_and_check_says_so(tmp_path, text):
    case = write_case(tmp_path, PENALTY.replace("name: Dana R. Whitcomb", f'name: "{text}"'))
    run = docgen("check", "penalty-statement", case)
    assert run.returncode == 1
    assert "Officer, name: is missing: it is empty or only invisible characters" in run.stderr


def test_a_name_with_an_invisible_character_inside_is_kept(tmp_path):
    case = write_case(tmp_path, PENALTY.replace("Dana R. Whitcomb", "Dana\u00adR. Whitcomb"))
    assert api.check("penalty-statement", case) == []


@pytest.mark.parametrize("escape", ["\\uFFFE", "\\uFFFF", "\\uFDD0", "\\U0010FFFF"])
def test_noncharacters_are_refused_naming_the_field(tmp_path, escape):
    found = problems(tmp_path, PENALTY.replace("name: Dana R. Whitcomb", f'name: "Dana{escape}"'))
    assert "officer.name: contains U+" in found and "noncharacter" in found


def test_a_lone_surrogate_is_refused_naming_the_field(tmp_path):
    from docgen.cases.loader import read_case_file

    data = read_case_file(write_case(tmp_path, PENALTY))
    data["officer"]["name"] = "Dana\ud800"
    text = json.dumps(data)  # JSON can carry half a surrogate pair; YAML cannot
    found = problems(tmp_path, text)
    assert "officer.name: contains U+D800, half of a surrogate pair" in found


@pytest.mark.parametrize(("day", "ok"), [("1899-12-31", False), ("1900-01-01", True),
                                         ("2099-12-31", True), ("2100-01-01", False),
                                         ("2126-11-16", False)])  # fmt: skip
def test_dates_from_1900_to_2099(tmp_path, day, ok):
    text = PENALTY.replace("issued: 2026-11-16", f"issued: {day}")
    if ok:  # other rules may object to a date so far from the offense; the range does not
        try:
            api.check("penalty-statement", write_case(tmp_path, text))
        except CaseInvalid as err:
            assert "outside 1900-2099" not in str(err)
    else:
        assert f"issued: year {day[:4].lstrip('0')} is outside 1900-2099" in problems(
            tmp_path, text
        )
