"""A kind is one description: outside docgen/documents/ no module tests a kind by its
name or probes a case's fields, and nothing branches on whether a spec is a bundle."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from docgen.documents import DOCUMENTS, KINDS, MODULES, kinds_with
from docgen.documents.base import Kind, Spec

NAMES = "|".join(re.escape(name) for name in (*MODULES, "packet"))
FORBIDDEN = {
    "a branch on bundles": re.compile(r"isinstance\([^)]*Bundle"),
    "a kind tested by name": re.compile(rf"(==|!=|\bin\b|\bin_\()\s*\(?\s*[\"']({NAMES})[\"']"),
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
        assert all(isinstance(member, Kind) for member in spec.members())


def test_the_description_says_what_the_law_says_of_each_kind():
    # Served on a person and sworn to (LAW.md § 2, § 10): the notice and the order.
    # The notice of deficiency too (LAW.md § 11: served and proved like a notice).
    assert set(kinds_with(served=True)) == {
        "notice-of-violation",
        "stop-work-order",
        "notice-of-deficiency",
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


def test_what_a_kind_follows_is_declared_and_offered_only_there():
    """A kind started from an issued document names that kind in its description (and
    takes its number in ``notice``/``notices``); a field called ``notice`` is no claim: the
    approval of corrected work names a notice of deficiency and is made from a
    reinspection, never offered on a notice of violation's page."""
    from docgen.desk.actions import REFERENCES, follows

    for name, spec in KINDS.items():
        for source in spec.follows:
            assert source in KINDS, (name, source)
            assert set(REFERENCES) & set(spec.model.model_fields), name
    offered = {f.kind for f in follows("notice-of-violation", "officer")}
    assert offered == {"stop-work-order", "penalty-statement"}
    assert follows("notice-of-deficiency", "officer") == []
