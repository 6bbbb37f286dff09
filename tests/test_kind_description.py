"""A kind is one description: outside docgen/documents/ no module tests a kind by its
name or probes a case's fields, and nothing branches on whether a spec is a bundle.

And no module names a kind at all there: the rule, read with ``ast``, is that no string
literal equal to a kind's or a bundle's name appears in docgen/ outside docgen/documents/
and docgen/kinds.py (the one list of names), docstrings aside (comments are no literals).
What a module issues or looks up it finds by the kind's description (``the_kind``,
``kinds_with``)."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import ROOT

from docgen.documents import DOCUMENTS, KINDS, MODULES, kinds_with, the_kind
from docgen.documents.kind import Kind, Spec
from docgen.documents.registry import members
from docgen.errors import DocgenError
from docgen.kinds import BUNDLES

NAMES = "|".join(re.escape(name) for name in (*MODULES, "packet"))
FORBIDDEN = {
    "a branch on bundles": re.compile(r"isinstance\([^)]*Bundle"),
    "a kind tested by name": re.compile(rf"(==|!=|\bin\b|\bin_\()\s*\(?\s*[\"']({NAMES})[\"']"),
    # the name on the left: ``"stop-work-order" in section`` (lifting.py had one)
    "a kind's name tested": re.compile(rf"[\"']({NAMES})[\"']\s*(==|!=|\bin\b|\bnot\s+in\b)"),
    "a kind's entry looked up by name": re.compile(rf"\[\s*[\"']({NAMES})[\"']\s*\]"),
    "a case field probed": re.compile(
        r"getattr\(case,|[\"'](number|prior_offenses|recipient|owner|site|property|issued|"
        r"violations|remedies|served)[\"']\s+in\s+\w+\.model\.model_fields"
    ),
    "a list of kinds by name": re.compile(rf"=\s*[(\[{{]\s*[\"']({NAMES})[\"'],"),
}


def _sources():
    for path in sorted((ROOT / "docgen").rglob("*.py")):
        if "documents" not in path.relative_to(ROOT / "docgen").parts:
            yield path


def _named_kinds(source: str) -> list[tuple[int, str]]:
    """(line, name) of each string literal in ``source`` equal to a kind's or a bundle's
    name, its docstrings left out."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    names = {*MODULES, *BUNDLES}
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in names
        and id(node) not in docstrings
    ]


def test_no_module_outside_documents_names_a_kind():
    """Issue 28, item 7: what is issued or looked up (the receipt's annex, the worker's
    warm-up kind, the contractor's certification, the mailing list, the halting notice)
    is found by the kind's description, never by a literal of its name."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {name!r}"
        for path in _sources()
        if path != ROOT / "docgen" / "kinds.py"
        for line, name in _named_kinds(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "a kind named outside docgen/documents/:\n" + "\n".join(found)


def test_the_literal_rule_catches_a_kind_named_and_spares_docstrings():
    source = '''
"""Names the notice-of-violation here: a docstring."""
KIND = "return-receipt"
def f():
    """stop-work-order"""
    return get_kind("mailing-list"), f"{KIND}-x"  # "packet" in a comment
'''
    assert _named_kinds(source) == [(3, "return-receipt"), (6, "mailing-list")]


@pytest.mark.parametrize("what", FORBIDDEN)
def test_no_module_outside_documents_rediscovers_a_kind(what):
    pattern = FORBIDDEN[what]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _sources()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == [], f"{what} outside docgen/documents/:\n" + "\n".join(found)


def test_every_kind_and_bundle_answers_the_same_description():
    questions = [name for name in Spec.__annotations__] + ["parts", "charges_offense", "numbered"]
    for name, spec in DOCUMENTS.items():
        for question in questions:
            assert hasattr(spec, question), f"{name} does not say {question}"
        assert spec.parts and all(part in MODULES for part in spec.parts)
        assert all(isinstance(member, Kind) for member in members(spec))


def test_the_description_says_what_the_law_says_of_each_kind():
    # Served on a person and sworn to (LAW.md § 2, § 10): the notice and the order.
    # The notice of deficiency too (LAW.md § 11: served and proved like a notice), and the
    # order preventing occupancy (LAW.md § 14: served like a stop-work order).
    assert set(kinds_with(served=True)) == {
        "notice-of-violation",
        "stop-work-order",
        "notice-of-deficiency",
        "occupancy-order",
        "restoration-notice",
    }
    assert kinds_with(appealable=True) == ("notice-of-violation",)
    assert kinds_with(liftable=True) == ("stop-work-order",)
    assert [k for k in KINDS if KINDS[k].charges_offense] == ["notice-of-violation"]
    assert set(kinds_with(reads_history=True)) == {"notice-of-violation", "penalty-statement"}
    assert set(kinds_with(permission="instruments")) == {
        "maintenance-easement",
        "maintenance-agreement",
    }
    assert "affidavit-of-service" not in kinds_with(permission="enforce")
    # What the register and the desk issue or look up by description (issue 28, item 7).
    assert the_kind(halts=True) == "notice-of-deficiency"  # § 228-79A(1)
    assert the_kind(annexes_receipt=True) == "return-receipt"  # LAW.md § 2
    assert the_kind(lists_mailings=True) == "mailing-list"  # PS Form 3877
    assert the_kind(contractor_signs=True) == "contractor-certification"  # § 228-78B(4)
    assert the_kind(opens_matter=True) == "notice-of-violation"  # the worker warms on it
    # The steps after the notice (§ 228-79C(5), (6); LAW.md § 14).
    assert the_kind(step="withholds") == "occupancy-order"
    assert the_kind(step="releases-hold") == "occupancy-release"
    assert the_kind(step="requires-restoration") == "restoration-notice"
    assert the_kind(step="states-cost") == "restoration-cost"
    assert the_kind(step="liens") == "lien-notice"
    assert the_kind(step="releases-lien") == "lien-release"


def test_the_kind_refuses_a_description_no_kind_or_several_have():
    with pytest.raises(DocgenError, match=r"\d document kinds are described with served=True"):
        the_kind(served=True)
    with pytest.raises(DocgenError, match=r"0 document kinds .*\(none\); exactly one must be"):
        the_kind(permission="nobody")


def test_what_a_kind_follows_is_declared_and_offered_only_there():
    """A kind started from an issued document names that kind in its description (and
    takes its number in ``notice``/``notices``, or has its draft filled by the register: a
    reinspection from a notice of deficiency); a field called ``notice`` is no claim: the
    approval of corrected work names a notice of deficiency and is made from a
    reinspection, never offered on a notice of violation's page."""
    from docgen.desk.documents.actions import REFERENCES, follows
    from docgen.register.matter.inspections import started_by_register

    for name, spec in KINDS.items():
        for source in spec.follows:
            assert source in KINDS, (name, source)
            filled = started_by_register(source, name) is not None
            assert set(REFERENCES) & set(spec.model.model_fields) or filled
    offered = {f.kind for f in follows("notice-of-violation", "officer")}
    assert offered == {"stop-work-order", "penalty-statement"}
    from_deficiency = {f.kind for f in follows("notice-of-deficiency", "officer")}
    assert from_deficiency == {"inspection-report", "notice-of-violation", "stop-work-order"}


def test_the_desk_starts_a_notice_from_a_notice_or_order_the_description_names():
    """Issue 28, item 7: "Start a notice" drafts the kind a matter opens with, from the
    respondent's latest notice or order (never an affidavit, an annex, a mailing list)."""
    assert kinds_with(opens_matter=True) == ("notice-of-violation",)
    assert set(kinds_with(new_notice_from=True)) == {"notice-of-violation", "stop-work-order"}


def test_a_new_served_kind_needs_no_list_of_kind_names_edited(monkeypatch):
    """Issue 28, item 7: the affidavit's case model takes its served kinds from the kind
    description (no Literal of kind names), so a kind added as served is proved by an
    affidavit with nothing else edited; a kind not served is refused, naming the served."""
    import sys
    import types
    from dataclasses import replace

    from docgen.cases.loader import read_case_file
    from docgen.documents.affidavit_of_service import AffidavitCase

    sources = (ROOT / "docgen").rglob("*.py")
    literal = re.compile(rf"Literal\[\s*[\"']({NAMES})[\"']")
    assert [p for p in sources if literal.search(p.read_text(encoding="utf-8"))] == []
    module = types.ModuleType("served_kind_for_test")
    module.KIND = replace(KINDS["notice-of-deficiency"], name="notice-of-abatement")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(MODULES, "notice-of-abatement", module.__name__)
    data = read_case_file(ROOT / "fixtures" / "affidavit-of-service" / "homer-certified-mail.yaml")
    data["document"]["kind"] = "notice-of-abatement"
    assert AffidavitCase.model_validate(data).document.kind == "notice-of-abatement"
    data["document"]["kind"] = "mailing-list"
    with pytest.raises(ValueError, match="'mailing-list' is not served on persons; one of "):
        AffidavitCase.model_validate(data)
