"""A backup restored as docs/deploy.md ("Restoring a backup") says, on both backends: the
restored register knows the document issued before the backup, byte for byte, and numbers
on from it; a document issued after the backup is not in it."""

from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import yaml

from tests.helpers import cli, pgserver
from tests.helpers.cli import Run
from tests.helpers.register_cases import notice


def docgen(*args: object, url: str, cwd: Path) -> Run:
    """``docgen ARGS`` on the register at ``url``, run in ``cwd``, in this process."""
    return cli.docgen(*args, env={"DOCGEN_DATABASE_URL": url}, cwd=cwd)


def issue(url: str, folder: Path, observed: str) -> Path:
    """Issue a notice observed on ``observed`` into the register at ``url``: its PDF."""
    out = folder / observed
    out.mkdir()
    case = out / "case.yaml"
    case.write_text(yaml.safe_dump(notice(observed), allow_unicode=True), encoding="utf-8")
    done = docgen(
        "issue", "notice-of-violation", case, "-f", "pdf", "-o", f"{out}/", url=url, cwd=out
    )
    assert done.returncode == 0, done.stderr
    (pdf,) = out.glob("*.pdf")
    return pdf


def restore_sqlite(backup: Path, url: str) -> str:
    """Section 8, SQLite: the damaged register aside, the copy in its place (0600)."""
    register = Path(url.removeprefix("sqlite:///"))
    register.rename(register.with_name(register.name + ".damaged"))
    for extra in ("-wal", "-shm"):
        register.with_name(register.name + extra).unlink(missing_ok=True)
    shutil.copyfile(backup, register)
    os.chmod(register, 0o600)
    return url


def restore_postgresql(backup: Path, url: str) -> str:
    """Section 8, PostgreSQL: a new empty database, then pg_restore --no-owner into it."""
    server, _, _ = url.rpartition("/")
    restored = pgserver.create_database(server, f"restored_{os.getpid()}_{backup.stat().st_ino}")
    done = subprocess.run(
        [str(pgserver.PG_BIN / "pg_restore"), "--no-owner", "--dbname", restored, str(backup)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return restored


def test_a_backup_restored_as_documented(register_url, tmp_path):
    before = issue(register_url, tmp_path, "2026-03-02")
    backup = tmp_path / "docgen-2026-12-01-0230.backup"
    made = docgen("register", "backup", backup, url=register_url, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert stat.S_IMODE(backup.stat().st_mode) & 0o077 == 0  # the backup is the owner's alone
    after = issue(register_url, tmp_path, "2026-04-06")

    if register_url.startswith("sqlite"):
        restored = restore_sqlite(backup, register_url)
    else:
        restored = restore_postgresql(backup, register_url)

    upgraded = docgen("register", "upgrade", url=restored, cwd=tmp_path)
    assert upgraded.returncode == 0, upgraded.stderr
    known = docgen("verify", before, url=restored, cwd=tmp_path)
    assert known.returncode == 0, known.stderr
    assert "NOV-2026-0001" in known.stdout
    lost = docgen("verify", after, url=restored, cwd=tmp_path)
    assert lost.returncode == 1 and "not issued by this register" in lost.stderr
    # The restored register numbers on from what it holds.
    again = issue(restored, tmp_path, "2026-05-04")
    assert again.name.startswith("NOV-2026-0002")


def test_a_backup_onto_a_full_disk_is_one_line_and_leaves_nothing(reg, register_url, tmp_path):
    from tests.test_output_safety import small_disk

    for _ in range(3):  # about 150 KB of PDFs: more than the small disk holds
        reg.issue("notice-of-violation", notice(), formats=("pdf",))
    with small_disk(tmp_path, 48) as disk:
        limit = None
        if disk is None:  # no tmpfs here: a file-size limit fails the same writes
            disk = tmp_path / "disk"
            limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (48_000, 48_000))  # noqa: E731
        target = disk / "register.backup"
        done = subprocess.run(
            [sys.executable, "-m", "docgen.cli", "register", "backup", target],
            capture_output=True, text=True, cwd=tmp_path, preexec_fn=limit, check=False,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.strip().splitlines()
        assert line.startswith(f"error: {target}: the backup could not be written (")
        assert "nothing was written there and the register is unchanged" in line
        assert list(disk.iterdir()) == []  # no backup, no temporary
    assert reg.count() == 3
