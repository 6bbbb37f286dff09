"""Versions that move: docgen's version comes from the repository's tags (hatch-vcs), and
`docgen --version` says it with the register's schema revision; every upgrade of the
register records the docgen version that made it, so an older docgen refuses to open the
register naming the version it needs."""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest
from sqlalchemy import text

from docgen import __version__
from docgen.register import Register
from docgen.register.storage import db
from tests.helpers.cli import docgen


def test_the_version_is_the_installed_distributions():
    assert __version__ == version("docgen")
    assert __version__ != "0.1.0"  # no longer a fixed string
    assert re.fullmatch(r"\d+\.\d+\.\d+([.+].+)?", __version__), __version__


def test_version_names_the_register_and_its_schema(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    monkeypatch.setenv("DOCGEN_HOME", str(tmp_path))
    done = docgen("--version")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == f"docgen {__version__}"
    assert f"none yet (this docgen makes schema revision {db.HEAD})" in done.stdout
    assert not (tmp_path / "docgen.sqlite").exists()  # asking never makes a register
    Register.open().close()
    done = docgen("--version")
    assert f"schema revision {db.HEAD} (this docgen reads {db.HEAD})" in done.stdout


def test_an_upgrade_records_its_version_and_an_older_docgen_names_the_one_needed(reg):
    with reg.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT revision_from, revision_to, version FROM register_upgrades")
        ).all()
    assert rows[-1][1:] == (db.HEAD, __version__)
    # The register as a newer docgen would leave it: a revision this one does not ship.
    with reg.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        conn.execute(
            text(
                "INSERT INTO register_upgrades (at, revision_from, revision_to, version) "
                "VALUES (CURRENT_TIMESTAMP, :head, '9999', '9.9.9')"
            ),
            {"head": db.HEAD},
        )
    with pytest.raises(db.RegisterError) as refused:
        Register.open(reg.url)
    said = str(refused.value)
    assert said.startswith("this register was upgraded by a newer docgen (revision 9999)")
    assert f"(this one, {__version__}, knows revisions up to {db.HEAD})" in said
    assert said.endswith("install docgen 9.9.9 or newer, which made it")
