"""Short write transactions: an issue renders outside the register's write transaction, so
another process writes while it renders; a number or a case taken meanwhile is noticed in
the transaction that records, and the document is rendered again (docgen.register.matter.issuing,
rendered_outside). The issuing process is held in its render (faults.pause) while the
test's own process acts: the order of events is the assertion, not a time."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from docgen.register import Register
from docgen.register.storage.db import WRITE_LOCK
from tests.helpers.register_cases import notice

# Issues argv[2] (a case as JSON) and prints its number and whether it was a repeat.
ISSUER = """
import json, sys
from docgen.register import Register
with Register.open(sys.argv[1]) as reg:
    issued = reg.issue("notice-of-violation", json.loads(sys.argv[2]), formats=("html",))
    print(json.dumps([issued.number, issued.repeated]))
"""


def held_in_render(url: str, case: dict, folder: Path) -> tuple[subprocess.Popen, Path]:
    """A process issuing ``case``, held once it renders (outside any transaction)."""
    pause = folder / "pause"
    env = {**os.environ, "DOCGEN_PAUSE_AT": "rendering", "DOCGEN_PAUSE_FILE": str(pause)}
    issuer = subprocess.Popen(
        [sys.executable, "-c", ISSUER, url, json.dumps(case)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    reached = Path(f"{pause}.reached")
    deadline = time.monotonic() + 120
    while not reached.exists():
        if issuer.poll() is not None or time.monotonic() > deadline:
            issuer.kill()
            raise AssertionError(f"the issue never rendered: {issuer.communicate()}")
        time.sleep(0.05)
    return issuer, pause


def released(issuer: subprocess.Popen, pause: Path) -> tuple[str, bool]:
    Path(f"{pause}.go").touch()
    out, err = issuer.communicate(timeout=300)
    assert issuer.returncode == 0, err
    number, repeated = json.loads(out)
    return number, repeated


def test_another_process_writes_while_an_issue_renders(register_url, tmp_path):
    with Register.open(register_url) as reg:
        first = reg.issue("notice-of-violation", notice(name="Ann Other"), formats=("html",))
    issuer, pause = held_in_render(register_url, notice(), tmp_path)
    try:
        # The write lock is free while the document renders...
        if register_url.startswith("sqlite"):
            path = register_url.removeprefix("sqlite:///")
            probe = sqlite3.connect(path, timeout=0, isolation_level=None)
            probe.execute("BEGIN IMMEDIATE")  # "database is locked" at once if it were held
            probe.execute("ROLLBACK")
            probe.close()
        else:
            with Register.open(register_url) as reg, reg.engine.begin() as conn:
                free = text("SELECT pg_try_advisory_xact_lock(:k)")
                assert conn.execute(free, {"k": WRITE_LOCK}).scalar() is True
        # ...so a register write of another process is done before the render ends.
        with Register.open(register_url, timeout=1) as reg:
            reg.record_disposition(first.number, "dismissed", by="clerk2")
        assert issuer.poll() is None  # still held in its render
    finally:
        number, repeated = released(issuer, pause)
    assert (number, repeated) == ("NOV-2026-0002", False)
    with Register.open(register_url) as reg:
        assert reg.count() == 2
        assert "NOV-2026-0002" in reg.files(number)["html"].decode()


def test_a_number_taken_during_the_render_is_rendered_again_with_the_next(register_url, tmp_path):
    issuer, pause = held_in_render(register_url, notice(), tmp_path)
    try:
        with Register.open(register_url) as reg:  # renders, records 0001 meanwhile
            other = reg.issue("notice-of-violation", notice(name="Bo Other"), formats=("html",))
        assert other.number == "NOV-2026-0001"
    finally:
        number, repeated = released(issuer, pause)
    assert (number, repeated) == ("NOV-2026-0002", False)
    with Register.open(register_url) as reg, reg.engine.connect() as conn:
        page = reg.files(number)["html"].decode()
        assert "NOV-2026-0002" in page and "NOV-2026-0001" not in page
        assert sorted(d.number for d in reg.documents()) == ["NOV-2026-0001", "NOV-2026-0002"]
        last = conn.execute(text("SELECT max(last) FROM counters")).scalar()
    assert last == 2  # gap-free: the number first rendered was never taken twice


def test_the_same_case_issued_during_the_render_is_one_document(register_url, tmp_path):
    case = notice()
    issuer, pause = held_in_render(register_url, case, tmp_path)
    try:
        with Register.open(register_url) as reg:
            mine = reg.issue("notice-of-violation", case, formats=("html",))
    finally:
        number, repeated = released(issuer, pause)
    assert (number, repeated) == (mine.number, True)
    with Register.open(register_url) as reg:
        assert reg.count() == 1
        assert [a["action"] for a in reg.audit()].count("issue") == 1
