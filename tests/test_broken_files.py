"""Broken case files through the CLI (in this process): exit 1, a clear message, no
traceback, no output.

(How long each takes to be refused is measured by benchmarks/broken_inputs.py, not
asserted here: timings on a shared machine make flaky tests.)
"""

from __future__ import annotations

import pytest

from tests.helpers.broken_cases import Broken, broken_cases, write
from tests.helpers.cli import Run, docgen

CASES = broken_cases()


def run_cli(*args: str) -> Run:
    """The command in this process (tests/helpers/cli.py): the same click command, its
    errors mapped to exit codes in the same place, 100 times faster than a process."""
    return docgen(*args)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("verb", ["render", "check"])
def test_a_broken_file_is_a_clear_error(tmp_path, case: Broken, verb: str):
    path = write(tmp_path, case)
    out = tmp_path / "out"
    out.mkdir()
    args = [verb, case.kind, str(path)] + (["-o", f"{out}/"] if verb == "render" else [])
    run = run_cli(*args)
    assert run.returncode == 1, f"exit {run.returncode}: {run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.stderr.startswith("error: "), run.stderr[:500]
    assert case.expect in run.stderr, run.stderr[:1000]
    assert len(run.stderr) < 5000, "the message should be short enough to read"
    assert list(out.iterdir()) == [], "an error must leave no file"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["out", path.name])


def test_a_missing_file_is_a_clear_error(tmp_path):
    run = run_cli("render", "penalty-statement", str(tmp_path / "nope.yaml"))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "nope.yaml" in run.stderr and "cannot read" in run.stderr


def test_every_problem_is_listed_at_once(tmp_path):
    from tests.helpers.broken_cases import _replace

    text = _replace("issued: 2026-11-16", "issued: 2026-02-30").decode()
    text = text.replace("state: NY", "state: New York").replace('zip: "13077"', 'zip: "1307"')
    path = tmp_path / "case.yaml"
    path.write_text(text + "colour: blue\n", encoding="utf-8")
    run = run_cli("check", "penalty-statement", str(path))
    assert run.returncode == 1
    fields = ("Issued:", "Recipient, address, state:", "Recipient, address, ZIP code:", "Colour:")
    for field in fields:  # each named as the desk's form names it
        assert field in run.stderr, run.stderr
