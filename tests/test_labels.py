"""The clerk's words: every problem a check finds in the sample cases, with fields removed,
dates made impossible and choices made up, said with the form's labels and places (rows
counted from 1), never a path, flag, key or slug; and `docgen check` saying the same (the
case file's paths only with --paths)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.casewalk import del_in, dotted, leaves, set_in
from helpers.clerk_words import developer_words
from helpers.cli import docgen

from docgen import api
from docgen.cases import labels
from docgen.cases.loader import read_case_file
from docgen.documents import get_kind
from docgen.errors import CaseInvalid, DocgenError, Problem, cited, without_notes
from docgen.law.packs import load_pack

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(ROOT.glob("fixtures/*/*.yaml"))


def _paths(data, path=()):
    """Every key and row of ``data``: each one a field a clerk may leave blank."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*path, key)
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield (*path, i)
            yield from _paths(value, (*path, i))


def _spoiled(kind: str, data: dict):
    """The sample with one thing wrong: a field removed, a date impossible, a choice made up."""
    for path in _paths(data):
        if path != ("jurisdiction",):
            yield del_in(data, path)
    for path, _, what in leaves(get_kind(kind).model, data):
        if what == "date":
            yield set_in(data, path, "2026-02-30")
        if what == "literal":
            yield set_in(data, path, "something else")


def _problems(kind: str, data: dict) -> list[Problem]:
    try:
        api.check(kind, data)
    except CaseInvalid as err:
        return err.problems
    except DocgenError:
        return []
    return []


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_problem_of_a_sample_with_a_field_wrong_is_in_the_clerks_words(sample):
    kind, data = sample.parent.name, read_case_file(sample)
    model = get_kind(kind).model
    said = {}
    for case in _spoiled(kind, data):
        for problem in _problems(kind, case):
            said[labels.in_words(problem, model)] = problem
    assert len(said) > 5
    unreadable = {text: developer_words(text) for text in said if developer_words(text)}
    assert unreadable == {}
    for text, problem in said.items():
        assert "[" not in text and (not problem.field or ": " in text)


def test_a_place_counts_rows_from_one_and_uses_the_labels():
    model = get_kind("notice-of-violation").model
    assert labels.place(model, "remedies[0].measure") == "Remedy 1, measure"
    continued = labels.place(model, "violations[2].continued_through")
    assert continued == "Violation 3, continued through"
    assert labels.place(model, "recipient.address.zip") == "Recipient, address, ZIP code"
    assert labels.place(model, "copies_to[1].certified_article") == (
        "Party 2, certified-mail article number"
    )
    order = get_kind("stop-work-order").model
    assert labels.place(order, "notices[1]") == "Notice 2"


def test_a_missing_field_names_the_provision_that_requires_it():
    model = get_kind("notice-of-violation").model
    cite = load_pack("homer").cite("enforcement.elements.remedies")
    problem = Problem("remedies[0].measure", "is required", cite)
    assert labels.in_words(problem, model) == f"Remedy 1, measure: missing. {cite} requires it."


def test_choices_are_words():
    assert labels.choice("certified-mail") == "Certified mail, return receipt requested"
    assert labels.choice("llc") == "Limited liability company"
    assert labels.choice("letter_of_credit") == "Letter of credit"
    assert labels.choice("landowner") == "Landowner"


def test_an_impossible_date_is_said_to_be_impossible():
    model = get_kind("notice-of-violation").model
    data = read_case_file(ROOT / "fixtures/notice-of-violation/homer-first-offense.yaml")
    found = _problems("notice-of-violation", set_in(data, ("served", "date"), "2026-02-30"))
    said = [labels.in_words(p, model) for p in found]
    assert any(
        s.startswith("Served, date of service: 30 February 2026 is not a real calendar date")
        for s in said
    ), said


def _broken_notice(tmp_path: Path) -> Path:
    import yaml

    data = read_case_file(ROOT / "fixtures/notice-of-violation/homer-first-offense.yaml")
    data = del_in(set_in(data, ("recipient", "role"), "owner"), ("remedies", 0, "measure"))
    data = set_in(data, ("served", "date"), "2026-02-30")
    case = tmp_path / "notice.yaml"
    case.write_text(yaml.safe_dump(data), encoding="utf-8")
    return case


def test_check_says_what_the_desk_says(tmp_path):
    case = _broken_notice(tmp_path)
    result = docgen("check", "notice-of-violation", case)
    assert result.returncode == 1
    cite = load_pack("homer").cite("enforcement.elements.remedies")
    assert f"Remedy 1, measure: missing. {cite} requires it." in result.stderr
    assert "Recipient, role: choose one of landowner, developer or applicant" in result.stderr
    assert "Served, date of service: 30 February 2026 is not a real calendar date" in (
        result.stderr
    )
    assert "3 problems" in result.stderr
    assert developer_words(result.stderr.replace(str(case), "the case")) == []
    assert docgen("check", "--labels", "notice-of-violation", case) == result  # as it was asked


def test_check_names_the_case_files_paths_when_asked(tmp_path):
    result = docgen("check", "--paths", "notice-of-violation", _broken_notice(tmp_path))
    assert result.returncode == 1
    assert "remedies[0].measure: is required" in result.stderr
    assert "recipient.role:" in result.stderr and dotted(("served", "date")) in result.stderr


@pytest.mark.parametrize("kind", ["notice-of-violation", "stop-work-order"])
@pytest.mark.parametrize("method", ["posted at the site entrance", "by certified mail"])
def test_a_method_of_service_that_would_not_follow_by_is_refused(kind, method):
    """The certificate of service prints "served ... by METHOD": "by posted at the site
    entrance" never reaches a document."""
    sample = next(ROOT.glob(f"fixtures/{kind}/*.yaml"))
    data = set_in(read_case_file(sample), ("served", "method"), method)
    found = [p for p in _problems(kind, data) if p.field == "served.method"]
    assert found and f"'{method}'" in found[0].message
    said = labels.in_words(found[0], get_kind(kind).model)
    assert said.startswith(f"Served, method of service in words: '{method}'")
    fixed = set_in(data, ("served", "method"), "posting at the site entrance")
    assert not [p for p in _problems(kind, fixed) if p.field == "served.method"]


def test_the_design_notes_are_not_cited_to_the_clerk():
    """A rule's reference to the notes it was designed from (LAW.md) is for the reader of
    the code; the clerk reads the provision."""
    model = get_kind("stop-work-order").model
    problem = Problem("effective", "is before service (LAW.md § 3)", "§ 1-2C(2); LAW.md § 3")
    assert labels.in_words(problem, model) == "Effective: is before service (§ 1-2C(2))"
    assert labels.without_notes("(CPLR 2103(b)(2), by analogy; LAW.md § 2)") == (
        "(CPLR 2103(b)(2), by analogy)"
    )
    # Every way the register's refusals cite the notes (docgen.errors.cited, one place).
    assert cited("§ 228-79C(4); LAW.md § 4, reading 13") == "§ 228-79C(4)"
    assert cited("x; LAW.md § 2; LAW.md § 10") == "x" and cited("LAW.md § 2, § 9") == ""
    assert cited("LAW.md §§ 3, 10", "Village of Homer practice") == "Village of Homer practice"
    assert cited("model term") == "a term of the model agreement"
    kept = "keep it (LAW.md § 2(a): the document names whom the register holds it against)"
    assert without_notes(kept) == "keep it (the document names whom the register holds it against)"
    assert str(Problem("date", "x (LAW.md § 3)", "LAW.md § 3")) == "date: x"
