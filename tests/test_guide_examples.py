"""The guides' command examples run (issue 52): every command of a ```sh block in docs/*.md
that runs docgen (``docgen ...`` or ``.venv/bin/docgen ...``, after variables or a pipe) is
run here as written, each block's in order, by a shell in a folder of the test's own: a
fresh register (DOCGEN_HOME) and settings (DOCGEN_SETTINGS), the case file an example
names seeded from the samples, and ``docgen`` this checkout's. Each must succeed. What a
block does besides (``make demo``, starting the desk) and cannot do in a test is listed in
NOT_RUN with the reason; docs/deploy.md's blocks are the deputy's, followed whole, as
root would, by tests/test_deploy_guide.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.guides import guide_blocks

ROOT = Path(__file__).resolve().parent.parent
FOLLOWED_ELSEWHERE = {"deploy.md": "tests/test_deploy_guide.py runs all of it, in order"}
DOCGEN = re.compile(r"(?:^|\|\s*)(?:\w+=\S+\s+)*(?:\.venv/bin/)?docgen\s")
# A command of a block with docgen's, not run here: the command as the guide writes it (its
# comment aside), and why.
NOT_RUN = {
    "make demo": "the checkout's set-up (scripts/setup.sh: Debian packages, the virtual "
    "environment) and every sample rendered; docgen here is the checkout under test",
    ".venv/bin/docgen serve": "starts the desk on port 8000 and serves until Ctrl-C; the "
    "desk's start is tested on ports of its own (tests/desk_server.py, tests/test_startup.py)",
}
# The files the examples name, made from the samples before the guide's blocks run.
SEEDS = {"case.yaml": ROOT / "fixtures/notice-of-violation/homer-first-offense.yaml"}


def examples() -> list[tuple[str, list[str]]]:
    """(guide, its docgen commands in order) for each guide with any."""
    found = []
    for guide in sorted((ROOT / "docs").glob("*.md")):
        if guide.name in FOLLOWED_ELSEWHERE:
            continue
        commands = [
            c
            for block in guide_blocks(guide.read_text(encoding="utf-8"))
            if any(DOCGEN.search(c) for c in block.commands)
            for c in block.commands
        ]
        if commands:
            found.append((guide.name, commands))
    return found


EXAMPLES = examples()


def written(command: str) -> str:
    """The command without its comment (``# ...`` after two spaces)."""
    return re.sub(r"\s+#\s.*$", "", command)


@pytest.fixture
def folder(tmp_path):
    """The folder the guide's commands run in, and their environment: ``docgen`` and
    ``.venv/bin/docgen`` this checkout's, a register and settings of their own, the seeds."""
    program = tmp_path / ".venv" / "bin" / "docgen"
    program.parent.mkdir(parents=True)
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m docgen.cli "$@"\n')
    program.chmod(0o755)
    for name, sample in SEEDS.items():
        text = sample.read_text(encoding="utf-8")
        (tmp_path / name).write_text(re.sub(r"(?m)^number: .*\n", "", text), encoding="utf-8")
    (tmp_path / "settings").mkdir()
    env = {
        **os.environ,
        "PATH": f"{program.parent}:{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "DOCGEN_HOME": str(tmp_path / "home"),
        "DOCGEN_SETTINGS": str(tmp_path / "settings"),
    }
    env.pop("DOCGEN_DATABASE_URL", None)
    return tmp_path, env


@pytest.mark.parametrize(("guide", "commands"), EXAMPLES, ids=[g for g, _ in EXAMPLES])
def test_each_command_of_the_guides_examples_succeeds(guide, commands, folder):
    cwd, env = folder
    ran = []
    for command in commands:
        if written(command) in NOT_RUN:
            continue
        done = subprocess.run(
            ["bash", "-c", f"set -euo pipefail\n{command}"],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"docs/{guide}: {command}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr, done.stderr
        ran.append(command)
    assert any(DOCGEN.search(c) for c in ran), f"docs/{guide}: no docgen command was run"


def test_every_example_is_run_or_listed_with_its_reason():
    """Nothing is left out silently: each guide's blocks with docgen commands are found,
    and each command left out is one the guides still write."""
    assert {g for g, _ in EXAMPLES} >= {"desk.md", "register.md"}
    written_now = {written(c) for _, commands in EXAMPLES for c in commands}
    assert set(NOT_RUN) <= written_now, set(NOT_RUN) - written_now
    assert shutil.which("bash") is not None
