"""One home, one register: a file that is not a register is never re-created, DOCGEN_HOME
is a path (not a URL), a register without write access is read; revisions are reported
truthfully (a newer docgen's, two first upgrades at once)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from docgen.register import Register, RegisterError
from docgen.register.storage import db
from tests.helpers import pgserver
from tests.helpers.register_cases import notice
from tests.register.conftest import _numbers
from tests.register.test_register_cli import case_file, docgen

DOCGEN = (sys.executable, "-m", "docgen.cli")


def home_env(monkeypatch, home: Path) -> None:
    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    monkeypatch.setenv("DOCGEN_HOME", str(home))


def issue_here(folder: Path, out: str = "out/") -> subprocess.CompletedProcess:
    case = case_file(folder, notice())
    return docgen("issue", "notice-of-violation", case, "-f", "html", "-o", out, cwd=folder)


@pytest.mark.parametrize("content", [b"", b"not a database at all\n" * 10])
def test_an_empty_or_foreign_file_is_an_error_and_is_left_as_it_was(tmp_path, monkeypatch, content):
    home = tmp_path / "home"
    home.mkdir()
    (home / "docgen.sqlite").write_bytes(content)
    home_env(monkeypatch, home)
    run = issue_here(tmp_path)
    assert run.returncode == 1
    reason = "an empty file (0 bytes)" if not content else "is not a SQLite database"
    assert reason in run.stderr and "Traceback" not in run.stderr
    assert (home / "docgen.sqlite").read_bytes() == content
    assert not (tmp_path / "out").exists()


def _foreign_tables(url: str) -> None:
    engine = create_engine(db.driver_url(url))
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)"))
    engine.dispose()


def _empty_database(request, tmp_path) -> str:
    if request.node.callspec.params["backend"] == "sqlite":
        return db.sqlite_url(tmp_path / "empty" / "docgen.sqlite")
    server = request.getfixturevalue("postgres_template")
    return pgserver.create_database(server, f"empty_{os.getpid()}_{next(_numbers)}")


@pytest.fixture(params=("sqlite", "postgresql"))
def backend(request):
    return request.param


def test_a_database_of_other_tables_is_not_a_register(request, tmp_path, backend):
    url = _empty_database(request, tmp_path)
    if backend == "sqlite":
        Path(db.sqlite_path(url)).parent.mkdir()
    _foreign_tables(url)
    with pytest.raises(RegisterError, match="is not a docgen register"):
        Register.open(url)


def test_a_register_of_a_newer_docgen_says_so(reg):
    with reg.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    for readonly in (False, True):
        with pytest.raises(RegisterError) as err:
            Register.open(reg.url, readonly=readonly)
        assert str(err.value).startswith(
            "this register was upgraded by a newer docgen (revision 0099); upgrade docgen"
        )


def test_two_first_upgrades_at_once_report_truthfully(request, tmp_path, backend, monkeypatch):
    url = _empty_database(request, tmp_path)
    monkeypatch.setenv("DOCGEN_DATABASE_URL", url)
    command = [sys.executable, "-m", "docgen.cli", "register", "upgrade"]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    said = sorted(out for out, _ in outputs)
    assert sum("migrated from empty" in out for out in said) == 1, said
    assert sum(f"already at revision {db.HEAD}" in out for out in said) == 1, said


def test_an_upgrade_finished_between_two_reads_is_not_taken_for_foreign_tables(
    request, tmp_path, backend
):
    """The moment two first upgrades at once met in a whole run: this process read no
    revision; the other one's upgrade committed; then this one listed the tables (and
    called a finished register "not a docgen register")."""
    url = _empty_database(request, tmp_path)
    mine = db.make_engine(url)
    try:
        assert db.current_revision(mine) is None
        Register.open(url).close()  # the other process: its first upgrade, committed
        with mine.connect() as conn:
            db._refuse_foreign(conn, "the register")
    finally:
        mine.dispose()


def test_docgen_home_is_a_path_not_a_url(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    homes = [tmp_path / "reg?a", tmp_path / "reg?b", tmp_path / "reg%41"]
    for n, home in enumerate(homes):
        monkeypatch.setenv("DOCGEN_HOME", str(home))
        run = issue_here(tmp_path, f"out{n}/")
        assert run.returncode == 0, run.stderr
        assert "issued NOV-2026-0001" in run.stdout  # each home is a register of its own
    for home in homes:
        assert (home / "docgen.sqlite").stat().st_size > 0
    assert not (tmp_path / "regA").exists() and not (tmp_path / "reg").exists()


def test_a_read_only_register_is_read_by_verify_history_and_export(tmp_path):
    """Run as a user without write access; issuing is refused with a clear error, reading
    works. Root bypasses permissions through its capabilities: as root the commands run
    with none (setpriv), so the files' modes bind them as they bind any owner. (They ran as
    ``nobody`` before, who cannot read a checkout in a private folder: the test was
    skipped there.)"""
    folder = Path(tempfile.mkdtemp(prefix="docgen-ro-"))
    try:
        home = folder / "home"
        (folder / "settings").mkdir()  # none: the packs' own values, readable by anyone
        env = {**os.environ, "DOCGEN_HOME": str(home), "DOCGEN_SETTINGS": f"{folder}/settings"}
        env.pop("DOCGEN_DATABASE_URL", None)
        case = case_file(folder, notice())
        made = subprocess.run(
            [*DOCGEN, "issue", "notice-of-violation", case, "-f", "html", "-o", f"{folder}/out/"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert made.returncode == 0, made.stderr
        issued = next((folder / "out").iterdir())
        for path in (folder, folder / "out", issued, case):
            path.chmod(0o755 if path.is_dir() else 0o644)
        (home / "docgen.sqlite").chmod(0o444)
        home.chmod(0o555)
        as_reader = (
            ["setpriv", "--inh-caps=-all", "--bounding-set=-all"] if os.getuid() == 0 else []
        )

        def run(*args: str) -> subprocess.CompletedProcess:
            return subprocess.run(
                [*as_reader, *DOCGEN, *args],
                capture_output=True,
                text=True,
                env=env,
                cwd=folder,
                check=False,
            )

        assert (history := run("history", "1")).returncode == 0, history.stderr
        assert "NOV-2026-0001" in history.stdout
        assert (verified := run("verify", str(issued))).returncode == 0, verified.stderr
        assert "NOV-2026-0001" in verified.stdout
        again = folder / "again"
        again.mkdir()
        again.chmod(0o777)
        assert (exported := run("export", "NOV-2026-0001", "-o", f"{again}/")).returncode == 0
        assert next(again.iterdir()).read_bytes() == issued.read_bytes(), exported.stderr
        refused = run("issue", "notice-of-violation", str(case), "-f", "html")
        assert refused.returncode == 1
        assert "is read-only" in refused.stderr and "Traceback" not in refused.stderr
        assert sorted(p.name for p in home.iterdir()) == ["docgen.sqlite"]
    finally:
        for path in folder.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(folder)


@pytest.mark.parametrize("value", ["soon", "0", "-5", "nan", "86400"])
def test_a_lock_timeout_that_is_not_seconds_is_an_error_naming_the_setting(
    tmp_path, monkeypatch, value
):
    home_env(monkeypatch, tmp_path / "home")
    monkeypatch.setenv("DOCGEN_LOCK_TIMEOUT", value)
    run = issue_here(tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "DOCGEN_LOCK_TIMEOUT" in run.stderr and "number of seconds" in run.stderr
    assert not (tmp_path / "out").exists()


def test_a_register_locked_longer_than_the_lock_timeout_is_given_up(tmp_path, monkeypatch):
    """A writer waits DOCGEN_LOCK_TIMEOUT seconds for a register another holds (30 unless
    set), then gives up saying so; nothing is issued."""
    import sqlite3
    import time

    home_env(monkeypatch, tmp_path / "home")
    monkeypatch.setenv("DOCGEN_LOCK_TIMEOUT", "1.5")
    Register.open().close()
    holder = sqlite3.connect(tmp_path / "home" / "docgen.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        run = issue_here(tmp_path)
        waited = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert run.returncode != 0 and "Traceback" not in run.stderr, run.stderr
    assert "lock" in run.stderr.lower() or "busy" in run.stderr.lower(), run.stderr
    assert 1.5 <= waited < 25, waited
    assert not (tmp_path / "out").exists()
