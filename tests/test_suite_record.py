"""The record that keeps the suite from shrinking unseen (tests/helpers/counts.py,
tests/counts.json): it names every test module, and a module that ran fewer tests than
recorded is named."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from conftest import ROOT

from tests.helpers.counts import RECORD, compare, whole_run


def test_the_record_names_every_test_module():
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")}
    missing = sorted(modules - set(record))
    assert not missing, f"not in tests/counts.json (a whole `make test` records them): {missing}"
    assert all(isinstance(n, int) and n > 0 for n in record.values())


def test_a_module_with_fewer_tests_than_recorded_is_named():
    record = {"tests/test_a.py": 3, "tests/test_b.py": 2, "tests/test_gone.py": 1}
    ran = {"tests/test_a.py": 3, "tests/test_b.py": 1, "tests/test_new.py": 4}
    assert compare(ran, record) == [
        "tests/test_b.py: 1 tests, 2 recorded",
        "tests/test_gone.py: 0 tests, 1 recorded",
    ]
    assert compare(record, record) == []


def run_of(**changed: object) -> SimpleNamespace:
    """A stand-in for pytest's config of a run: the README's command, then what changed."""
    option = {
        "keyword": "",
        "markexpr": "not soak",
        "deselect": None,
        "maxfail": 0,
        "collectonly": False,
        "lf": False,
        "failedfirst": False,
    }
    source = changed.pop("args_source", pytest.Config.ArgsSource.TESTPATHS)
    option.update(changed)
    return SimpleNamespace(args_source=source, option=SimpleNamespace(**option))


@pytest.mark.parametrize(
    "changed",
    [
        {"args_source": pytest.Config.ArgsSource.ARGS},
        {"keyword": "desk"},
        {"markexpr": "soak"},
        {"deselect": ["tests/test_lock.py::test_this_environment_is_the_lock"]},
        {"maxfail": 1},
        {"collectonly": True},
        {"lf": True},
    ],
)
def test_only_a_whole_run_is_compared(changed):
    assert whole_run(run_of())
    assert not whole_run(run_of(**changed))


def test_a_test_process_of_a_run_is_not_compared():
    worker = run_of()
    worker.workerinput = {"workerid": "gw0"}
    assert not whole_run(worker)
