"""The docgen command: exit codes, messages, files (in process; two smoke tests run the
command as a fresh process)."""

from __future__ import annotations

import json

from conftest import ROOT, write_case

from tests.helpers.cli import docgen, docgen_process

SAMPLE = ROOT / "fixtures" / "penalty-statement" / "homer-second-offense-continued.yaml"


def test_penalty_json():
    run = docgen_process("penalty", SAMPLE, "--json")  # smoke: the command in a fresh process
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert (out["offense_number"], out["violations"], out["total_fine_max"]) == (2, 5, "3500.00")
    assert len(out["counted_priors"]) == 1 and len(out["excluded_priors"]) == 2


def test_penalty_in_words():
    run = docgen("penalty", SAMPLE)
    assert run.returncode == 0
    assert "offense number 2" in run.stdout and "$1750.00 to $3500.00" in run.stdout


def test_bad_case_exits_1_naming_the_field_and_writes_nothing(tmp_path):
    bad = write_case(
        tmp_path,
        SAMPLE.read_text().replace(
            "continued_through: 2026-10-29", "continued_through: 2026-09-29"
        ),
    )
    out = tmp_path / "out"
    for args in (
        ("check", "penalty-statement", bad),
        ("penalty", bad),
        ("render", "penalty-statement", bad, "-o", f"{out}/"),
    ):
        run = docgen(*args)
        assert run.returncode == 1, args
        assert "Violation 1, continued through: " in run.stderr and "§ 228-79C(4)" in run.stderr
        assert "Traceback" not in run.stderr
    assert not out.exists() or list(out.iterdir()) == []


def test_macedon_penalty_is_a_clear_error(tmp_path):
    case = write_case(
        tmp_path, SAMPLE.read_text().replace("jurisdiction: homer", "jurisdiction: macedon")
    )
    run = docgen("penalty", case)
    assert run.returncode == 1
    assert "Town of Macedon" in run.stderr and "no penalty provision" in run.stderr


def test_usage_errors_exit_2():
    assert docgen_process("render").returncode == 2  # smoke: a fresh process
    assert docgen("frobnicate").returncode == 2


def test_unknown_kind_exits_1():
    run = docgen("check", "notice-of-nothing", SAMPLE)
    assert run.returncode == 1 and "unknown document kind" in run.stderr


def test_kinds_jurisdictions_schema():
    assert "penalty-statement" in docgen("kinds").stdout
    assert "Cortland" in docgen("jurisdictions").stdout
    schema = json.loads(docgen("schema", "penalty-statement").stdout)
    assert "offense" in schema["properties"]


def test_render_to_a_file_path(tmp_path):
    run = docgen("render", "penalty-statement", SAMPLE, "-f", "pdf", "-o", tmp_path / "x.pdf")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "x.pdf").read_bytes().startswith(b"%PDF")


def test_demo_renders_every_sample(tmp_path):
    run = docgen("demo", "-o", tmp_path / "out", "-f", "html")
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(list((tmp_path / "out").rglob("*.html"))) >= 3


def test_review_mode_is_refused_where_a_kind_has_none(tmp_path):
    run = docgen("render", "penalty-statement", SAMPLE, "--review", "-o", f"{tmp_path}/")
    assert run.returncode == 2 and "has no review mode" in run.stderr  # a usage error
    assert list(tmp_path.iterdir()) == []
