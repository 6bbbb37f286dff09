"""Concurrency and faults: numbers stay gap-free and unique under two clerks at once, a
crash at any step of an issue leaves no used number without its document and no file
without its record, and a read-only or locked register is a clear error."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sqlalchemy import text

from docgen.register import Register, RegisterError
from docgen.register.faults import STEPS
from tests.helpers.register_cases import notice

ROOT = Path(__file__).resolve().parents[2]
WORKER = """
import json, sys
from docgen.register import Register
case = json.loads(sys.argv[2])
with Register.open(sys.argv[1]) as reg:
    print(json.dumps([reg.issue("notice-of-violation", case, formats=("html",)).number
                      for _ in range(int(sys.argv[3]))]))
"""


def test_two_processes_issuing_at_once_get_distinct_consecutive_numbers(register_url):
    case = json.dumps(notice())
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, register_url, case, "20"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
        results.append(json.loads(out))
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
    register_url, tmp_path, step
):
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump(notice()), encoding="utf-8")
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "docgen.cli",
        "issue",
        "notice-of-violation",
        str(case),
        "-o",
        f"{out}/",
        "-f",
        "html,docx",
    ]
    env = os.environ | {"DOCGEN_CRASH_AT": step}
    crashed = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert crashed.returncode == 70, crashed.stderr
    last, documents, recorded, on_disk = _state(register_url, out)
    assert last == documents  # every number taken belongs to a recorded document
    assert on_disk <= recorded  # every file written has its record
    assert documents == (1 if STEPS.index(step) >= STEPS.index("committed") else 0)
    again = subprocess.run(command, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert f"NOV-2026-{documents + 1:04d}" in again.stdout
    last, documents, recorded, on_disk = _state(register_url, out)
    assert last == documents and on_disk <= recorded


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
    from docgen.register.db import WRITE

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
