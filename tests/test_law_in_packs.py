"""The law lives in the packs: no section number of either code (228-, 301-) in a Python
string or in template text. Comments and docstrings that quote the law beside the rule
they explain are welcome; a number a document prints or an error cites comes from a pack."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

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
