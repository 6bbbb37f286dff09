"""The suite is never silently smaller: after a whole run, the number of tests each module
ran is compared with tests/counts.json, the record kept in the repository. A module that
ran fewer fails the run, naming it (a test deleted, a parametrization that lost cases, a
module no longer collected); lowering its number in the record is then a change of its own,
made in the commit that says why. A whole run on a developer's machine (not CI) that
passes writes the record anew when a module gained tests, for that commit to carry.

Only a whole run counts: the README's command, no paths, -k, -m other than the default,
--deselect, -x or --collect-only. With pytest-xdist, the controller sees every test's report."""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

RECORD = Path(__file__).resolve().parent.parent / "counts.json"
DEFAULT_MARKS = "not soak"  # pyproject.toml's addopts

_ran: dict[str, set[str]] = defaultdict(set)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    module, _, _ = report.nodeid.partition("::")
    _ran[module].add(report.nodeid)


def whole_run(config: pytest.Config) -> bool:
    option = config.option
    return (
        config.args_source == pytest.Config.ArgsSource.TESTPATHS
        and not option.keyword
        and option.markexpr == DEFAULT_MARKS
        and not option.deselect
        and not option.maxfail
        and not option.collectonly
        and not getattr(option, "lf", False)
        and not getattr(option, "failedfirst", False)
        and not hasattr(config, "workerinput")
    )


def compare(ran: dict[str, int], record: dict[str, int]) -> list[str]:
    """A line for each module of the record that ran fewer tests than recorded."""
    return [
        f"{module}: {ran.get(module, 0)} tests, {recorded} recorded"
        for module, recorded in sorted(record.items())
        if ran.get(module, 0) < recorded
    ]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if not whole_run(config) or exitstatus == pytest.ExitCode.INTERRUPTED:
        return
    ran = {module: len(ids) for module, ids in sorted(_ran.items())}
    record = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    fewer = compare(ran, record)
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    say = terminal.write_line if terminal is not None else print
    gained = {m: n for m, n in ran.items() if n > record.get(m, 0)}
    say(
        f"tests per module: {sum(ran.values())} in {len(ran)} modules; "
        f"the record (tests/counts.json): {sum(record.values())} in {len(record)}"
    )
    for line in fewer:
        say(f"FEWER TESTS THAN RECORDED: {line}", red=True)
    if fewer:
        say(
            "a module ran fewer tests than tests/counts.json records: if that is meant, "
            "lower its number there in a commit that says why",
            red=True,
        )
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    for module, count in gained.items():
        say(f"more tests than recorded: {module}: {count} ({record.get(module, 0)} recorded)")
    if gained and not os.environ.get("CI") and session.exitstatus == pytest.ExitCode.OK:
        RECORD.write_text(json.dumps({**record, **ran}, indent=1, sort_keys=True) + "\n")
        say("tests/counts.json written anew: commit it with the tests it counts")
