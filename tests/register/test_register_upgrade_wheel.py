"""docs/deploy.md's upgrade, run for real from the previous release's wheel to this one, on
SQLite and PostgreSQL: a register made by the old wheel; `pip install --upgrade NEW.whl`
really replaces the code (the version moves: hatch-vcs); `docgen register upgrade` migrates
it and the old document still verifies; the old wheel, put back, refuses the upgraded
register naming the version it needs.

The previous release is the commit the ``v0.3.0`` tag names (a clone may lack the tag, so the
test names the commit). Both wheels are built once per module without fetching a build
backend (hatchling and hatch-vcs are in the test extra); the throwaway virtual environment
reaches docgen's dependencies through a .pth line to this environment's site-packages,
which adds that folder and nothing else (its own .pth files, this checkout's editable
install among them, are not read), so the environment's docgen is the wheel's alone."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from docgen.register.storage import db
from tests.helpers import pgserver
from tests.helpers.register_cases import notice
from tests.helpers.wheels import built, environment, pip_install, run

PREVIOUS_RELEASE = "8be2bbb4080a0d536fcf5d784fc063b502398c5d"  # v0.3.0


@pytest.fixture(scope="module")
def wheels(tmp_path_factory, checkout_wheel) -> tuple[Path, Path]:
    """(the previous release's wheel, this checkout's wheel)."""
    base = tmp_path_factory.mktemp("wheels")
    old_tree = base / "previous"
    cloned = run("git", "clone", "-q", "--no-checkout", ROOT, old_tree)
    assert cloned.returncode == 0, cloned.stderr
    checked_out = run("git", "-C", old_tree, "checkout", "-q", PREVIOUS_RELEASE)
    assert checked_out.returncode == 0, checked_out.stderr
    return built(old_tree, base / "old"), checkout_wheel


def pip(python: Path, *args: object) -> subprocess.CompletedProcess:
    done = pip_install(python, *args)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_guide_upgrades_a_register_made_by_the_previous_release(
    backend, wheels, tmp_path, request
):
    old, new = wheels
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'home' / 'docgen.sqlite'}"
    else:
        server = request.getfixturevalue("postgres_template")
        url = pgserver.create_database(server, f"upgrade_{os.getpid()}_{tmp_path.name[-12:]}")
    env = {**os.environ, "DOCGEN_DATABASE_URL": url, "DOCGEN_HOME": str(tmp_path / "home")}
    python = environment(tmp_path / "venv")
    pip(python, old)

    def docgen(*args: object) -> subprocess.CompletedProcess:
        return run(python, "-m", "docgen.cli", *args, env=env, cwd=tmp_path)

    old_version = docgen("--version").stdout
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump(notice("2026-03-02")), encoding="utf-8")
    issued = docgen("issue", "notice-of-violation", case, "-f", "pdf", "-o", tmp_path / "old.pdf")
    assert issued.returncode == 0, issued.stderr

    pip(python, "--upgrade", new)  # docs/deploy.md, step 10
    new_version = docgen("--version")
    assert new_version.returncode == 0, new_version.stderr
    assert new_version.stdout != old_version
    (line, register) = new_version.stdout.splitlines()
    assert line == f"docgen {new.name.split('-')[1]}"  # the wheel's version, from the tags
    assert "schema revision 0007" in register  # the old register, not yet upgraded
    upgraded = docgen("register", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    assert re.search(r"migrated from 0007 to revision \d{4}", upgraded.stdout), upgraded.stdout
    verified = docgen("verify", tmp_path / "old.pdf")
    assert verified.returncode == 0, verified.stderr
    assert "NOV-2026-0001" in verified.stdout

    # Going back after the upgrade is refused. (The previous release cannot name the version
    # it needs; releases from this one on do: test_register_versions.py.)
    pip(python, "--force-reinstall", old)
    refused = docgen("history", "1")
    assert refused.returncode == 1
    assert f"upgraded by a newer docgen (revision {db.HEAD})" in refused.stderr
