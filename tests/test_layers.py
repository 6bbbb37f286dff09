"""docgen's structure: no import cycle, and no module importing from a layer above its own.

Layers, lowest first (DESIGN.md, wave 4): basics (errors, text, values, the kinds'
names) -> law (and the municipality's settings) -> cases -> render (and signing) ->
documents (and counsel's instruments) -> api -> register -> queue and batch -> desk and
the command line (every ``cli`` module, pack check, and the demo). Imports are read with
``ast`` from the source, those inside functions and under ``if TYPE_CHECKING:`` included
(an import moved into a function, or kept for a type's name, still ties two modules).

No module imports from a layer above its own, and no modules import each other, directly
or around a ring: either fails, naming the modules. An import inside a function is kept
only where it is truly optional (a heavy library, or a module that loads one, on first
use) and says why in a comment: on its own line, or on the line directly above it or above
the block of imports it belongs to.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from conftest import ROOT

LAYERS = (
    (
        "docgen",
        "docgen.environ",
        "docgen.errors",
        "docgen.faults",
        "docgen.kinds",
        "docgen.library_warnings",
        "docgen.text",
        "docgen.values",
        "docgen.passwords",
    ),
    ("docgen.law", "docgen.settings"),
    ("docgen.cases",),
    ("docgen.render", "docgen.signing"),
    ("docgen.documents", "docgen.instruments"),
    ("docgen.api", "docgen.warm", "docgen.preload"),
    ("docgen.register",),
    ("docgen.queue", "docgen.batch"),
    (
        "docgen.desk",
        "docgen.cli",
        "docgen.demo",
        "docgen.reference",
        "docgen.pack_check",
        "docgen.pack_new",
    ),
)
TOP = len(LAYERS) - 1


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package under ``root``: dotted name -> file."""
    found = {}
    for path in sorted((root / "docgen").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(root: Path) -> dict[str, set[str]]:
    """Each module -> the package's modules it imports (at any depth of its code)."""
    known = modules(root)

    def module_of(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                module = module_of(target) if target.startswith("docgen") else None
                if module is not None and module != name:
                    graph[name].add(module)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                other = stack.pop()
                component.add(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def layer(module: str) -> int | None:
    """The layer a module belongs to: its longest prefix in LAYERS (the package itself,
    ``docgen``, only by its own name); a ``cli`` or ``*_cli`` module is the command line's;
    None for a module no layer names."""
    name = module.rpartition(".")[2]
    if name == "cli" or name.endswith("_cli"):
        return TOP
    matches = [
        (len(prefix), number)
        for number, prefixes in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or (prefix != "docgen" and module.startswith(prefix + "."))
    ]
    return max(matches)[1] if matches else None


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {
        (module, other)
        for module, others in graph.items()
        for other in others
        if other != "docgen" and (layer(other) or 0) > (layer(module) or 0)
    }


def problems(graph: dict[str, set[str]]) -> list[str]:
    """Every import cycle, and every import reaching up to a higher layer."""
    found = [f"an import cycle: {sorted(component)}" for component in cycles(graph)]
    found += [f"{a} imports {b}, a layer above it" for a, b in sorted(upward(graph))]
    return found


# Markers for tools that say nothing about why: what is left must be words.
TOOL_MARKERS = re.compile(r"noqa(:\s*[A-Z0-9, ]+)?|type:\s*ignore(\[[^\]]*\])?|pragma:\s*no cover")


def reasons(text: str) -> dict[int, bool]:
    """Each line holding a comment that gives a reason -> whether the comment is the
    line's only content."""
    found = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and re.search(
            r"[A-Za-z]{2}", TOOL_MARKERS.sub("", token.string)
        ):
            found[token.start[0]] = token.line[: token.start[1]].strip() == ""
    return found


def unexplained_imports(root: Path) -> list[str]:
    """Every import inside a function without a reason: ``module:line: import``."""
    found = []
    for name, path in modules(root).items():
        text = path.read_text(encoding="utf-8")
        said = reasons(text)
        for function in ast.walk(ast.parse(text)):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for body in (
                field
                for node in ast.walk(function)
                for field in ast.iter_fields(node)
                if isinstance(field[1], list)
            ):
                block_reason = False  # the reason given above a block of imports
                previous = None
                for statement in body[1]:
                    if not isinstance(statement, ast.Import | ast.ImportFrom):
                        previous = None
                        continue
                    own = any(
                        line in said for line in range(statement.lineno, statement.end_lineno + 1)
                    )
                    above = said.get(statement.lineno - 1, False)
                    in_block = previous is not None and previous.end_lineno == statement.lineno - 1
                    block_reason = above or (in_block and block_reason)
                    if not (own or block_reason):
                        found.append(f"{name}:{statement.lineno}: {ast.unparse(statement)}")
                    previous = statement
    return sorted(set(found))


def test_no_cycle_and_no_import_reaching_up():
    assert problems(imports(ROOT)) == []


def test_every_module_has_a_layer():
    assert [m for m in modules(ROOT) if layer(m) is None] == []
    assert layer("docgen.newcomer") is None  # a new top-level module is given its layer


def test_a_new_cycle_and_an_import_reaching_up_fail(tmp_path):
    package = {
        "docgen/__init__.py": "",
        "docgen/law/__init__.py": "",
        "docgen/law/rules.py": "def rule():\n    from docgen.desk import page  # hidden\n",
        "docgen/desk/__init__.py": "",
        "docgen/desk/page.py": "import docgen.desk.form\n",
        "docgen/desk/form.py": "from docgen.desk.page import x\n",
        "docgen/render/__init__.py": "",
        "docgen/render/typed.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import docgen.desk.page\n"
        ),
    }
    for name, text in package.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = imports(tmp_path)
    assert graph["docgen.render.typed"] == {"docgen.desk.page"}  # a type's name ties them
    assert cycles(graph) == [{"docgen.desk.page", "docgen.desk.form"}]
    found = problems(graph)
    assert "an import cycle: ['docgen.desk.form', 'docgen.desk.page']" in found
    assert "docgen.law.rules imports docgen.desk.page, a layer above it" in found
    assert "docgen.render.typed imports docgen.desk.page, a layer above it" in found


def test_every_import_inside_a_function_says_why():
    assert unexplained_imports(ROOT) == []


def test_an_import_inside_a_function_without_a_reason_fails(tmp_path):
    package = {
        "docgen/__init__.py": "",
        "docgen/render/__init__.py": "",
        "docgen/render/pdf.py": (
            "def render(html):\n"
            "    # weasyprint takes 0.5 s to import: loaded on a PDF's first render\n"
            "    import weasyprint\n"
            "    from weasyprint import CSS\n"  # the block's reason covers it
            "\n"
            "    import json\n"  # a blank line ends the block: no reason
            "    from docgen import kinds  # noqa: F401\n"  # a tool's marker is no reason
            "    return weasyprint.HTML(string=html, base_url=CSS)\n"
        ),
        "docgen/render/docx.py": (
            "class Writer:\n"
            "    def write(self):\n"
            "        import docx  # python-docx loads lxml: only a DOCX needs it\n"
            "        if docx:\n"
            "            import zipfile\n"  # nested in a block of the function
            "\n"
            "async def read():\n"
            "    from docgen.render import pdf\n"
            "    return pdf\n"
        ),
    }
    for name, text in package.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert unexplained_imports(tmp_path) == [
        "docgen.render.docx:5: import zipfile",
        "docgen.render.docx:8: from docgen.render import pdf",
        "docgen.render.pdf:6: import json",
        "docgen.render.pdf:7: from docgen import kinds",
    ]
