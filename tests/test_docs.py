"""The documentation site builds with no broken link (mkdocs --strict), and its reference
pages are written from the code: every command and every kind's case-file fields."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import click
from conftest import ROOT

from docgen import api
from docgen.cli import main
from docgen.documents import KINDS
from docgen.law.packs import load_pack


def build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", root / "mkdocs.yml",
         "-d", site],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def commands(group: click.Group, path: str = "docgen") -> list[str]:
    found = []
    context = click.Context(group)
    for name in group.list_commands(context):
        sub = group.get_command(context, name)
        found.append(f"{path} {name}")
        if isinstance(sub, click.Group):
            found += commands(sub, f"{path} {name}")
    return found


def test_the_site_builds_with_every_link_whole_and_the_reference_from_the_code(tmp_path):
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    for page in ("clerk", "officer", "attorney", "contractor", "deploy", "index"):
        assert (site / f"{page}.html").is_file(), page
    reference = (site / "reference" / "commands.html").read_text(encoding="utf-8")
    for command in commands(main):
        assert f"<code>{command}</code>" in reference, command
    fields = (site / "reference" / "case-files.html").read_text(encoding="utf-8")
    for row in api.kinds():
        if row["jurisdictions"]:
            assert f'id="{row["kind"]}"' in fields, row["kind"]
    assert "<code>recipient.address.street</code>" in fields
    assert "homer: § 228-79C(1)(f)" in fields  # each field's provision, cited in its law


def test_a_broken_link_fails_the_build(tmp_path):
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    clerk = copy / "docs" / "clerk.md"
    clerk.write_text(
        clerk.read_text(encoding="utf-8") + "\nSee [the missing page](missing.md).\n",
        encoding="utf-8",
    )
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert "missing.md" in done.stderr


def test_the_readme_names_every_kind_with_the_municipalities_that_provide_it():
    """The README's table of kinds is the one a newcomer reads first: each kind docgen
    knows, and for each the packs that provide it, as `docgen kinds` says (the table had
    kept eleven of the kinds after seventeen more were added)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = {
        line.split("`")[1]: line.rsplit("|", 2)[1].strip()
        for line in text.splitlines()
        if line.startswith("| `") and line.count("|") == 4
    }
    packs = [load_pack(name) for name in ("homer", "macedon")]
    for kind in KINDS:
        assert kind in rows, f"{kind} is not in the README's table of kinds"
        providers = ", ".join(p.id for p in packs if p.provides(kind))
        assert rows[kind] == providers, (kind, rows[kind], providers)
