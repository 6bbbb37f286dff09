"""The penalty of § 228-79C(4) as served documents state it (LAW.md § 4, readings 8-12), and
the provisions a violation may cite (§ 228-79C(1)(c)): each read back from the rendered PDF
and DOCX, not from the HTML the engines are fed."""

from __future__ import annotations

import copy

import pytest
from conftest import ROOT

from docgen import api
from docgen.errors import CaseInvalid
from docgen.law.packs import ENV, load_pack
from docgen.law.provisions import citation_problem
from tests.helpers.enforcement_cases import case_data, squash, write_yaml
from tests.helpers.readback import docx_text, pdf_text

STATEMENT = ROOT / "fixtures" / "penalty-statement" / "homer-second-offense-continued.yaml"
NOTICE = ROOT / "fixtures" / "notice-of-violation" / "homer-second-offense-continued.yaml"
SEALED = [
    {
        "committed": "2025-02-03",
        "disposition": "dismissed",
        "reference": "Homer Village Court docket 25-0077",
    },
    {
        "committed": "2025-03-04",
        "disposition": "acquitted",
        "reference": "Cortland County Court indictment 25-118",
    },
    {"committed": "2025-04-05", "disposition": "withdrawn", "reference": "NOV-2025-0031"},
    {"committed": "2026-07-04", "disposition": "pending", "reference": "Homer docket 26-0200"},
]


def texts(kind: str, data: dict) -> list[str]:
    """The PDF's and the DOCX's text, white space squashed."""
    doc = api.build(kind, data)
    return [
        squash(pdf_text(api.to_bytes(doc, "pdf"))),
        squash(docx_text(api.to_bytes(doc, "docx"))),
    ]


@pytest.fixture(scope="module")
def statement_with_history() -> list[str]:
    """The second-offense statement, its history with every disposition that does not count
    and two counts convicted together under one docket."""
    data = case_data(STATEMENT)
    data["prior_offenses"] = [
        *SEALED,
        {
            "committed": "2023-06-01",
            "disposition": "convicted",
            "convicted": "2023-09-14",
            "reference": "Homer Village Court docket 23-0412",
        },
        {
            "committed": "2023-06-20",
            "disposition": "convicted",
            "convicted": "2023-09-14",
            "reference": "Homer Village Court docket 23-0412, count 2",
        },
    ]
    return texts("penalty-statement", data)


def test_matters_without_a_conviction_are_never_printed_with_court_or_docket(
    statement_with_history,
):
    """Reading 10: a served document prints only the priors that count."""
    for text in statement_with_history:
        for prior in SEALED:
            assert squash(prior["reference"]) not in text
        for word in ("dismissed", "acquitted", "pending"):
            assert squash(f"disposition is {word}") not in text
        assert squash("Homer Village Court docket 23-0412") in text
        assert squash("is not stated on this document. (CPL 160.50)") in text


def test_two_counts_convicted_together_are_one_prior(statement_with_history):
    """Reading 8: convictions entered on one date are one prior, so a second offense."""
    for text in statement_with_history:
        assert squash("If convicted, this would be a second offense within five years") in text
        assert squash("one prior conviction, entered before the current offense") in text
        assert squash("one prior with the other conviction entered the same day") in text
        assert squash("third offense") not in text


def test_a_conviction_after_the_current_offense_does_not_raise_it():
    """Reading 9 (revised): convicted after the current offense was committed, not counted,
    and (reading 10) not printed; the basis says why."""
    data = case_data(STATEMENT)
    data["prior_offenses"] = [
        {
            "committed": "2026-06-02",
            "disposition": "convicted",
            "convicted": "2026-10-20",
            "reference": "Homer Village Court docket 26-0150",
        }
    ]
    for text in texts("penalty-statement", data):
        assert squash("If convicted, this would be a first offense") in text
        assert squash("docket 26-0150") not in text
        assert (
            squash(
                "A prior offense counts only if its conviction was entered before the current "
                "offense was committed"
            )
            in text
        )


def test_imprisonment_is_never_multiplied_and_the_notice_states_no_offense_as_fact():
    """Reading 12, on the notice's (e): six violations, one period of imprisonment (the
    sample's landowner, a firm, made a natural person: a firm is fined only)."""
    data = case_data(NOTICE)
    data["recipient"]["entity"] = "person"
    for text in texts("notice-of-violation", data):
        assert squash("If convicted, this would be a second offense within five years") in text
        assert squash("This is a second offense") not in text
        assert (
            squash(
                "for six violations, a total fine not less than two thousand one hundred dollars "
                "($2,100.00) nor more than four thousand two hundred dollars ($4,200.00), or "
                "imprisonment for a period not to exceed six months, or both."
            )
            in text
        )
        assert squash("six months for each violation") not in text
        assert squash("months, for each violation") not in text


def test_the_offense_form_names_the_violation_the_provision_and_the_notice():
    data = case_data(ROOT / "fixtures" / "penalty-statement" / "homer-third-offense.yaml")
    data["notice"] = "NOV-2026-0031"
    for text in texts("penalty-statement", data):
        assert (
            squash("The violation: Land development activity continued after the stop-work") in text
        )
        assert squash("provision violated: § 228-79C(2)") in text
        assert squash("Follows Notice of Violation No.: NOV-2026-0031") in text
        assert squash("This statement follows Notice of Violation No. NOV-2026-0031") in text


def test_the_offense_form_without_a_violation_named_is_refused():
    data = case_data(ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml")
    del data["offense"]["nature"], data["offense"]["provision"]
    with pytest.raises(CaseInvalid) as err:
        api.build("penalty-statement", data)
    found = {p.field: p for p in err.value.problems}
    assert set(found) == {"offense.nature", "offense.provision"}
    assert "names the violation it is about" in found["offense.provision"].message
    assert found["offense.provision"].provision == "§ 228-79C(1)(c)"


# -- item 9: provisions one can violate ---------------------------------------------------

NOT_VIOLABLE = [
    ("§ 228-77A(3)", "the findings of fact (§ 228-77A)"),
    ("§ 228-77B", "the statement of purpose (§ 228-77B)"),
    ("§ 228-77D(1)", "the applicability of the article (§ 228-77D)"),
    ("§ 228-77", "the general provisions (§ 228-77)"),
    ("§ 228-78A", "the definitions (§ 228-78A)"),
    ("§ 228-79C(4)", "the penalty section (§ 228-79C(4))"),
    ("§ 228-78", "wider than the provision violated"),
]


@pytest.mark.parametrize(("provision", "named"), NOT_VIOLABLE)
def test_a_notice_citing_what_no_one_can_violate_is_refused(provision, named):
    data = case_data(NOTICE)
    data["violations"][0]["provision"] = provision
    with pytest.raises(CaseInvalid) as err:
        api.build("notice-of-violation", data)
    (problem,) = [p for p in err.value.problems if p.field == "violations[0].provision"]
    assert repr(provision) in problem.message and named in problem.message
    assert "cannot be the provision violated" in problem.message
    assert problem.provision == "§ 228-79C(1)(c)"


@pytest.mark.parametrize("where", ["offense", "violations"])
def test_a_penalty_statement_citing_a_definition_is_refused(where):
    if where == "offense":
        data = case_data(ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml")
        data["offense"]["provision"] = "§ 228-78A"
        field = "offense.provision"
    else:
        data = case_data(STATEMENT)
        data["violations"][0]["provision"] = "§ 228-78A"
        field = "violations[0].provision"
    with pytest.raises(CaseInvalid) as err:
        api.build("penalty-statement", data)
    (problem,) = [p for p in err.value.problems if p.field == field]
    assert "'§ 228-78A' is part of the definitions (§ 228-78A)" in problem.message


@pytest.mark.parametrize(
    "provision", ["§ 228-78D(1)", "§ 228-78B(4)(a)", "§ 228-79A(1)", "§ 228-79C(2)", "§ 228-79D"]
)
def test_provisions_that_bind_may_be_cited(provision):
    assert citation_problem(provision, load_pack("homer")) is None


def test_the_fictional_pack_refuses_its_own_findings_and_definitions(monkeypatch):
    monkeypatch.setenv(ENV, str(ROOT / "tests" / "data" / "packs"))
    pack = load_pack("alderbrook")
    assert "the findings of fact (§ 412-30A)" in citation_problem("§ 412-30A(2)", pack)
    assert "the definitions (§ 412-31A)" in citation_problem("§ 412-31A", pack)
    assert citation_problem("§ 412-31D(1)", pack) is None
    assert "228-" not in citation_problem("§ 412-31A", pack)


def test_macedon_lists_every_section_as_one_a_violation_may_cite():
    pack = load_pack("macedon")
    assert pack.code.not_violable == {}
    for provision in ("§ 301-71A", "§ 301-72C", "§ 301-73D"):
        assert citation_problem(provision, pack) is None


def test_a_pack_listing_a_provision_the_article_lacks_is_refused():
    from docgen.law.pack import Code

    code = load_pack("homer").code.model_dump()
    bad = copy.deepcopy(code) | {"violable": {"value": ["228-78Q"], "ref": "§ 228-79C(4)"}}
    with pytest.raises(ValueError, match=r"violable: '228-78Q' is not one of code\.provisions"):
        Code.model_validate(bad)


def test_a_stop_work_order_citing_a_finding_of_fact_is_refused():
    data = case_data(ROOT / "fixtures" / "stop-work-order" / "homer-silt-fence.yaml")
    data["violations"][0]["provision"] = "§ 228-77A(3)"
    with pytest.raises(CaseInvalid) as err:
        api.build("stop-work-order", data)
    (problem,) = [p for p in err.value.problems if p.field == "violations[0].provision"]
    assert "'§ 228-77A(3)' is part of the findings of fact (§ 228-77A)" in problem.message


def test_penalty_json_reads_a_statement_in_the_offense_form_with_its_notice(tmp_path):
    data = case_data(ROOT / "fixtures" / "penalty-statement" / "homer-third-offense.yaml")
    data["notice"] = "NOV-2026-0031"
    out = api.penalty(write_yaml(tmp_path, data))
    assert (out["offense_number"], out["tier"], out["violations"]) == (3, 3, 2)
