"""The law lives in the packs: no section number of either code (228-, 301-) in a Python
string or in template text. Comments and docstrings that quote the law beside the rule
they explain are welcome; a number a document prints or an error cites comes from a pack."""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest
from conftest import ROOT
from pydantic import BaseModel

from docgen.documents import DOCUMENTS
from docgen.documents.pipeline import provided_by
from docgen.law.packs import load_pack, pack_names
from docgen.law.provisions import cited_by

SECTION = re.compile(r"\b(?:228|301)-\d")
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)


def docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def python_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string holding a section number, docstrings aside."""
    tree = ast.parse(source)
    skip = docstring_nodes(tree)
    return [
        (node.lineno, node.value[:60])
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and SECTION.search(node.value)
    ]


def template_text(path: Path) -> list[str]:
    text = JINJA_COMMENT.sub("", path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
        for m in SECTION.finditer(text)
    ]


def test_no_section_number_outside_the_packs():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted((ROOT / "docgen").rglob("*.py"))
        for line, text in python_strings(path.read_text(encoding="utf-8"))
    ]
    templates = [p for p in (ROOT / "templates").rglob("*") if p.suffix in (".j2", ".css")]
    found += [hit for path in sorted(templates) for hit in template_text(path)]
    assert found == []


def test_the_scan_finds_a_section_number_in_code_but_not_in_a_docstring_or_comment():
    code = (
        '"""§ 228-79C(4): quoted beside the rule."""\n# § 301-71D, a comment\nP = "§ 228-79C(4)"\n'
    )
    assert python_strings(code) == [(3, "§ 228-79C(4)")]


def provisions_of(model: type[BaseModel], seen: set[type] | None = None) -> set[str]:
    """Every provision a case model's fields name, through nested models."""
    seen = set() if seen is None else seen
    if model in seen:
        return set()
    seen.add(model)
    found = set()
    for info in model.model_fields.values():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if extra.get("provision"):
            found.add(str(extra["provision"]))
        for inner in nested_models(info.annotation):
            found |= provisions_of(inner, seen)
    return found


def nested_models(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in nested_models(arg)]


@pytest.mark.parametrize("kind", list(DOCUMENTS))
def test_every_pack_value_a_case_field_cites_exists_in_each_pack_providing_it(kind):
    spec = DOCUMENTS[kind]
    paths = sorted(p for p in provisions_of(spec.model) if p.startswith("@"))
    providing = [name for name in pack_names() if provided_by(spec, load_pack(name))]
    assert providing, f"no installed pack provides {kind}: nothing would be checked"
    for name in providing:
        assert [p for p in paths if not cited_by(p, load_pack(name))] == [], name


def municipality_names() -> set[str]:
    """The installed municipalities' own names: the pack's id, the last word of its name
    ("Homer" of "Village of Homer") and its county."""
    names = set()
    for name in pack_names():
        pack = load_pack(name)
        names |= {name, pack.name.value.split()[-1], pack.county.value}
    return {n.lower() for n in names}


def test_no_municipality_is_named_in_code_templates_or_messages():
    """Nothing of one municipality in code (issue 33): no installed municipality's name in
    any file of the package or its templates, docstrings and comments included, outside
    the pack files themselves (docgen/law/*.yaml, docgen/law/state), the translation
    catalogs that render the packs' words (docgen/locale) and the list of common passwords
    the desk refuses."""
    names = municipality_names()
    assert {"homer", "macedon", "cortland", "wayne"} <= names
    word = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b", re.IGNORECASE)
    skip = {"common_passwords.txt"}
    found = []
    for root in (ROOT / "docgen", ROOT / "templates"):
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(ROOT)
            is_pack = relative.parts[:2] == ("docgen", "law") and path.suffix == ".yaml"
            is_pack = is_pack or relative.parts[:2] == ("docgen", "locale")
            if not path.is_file() or path.suffix in (".docx", ".png", ".ico") or is_pack:
                continue
            if path.name in skip or {"static", "__pycache__"} & set(relative.parts):
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if word.search(line):
                    found.append(f"{relative}:{n}: {line.strip()[:80]}")
    assert found == []
