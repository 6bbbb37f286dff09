"""Concurrency and faults: numbers stay gap-free and unique under two clerks at once, a
crash at any step of an issue leaves no used number without its document and no file
without its record, and a read-only or locked register is a clear error."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
import yaml
from sqlalchemy import text

from docgen.faults import STEPS
from docgen.register import Register, RegisterError
from tests.helpers.cli import docgen
from tests.helpers.forks import forking
from tests.helpers.register_cases import notice

ROOT = Path(__file__).resolve().parents[2]
# Issues argv[3] cases, each its own (argv[4] names the clerk; "same": one case each time).
WORKER = """
import copy, json, sys
from docgen.register import Register
case = json.loads(sys.argv[2])
def nth(i):
    if sys.argv[4] == "same":
        return copy.deepcopy(case)
    own = copy.deepcopy(case)
    own["remedies"][0]["measure"] += f" ({sys.argv[4]}, {i})"
    return own
with Register.open(sys.argv[1]) as reg:
    print(json.dumps([reg.issue("notice-of-violation", nth(i), formats=("html",)).number
                      for i in range(int(sys.argv[3]))]))
"""


# What an issue imports (python -X importtime): most of a fresh process's start.
ISSUE_IMPORTS = (
    "docgen.cli",
    "docgen.api",
    "docgen.register.commands.documents",
    "docgen.register.storage.db",
    "docgen.register.matter.issuing",
    "docgen.register.matter.lifting",
    "docgen.register.people.history",
    "docgen.render.docx",
    "docgen.instruments.docx_checks",
    "docgen.desk.commands",
    "alembic.context",
    "alembic.runtime.migration",
    "sqlalchemy.dialects.postgresql",
    "holidays",
    "segno",
)


@pytest.fixture(scope="module")
def forks():
    """Each clerk and each crashing issue is a process of its own, forked after the
    imports (tests/helpers/forks.py): 16 fresh interpreters a run, before, each paid them."""
    with forking(*ISSUE_IMPORTS) as server:
        yield server


def _clerks(forks, register_url: str, case: str, count: str, *names: str) -> list[list[str]]:
    workers = forks.run(*(["-c", WORKER, register_url, case, count, name] for name in names))
    for worker in workers:
        assert worker.returncode == 0, worker.stderr
    return [json.loads(worker.stdout) for worker in workers]


def test_two_processes_issuing_the_same_case_at_once_make_one_document(forks, register_url):
    first, second = _clerks(forks, register_url, json.dumps(notice()), "3", "same", "same")
    assert first == second == ["NOV-2026-0001"] * 3
    with Register.open(register_url) as reg:
        assert reg.count() == 1
        assert [a["action"] for a in reg.audit()].count("issue") == 1


def test_two_processes_issuing_at_once_get_distinct_consecutive_numbers(forks, register_url):
    results = _clerks(forks, register_url, json.dumps(notice()), "20", "a", "b")
    numbers = results[0] + results[1]
    assert len(set(numbers)) == 40
    assert sorted(numbers) == [f"NOV-2026-{n:04d}" for n in range(1, 41)]
    for mine in results:  # each clerk's numbers rise in the order issued
        assert mine == sorted(mine)


def _state(url: str, folder: Path) -> tuple[int, int, set[str], set[str]]:
    with Register.open(url) as reg, reg.engine.connect() as conn:
        last = conn.execute(text("SELECT coalesce(max(last), 0) FROM counters")).scalar()
        documents = conn.execute(text("SELECT count(*) FROM documents")).scalar()
        recorded = set(conn.execute(text("SELECT sha256 FROM document_files")).scalars())
    on_disk = {hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.glob("*") if p.is_file()}
    return last, documents, recorded, on_disk


@pytest.mark.parametrize("step", STEPS)
def test_a_crash_at_any_step_leaves_no_number_without_document_nor_file_without_record(
    forks, register_url, tmp_path, step
):
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump(notice()), encoding="utf-8")
    out = tmp_path / "out"
    args = ["issue", "notice-of-violation", case, "-o", f"{out}/", "-f", "html,docx"]
    env = os.environ | {"DOCGEN_CRASH_AT": step}
    (crashed,) = forks.run(["-m", "docgen.cli", *args], env=env)
    assert crashed.returncode == 70, crashed.stderr
    last, documents, recorded, on_disk = _state(register_url, out)
    assert last == documents  # every number taken belongs to a recorded document
    assert on_disk <= recorded  # every file written has its record
    assert documents == (1 if STEPS.index(step) >= STEPS.index("committed") else 0)
    # The same case again: a crash before the commit left nothing, so it is issued now; a
    # crash after it left the whole record, so the first document is returned (one
    # number, one record) and its files are written (in this process: only the crash
    # needs a process of its own).
    again = docgen(*args)
    assert again.returncode == 0, again.stderr
    assert "NOV-2026-0001" in again.stdout
    assert ("already issued" in again.stdout) == (documents == 1)
    last, documents, recorded, on_disk = _state(register_url, out)
    assert last == documents == 1 and on_disk == recorded


def test_a_read_only_register_is_a_clear_error(register_url, tmp_path):
    with Register.open(register_url):
        pass
    if register_url.startswith("sqlite"):
        path = register_url.split("///", 1)[1]
        url = f"sqlite:///file:{path}?mode=ro&uri=true"
    else:
        with Register.open(register_url) as reg, reg.engine.connect() as conn:
            name = register_url.rsplit("/", 1)[1]
            conn.execute(text(f"ALTER DATABASE {name} SET default_transaction_read_only = on"))
            conn.commit()
        url = register_url
    with Register.open(url) as reg, pytest.raises(RegisterError, match="is read-only"):
        reg.issue("notice-of-violation", notice(), formats=("html",))


def test_a_locked_register_is_a_clear_error_not_a_hang(register_url):
    from docgen.register.storage.db import WRITE

    with Register.open(register_url) as holder, holder.engine.connect() as conn:
        conn = conn.execution_options(**{WRITE: True})  # SQLite: BEGIN IMMEDIATE
        with conn.begin():
            if register_url.startswith("postgresql"):
                conn.execute(text("LOCK TABLE counters IN ACCESS EXCLUSIVE MODE"))
            with (
                Register.open(register_url, timeout=0.5) as reg,
                pytest.raises(RegisterError, match="is locked by another process"),
            ):
                reg.issue("notice-of-violation", notice(), formats=("html",))
