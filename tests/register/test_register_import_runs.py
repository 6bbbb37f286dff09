"""One history import at a time, and none counted half-done (docgen.register.people.import_runs),
on SQLite and PostgreSQL: two imports of one file at once (one imports), an issue during
an import (one respondent, either way round), a killed import (listed, reported by
`register check`, counting for nothing until finished or withdrawn)."""

from __future__ import annotations

import hashlib
import signal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from docgen.register.people.history_csv import HEADER_ROW
from docgen.register.people.import_runs import ImportRunning
from docgen.register.people.imports import CHUNK, import_history
from docgen.register.storage.models import Offense, Respondent
from tests.helpers.cli import docgen
from tests.helpers.faults import held_at
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice

ROWS = CHUNK + 100  # two chunks: the import is held after the first
QUENTIN = "Quentin Zabrowski,9 Elm Street,Homer,NY,13077"  # in the second chunk
ADA = "Ada Byron,3 Oak Street,Homer,NY,13077"  # in the first chunk


def _name(i: int) -> str:
    """Names far apart (no near matches among them): two words of hex letters."""
    digest = hashlib.sha256(str(i).encode()).hexdigest()
    return f"{digest[:8]} {digest[8:16]}".replace("0", "g").replace("1", "h")


def history(folder: Path, name: str = "h.csv") -> Path:
    lines = [HEADER_ROW]
    for i in range(ROWS):
        who = {10: ADA, CHUNK + 50: QUENTIN}.get(i, f"{_name(i)},{i} Main Street,Homer,NY,13077")
        lines.append(f"{who},2024-02-01,2024-05-01,Homer Village Court,H-{name}-{i}")
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _held(path: Path, folder: Path):
    """`docgen register import-history PATH` held after its first chunk is committed."""
    return held_at("imported-chunk", ["register", "import-history", path], folder)


def _offense_word(reg, name: str, street: str) -> str:
    issued = reg.issue(
        "notice-of-violation", notice("2026-11-16", name=name, street=street), formats=("html",)
    )
    text = " ".join(html_text(issued.files["html"].decode()).split())
    return next(w for w in ("first", "second", "third") if f"{w} offense" in text)


def _count(reg, what) -> int:
    with reg.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(what)).scalar()


def test_two_imports_of_one_file_at_once_one_imports(reg, tmp_path):
    path = history(tmp_path)
    first, pause = _held(path, tmp_path)
    with pytest.raises(ImportRunning, match="another history import is running"):
        import_history(reg, path)
    refused = docgen("register", "import-history", path)
    assert refused.returncode == 1
    assert "another history import is running" in refused.stderr and "h.csv" in refused.stderr
    Path(f"{pause}.go").touch()
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert f"{ROWS} row(s) imported" in out
    assert _count(reg, Offense) == ROWS
    again = import_history(reg, path)  # once it has finished: every row a duplicate
    assert again.batch is None and len(again.duplicates) == ROWS
    assert _count(reg, Offense) == ROWS


def test_an_issue_during_an_import_is_one_respondent_either_way(reg, tmp_path):
    path = history(tmp_path)
    proc, pause = _held(path, tmp_path)
    # the import made Ada Byron in its first chunk: the issue finds her
    ada = reg.issue(
        "notice-of-violation", notice(name="Ada Byron", street="3 Oak Street"), formats=("html",)
    )
    assert ada.respondent.created is False
    # Quentin Zabrowski is in the chunk still to come: the issue makes him, the import
    # then finds him
    quentin = reg.issue(
        "notice-of-violation",
        notice(name="Quentin Zabrowski", street="9 Elm Street"),
        formats=("html",),
    )
    assert quentin.respondent.created is True
    Path(f"{pause}.go").touch()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    with reg.engine.connect() as conn:
        named = conn.execute(
            select(Respondent.id).where(Respondent.name == "Quentin Zabrowski")
        ).all()
        convicted = conn.execute(
            select(Offense.respondent_id).where(Offense.docket == f"H-h.csv-{CHUNK + 50}")
        ).scalar()
    assert named == [(quentin.respondent.id,)]
    assert convicted == quentin.respondent.id
    assert _offense_word(reg, "Quentin Zabrowski", "9 Elm Street") == "second"
    assert _count(reg, Respondent) == ROWS


def test_a_killed_import_is_listed_counts_for_nothing_and_can_be_finished(reg, tmp_path):
    path = history(tmp_path)
    proc, _ = _held(path, tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    listed = docgen("register", "imports")
    assert listed.returncode == 0, listed.stderr
    assert f"import 1: {path}" in listed.stdout
    assert f"{CHUNK} row(s)" in listed.stdout and "STOPPED unfinished" in listed.stdout
    checked = docgen("register", "check")
    assert checked.returncode == 1
    assert "STOPPED unfinished" in checked.stdout and "--undo 1" in checked.stdout
    # Ada's conviction is in the register, but counts for nothing yet
    assert _offense_word(reg, "Ada Byron", "3 Oak Street") == "first"
    other = history(tmp_path, "other.csv")
    with pytest.raises(Exception, match="stopped unfinished; finish it"):
        import_history(reg, other)
    finished = import_history(reg, path)
    assert finished.batch == 1 and finished.before == CHUNK
    assert len(finished.lines) == ROWS - CHUNK and finished.duplicates == []
    assert _count(reg, Offense) == ROWS + 1  # and Ada's notice
    assert "finished" in docgen("register", "imports").stdout
    assert docgen("register", "check").returncode == 0
    assert _offense_word(reg, "Ada Byron", "3 Oak Street") == "second"


def test_a_killed_import_withdrawn_counts_for_nothing(reg, tmp_path):
    path = history(tmp_path)
    proc, _ = _held(path, tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    withdrawn = docgen("register", "import-history", "--undo", "1")
    assert withdrawn.returncode == 0, withdrawn.stderr
    assert f"{CHUNK} offense(s) removed" in withdrawn.stdout
    assert "withdrawn" in docgen("register", "imports").stdout
    assert docgen("register", "check").returncode == 0
    assert import_history(reg, path).batch == 2
