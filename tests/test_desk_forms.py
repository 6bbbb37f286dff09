"""The desk's forms: built from the case models, and typed values back into case data."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.demo import sample_cases
from docgen.desk.base import forms
from docgen.documents import KINDS
from docgen.errors import Problem
from docgen.law.packs import load_pack, pack_names

SAMPLES = [(kind, path) for kind, path in sample_cases() if kind in KINDS]


def leaves(node: forms.Node, path: str = ""):
    for child in node.children:
        here = f"{path}.{child.key}" if path else child.key
        if child.widget == "group":
            yield from leaves(child, here)
        elif child.widget == "repeat":
            row = child.item
            yield from leaves(row, f"{here}[0]") if row.widget == "group" else [(f"{here}[0]", row)]
        else:
            yield here, child


FORMS = [(k, j) for k in KINDS for j in pack_names() if load_pack(j).provides(k)]


@pytest.mark.parametrize(("kind", "jurisdiction"), FORMS, ids=[f"{k}-{j}" for k, j in FORMS])
def test_every_input_is_labelled_and_named_once(kind, jurisdiction):
    found = list(leaves(forms.form_for(kind, jurisdiction)))
    names = [path for path, _ in found]
    assert len(names) == len(set(names))
    assert not set(forms.not_asked(kind)) & {name.split("[")[0] for name in names}
    for path, node in found:
        assert node.label.strip(), path
        assert node.widget in {
            "text",
            "textarea",
            "date",
            "select",
            "number",
            "decimal",
            "tel",
            "upload",
        }


@pytest.mark.parametrize("kind", ["maintenance-easement", "maintenance-agreement"])
def test_the_map_exhibit_is_a_file_sent_never_a_path_typed(kind):
    """Exhibits are the case's files, not the server's (issue 29 item 5): the desk asks for
    the map as an upload (docgen.desk.drafting.uploads), beside its provision."""
    (path, node), *others = forms.uploads(forms.form_for(kind, "homer")).items()
    assert (path, node.widget, others) == ("easement.exhibit", "upload", [])
    assert node.citation in ("§ 228-78D(3)", "§ 228-78D(5)")
    assert forms.uploads(forms.form_for("notice-of-violation", "homer")) == {}


def test_notice_form_speaks_the_law():
    found = dict(leaves(forms.form_for("notice-of-violation", "homer")))
    nature = found["violations[0].nature"]
    assert (nature.label, nature.hint) == ("Nature", "what the violation is")
    assert nature.citation == "§ 228-79C(1)(c)"
    assert found["remedies[0].due"].widget == "date"
    assert found["remedies[0].due"].citation == "§ 228-79C(1)(d)"
    assert found["recipient.role"].choices == ("landowner", "developer", "applicant")
    assert not any(path.startswith("prior_offenses") for path in found)  # the register's


SERVED = sorted(k for k in KINDS if KINDS[k].served)


@pytest.mark.parametrize("kind", SERVED)
def test_a_served_kinds_draft_does_not_ask_for_its_service(kind):
    """Print first, serve second (LAW.md § 2): service is recorded as events on the issued
    document, so the draft has no service fields, and one typed anyway is not taken."""
    assert "served" in forms.not_asked(kind)
    assert not any(path.startswith("served") for path, _ in leaves(forms.form_for(kind, "homer")))
    typed = [["served.date", "2026-11-20"], ["served.means", "mail"], ["issued", "2026-11-16"]]
    assert forms.case_data(kind, "homer", typed)["issued"] == "2026-11-16"
    assert "served" not in forms.case_data(kind, "homer", typed)


def test_a_kind_not_served_is_asked_for_what_its_case_takes():
    assert forms.not_asked("maintenance-easement") == forms.SET_BY_DESK


def test_citations_naming_a_pack_value_are_resolved_per_jurisdiction():
    homer = dict(leaves(forms.form_for("maintenance-easement", "homer")))
    macedon = dict(leaves(forms.form_for("maintenance-easement", "macedon")))
    assert "228" in homer["counsel.name"].citation
    assert "301" in macedon["counsel.name"].citation


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=[f"{k}/{p.stem}" for k, p in SAMPLES])
def test_a_filled_in_form_gives_back_the_sample_case(kind, path: Path):
    data = read_case_file(path)
    pairs = forms.pairs_of({k: v for k, v in data.items() if k not in forms.SET_BY_DESK})
    typed = forms.case_data(kind, data["jurisdiction"], pairs)
    expected = {k: v for k, v in data.items() if k not in forms.not_asked(kind)}
    expected["jurisdiction"] = data["jurisdiction"]
    if "number" in data:
        expected["number"] = forms.DRAFT_NUMBER
    model = KINDS[kind].model  # typed text is text: compare what the law reads
    assert model.model_validate(typed) == model.model_validate(expected)
    api.check(kind, typed)


def test_blank_inputs_and_rows_are_left_out_so_the_law_reports_them():
    pairs = [
        ["recipient.name", "  "],
        ["violations[0].nature", "Silt fence down"],
        ["violations[1].nature", ""],
        ["violations[1].observed", ""],
        ["served.date", ""],
        ["jurisdiction", "macedon"],  # set by the desk, not by a post
    ]
    data = forms.case_data("notice-of-violation", "homer", pairs)
    assert data == {
        "violations": [{"nature": "Silt fence down"}],
        "jurisdiction": "homer",
        "number": forms.DRAFT_NUMBER,
    }


def test_rows_added_and_removed_keep_what_was_typed():
    pairs = [["remedies[0].measure", "Seed"], ["remedies[1].measure", "Mulch"]]
    assert forms.rows(pairs, "remedies") == 2
    added = forms.with_row(pairs, "remedies")
    assert forms.rows(added, "remedies") == 3
    assert forms.without_row(added, "remedies", 0) == [
        ["remedies[0].measure", "Mulch"],
        ["remedies[1]", ""],
    ]


def test_problems_land_beside_the_nearest_input_shown():
    shown = {"violations", "violations[0]", "violations[0].observed", "site"}
    errors = forms.errors_of(
        [
            Problem("violations[0].observed", "after the issue date", "§ 228-79C(1)(c)"),
            Problem("site.address.zip", "not a ZIP code"),
            Problem("number", "is required"),
        ],
        shown,
        "notice-of-violation",
    )
    assert [p.message for p in errors.at("violations[0].observed")] == ["after the issue date"]
    assert [p.message for p in errors.at("site")] == ["not a ZIP code"]
    assert [where for _, where in errors.ordered] == ["violations[0].observed", "site", ""]
    assert forms.input_id("violations[0].observed") == "f-violations-0-observed"
