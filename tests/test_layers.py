"""docgen's structure: no import cycle, and no module importing from a layer above its own.

Layers, lowest first (DESIGN.md, wave 4): basics (errors, text, values, the kinds'
names) -> law (and the municipality's settings) -> cases -> render (and signing) ->
documents (and counsel's instruments) -> api -> register -> queue and batch -> desk and
the command line (every ``cli`` module, the register's commands, pack check, and the
demo). Imports are read with ``ast`` from the source, those inside functions and under
``if TYPE_CHECKING:`` included (an import moved into a function, or kept for a type's name,
still ties two modules).

Inside the register and the desk each folder is a layer of its own (INNER, lowest first;
docs/contributing.md draws them): storage -> rules -> keeping, people, migrations -> matter
-> sites, after_notice, plans -> reading -> the register's face (store) -> its commands; and
base -> server -> the pages' folders -> the app and the desk's commands. A module sits in
a folder: a new flat module fails until INNER gives it a layer.

No module imports from a layer above its own, no modules import each other, directly or
around a ring, and no folders of one layer import each other around a ring: each fails,
naming the modules or the folders. An import inside a function is kept
only where it is truly optional (a heavy library, or a module that loads one, on first
use) and says why in a comment: on its own line, or on the line directly above it or above
the block of imports it belongs to.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import tokenize
from pathlib import Path

from conftest import ROOT

LAYERS = (
    (
        "docgen",
        "docgen.environ",
        "docgen.errors",
        "docgen.faults",
        "docgen.fonts",
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
        "docgen.register.commands",
        "docgen.cli",
        "docgen.demo",
        "docgen.reference",
        "docgen.pack_check",
        "docgen.pack_new",
    ),
)
TOP = len(LAYERS) - 1

# Inside the register and the desk: each package's folders, lowest layer first. "" is the
# package itself; a name without a folder is a module kept at the package's top.
INNER = {
    "docgen.register": (
        ("storage",),
        ("rules",),
        ("keeping", "people", "migrations"),
        ("matter",),
        ("sites", "after_notice", "plans"),
        ("reading",),
        ("", "store"),
        ("commands",),
    ),
    "docgen.desk": (
        ("base",),
        ("server",),
        ("admin", "drafting", "documents", "people", "issuing", "day", "sites", "public"),
        ("", "app", "commands"),
    ),
}


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


def package(module: str) -> str | None:
    """The register or the desk, for a module of theirs (or the package itself)."""
    return next((p for p in INNER if module == p or module.startswith(p + ".")), None)


def folder(module: str) -> str | None:
    """The folder of the register or the desk a module is in (``docgen.register.matter``),
    the module itself when it is kept at the package's top, the package for the package
    itself; None outside the two."""
    home = package(module)
    if home is None or module == home:
        return home
    return home + "." + module[len(home) + 1 :].split(".")[0]


def inner_layer(module: str) -> int | None:
    """The layer of a module's folder inside the register or the desk (INNER); None for a
    module outside them, or in a folder (or flat) that INNER does not name."""
    home, place = package(module), folder(module)
    if home is None or place is None:
        return None
    name = place[len(home) + 1 :]
    return next((n for n, names in enumerate(INNER[home]) if name in names), None)


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every import of a higher layer: of the package's, or inside the register or the
    desk, of a higher folder's."""

    def above(module: str, other: str) -> bool:
        if (layer(other) or 0) != (layer(module) or 0):
            return (layer(other) or 0) > (layer(module) or 0)
        same = package(module) is not None and package(module) == package(other)
        return same and (inner_layer(other) or 0) > (inner_layer(module) or 0)

    return {
        (module, other)
        for module, others in graph.items()
        for other in others
        if other != "docgen" and above(module, other)
    }


def folders(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between the register's and the desk's folders (and their top modules)."""
    found: dict[str, set[str]] = {}
    for module, others in graph.items():
        place = folder(module)
        if place is None or place in INNER:
            continue
        found.setdefault(place, set())
        found[place] |= {
            other
            for other in map(folder, others)
            if other is not None and other not in INNER and other != place
        }
    return found


def problems(graph: dict[str, set[str]]) -> list[str]:
    """Every import cycle, between modules or between folders, and every import reaching up
    to a higher layer."""
    found = [f"an import cycle: {sorted(component)}" for component in cycles(graph)]
    found += [
        f"an import cycle between folders: {sorted(component)}"
        for component in cycles(folders(graph))
    ]
    found += [f"{a} imports {b}, a layer above it" for a, b in sorted(upward(graph))]
    return found


def unplaced(root: Path) -> list[str]:
    """Every module no layer names, and every module of the register or the desk in no
    folder INNER names (a new flat module, a new folder)."""
    return [
        m
        for m in modules(root)
        if layer(m) is None or (folder(m) is not None and inner_layer(m) is None)
    ]


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
    assert unplaced(ROOT) == []
    assert layer("docgen.newcomer") is None  # a new top-level module is given its layer
    assert inner_layer("docgen.register.newcomer") is None  # a new module, a folder
    assert inner_layer("docgen.desk.newcomer.page") is None  # a new folder, a layer
    assert inner_layer("docgen.register.matter.newcomer") == inner_layer(
        "docgen.register.matter.issuing"
    )


def test_the_folders_are_layers_in_the_order_the_imports_go():
    graph = imports(ROOT)
    between = folders(graph)
    assert cycles(between) == []
    assert "docgen.register.rules" in between["docgen.register.matter"]  # matter on rules
    assert "docgen.register.reading" in between["docgen.register.store"]  # the face reads
    assert "docgen.desk.drafting" in between["docgen.desk.documents"]  # a page starts a draft
    assert [n for names in INNER["docgen.register"] for n in names if n] == [
        "storage", "rules", "keeping", "people", "migrations", "matter", "sites",
        "after_notice", "plans", "reading", "store", "commands",
    ]  # fmt: skip
    for package, layers in INNER.items():  # every folder INNER names is there
        for name in (n for names in layers for n in names if n):
            assert (ROOT / package.replace(".", "/") / name).exists() or (
                ROOT / package.replace(".", "/") / f"{name}.py"
            ).exists(), f"{package}.{name}"


def test_a_folder_reaching_up_or_around_a_ring_fails_in_a_copy_of_the_tree(tmp_path):
    def keep(where: str, names: list[str]) -> list[str]:
        return [n for n in names if not (Path(where, n).is_dir() or n.endswith(".py"))]

    shutil.copytree(ROOT / "docgen", tmp_path / "docgen", ignore=keep)
    assert problems(imports(tmp_path)) == []  # the copy is the tree, whole
    plant = {
        # storage, the lowest folder, reaching up to the matter
        "register/storage/audit.py": "from docgen.register.matter import lost\n",
        # two folders of one layer, each importing the other: no two modules in a ring
        "register/sites/invitation_mail.py": "from docgen.register.plans import swppp\n",
        # the desk's base reaching up to a page
        "desk/base/clock.py": "from docgen.desk.day import due\n",
        # a new module left flat in the register
        "register/helpers.py": "",
    }
    for name, text in plant.items():
        path = tmp_path / "docgen" / name
        path.write_text(
            (path.read_text(encoding="utf-8") if path.exists() else "") + text, encoding="utf-8"
        )
    found = problems(imports(tmp_path))
    assert (
        "docgen.register.storage.audit imports docgen.register.matter.lost, a layer above it"
        in found
    )
    assert (
        "an import cycle between folders: ['docgen.register.plans', 'docgen.register.sites']"
        in found
    )
    assert "docgen.desk.base.clock imports docgen.desk.day.due, a layer above it" in found
    assert not [p for p in found if "plans" in p and "cycle: [" in p]  # modules: no ring
    assert unplaced(tmp_path) == ["docgen.register.helpers"]


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
