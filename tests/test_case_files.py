"""Case files: strict parsing, every problem at once, each naming field and provision."""

from __future__ import annotations

import pytest
from conftest import write_case

from docgen import api
from docgen.cases.loader import parse_case_text
from docgen.errors import CaseFileError, CaseInvalid, UnsupportedKind

GOOD = """
jurisdiction: homer
number: PS-1
issued: 2026-11-03
officer: {name: Dana Whitcomb, title: Code Enforcement Officer}
recipient:
  name: A. Landowner
  role: landowner
  address: {street: 1 Main St, city: Homer, state: NY, zip: 13077}
offense: {committed: 2026-11-01, nature: silt fence down, provision: "§ 228-78D(1)"}
"""


def problems(tmp_path, text, kind="penalty-statement"):
    with pytest.raises(CaseInvalid) as err:
        api.check(kind, write_case(tmp_path, text))
    return {p.field: p for p in err.value.problems}


def test_good_case_checks(tmp_path):
    assert api.check("penalty-statement", write_case(tmp_path, GOOD)) == []


def test_every_problem_is_reported_at_once_with_its_provision(tmp_path):
    text = GOOD.replace("role: landowner", "role: tenant").replace(
        "issued: 2026-11-03", "issued: 2026-02-30"
    )
    text = text.replace("  name: A. Landowner\n", "") + "colour: blue\n"
    found = problems(tmp_path, text)
    assert set(found) == {"issued", "recipient.name", "recipient.role", "colour"}
    assert found["recipient.name"].message == "is required"
    assert found["recipient.name"].provision == "§ 228-79C(1)(a)"
    assert "not a real calendar date" in found["issued"].message
    assert "not a key this document accepts" in found["colour"].message


def test_json_case_files(tmp_path):
    path = write_case(tmp_path, '{"jurisdiction": "homer", "issued": "2026-11-03"}', "c.json")
    with pytest.raises(CaseInvalid) as err:
        api.check("penalty-statement", path)
    assert {"number", "officer", "recipient"} <= {p.field for p in err.value.problems}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("a: 1\na: 2\n", "duplicate key 'a'"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ("- 1\n- 2\n", "must be a mapping"),
        ("a: &x [1]\nb: *x\n", "aliases"),
        ("a: [1, 2\n", "not valid YAML"),
        ("{bad json", "not valid"),
    ],
)
def test_broken_files_are_clear_errors(text, message):
    with pytest.raises(CaseFileError, match=message):
        parse_case_text(text)


def test_dates_are_text_until_validated():
    assert parse_case_text("issued: 2026-02-30\n") == {"issued": "2026-02-30"}


def test_unknown_jurisdiction_and_unsupported_kind(tmp_path):
    found = problems(tmp_path, GOOD.replace("homer", "ithaca"))
    assert "ithaca" in found["jurisdiction"].message
    with pytest.raises(UnsupportedKind, match="Town of Macedon cannot issue a penalty statement"):
        api.check("penalty-statement", write_case(tmp_path, GOOD.replace("homer", "macedon")))


def test_missing_file_is_a_case_file_error(tmp_path):
    with pytest.raises(CaseFileError, match="cannot read"):
        api.check("penalty-statement", tmp_path / "nope.yaml")


def test_schema_lists_keys_and_provisions():
    schema = api.schema("penalty-statement")
    assert {"jurisdiction", "offense", "prior_offenses", "recipient"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False
    assert "'provision': '@penalties'" in str(schema)  # a pack value: the law of each place
    assert "'provision': '§ 228-79C(4)'" in str(api.schema("penalty-statement", "homer"))
