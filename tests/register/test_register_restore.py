"""A backup restored as docs/deploy.md ("Restoring a backup") says, on both backends: the
restored register knows the document issued before the backup, byte for byte, and numbers
on from it; a document issued after the backup is not in it."""

from __future__ import annotations

import os
import resource
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


def restore(backup: Path, url: str, cwd: Path) -> str:
    """docs/deploy.md, "Restoring a backup": SQLite in the register's own place (the damaged
    one kept aside); PostgreSQL into a new, empty database."""
    if not url.startswith("sqlite"):
        server, _, _ = url.rpartition("/")
        url = pgserver.create_database(server, f"restored_{os.getpid()}_{backup.stat().st_ino}")
    done = docgen("register", "restore", backup, "--force", url=url, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "nothing is issued until the numbers used after the backup" in done.stdout
    return url


def test_a_backup_restored_as_documented_never_gives_a_number_twice(register_url, tmp_path):
    before = issue(register_url, tmp_path, "2026-03-02")
    backup = tmp_path / "docgen-2026-12-01-0230.backup"
    made = docgen("register", "backup", backup, url=register_url, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert stat.S_IMODE(backup.stat().st_mode) & 0o077 == 0  # the backup is the owner's alone
    after = issue(register_url, tmp_path, "2026-04-06")  # NOV-2026-0002, served on paper
    assert after.name.startswith("NOV-2026-0002")

    restored = restore(backup, register_url, tmp_path)
    if register_url.startswith("sqlite"):  # the register it replaced is kept, never deleted
        (kept,) = Path(register_url.removeprefix("sqlite:///")).parent.glob("*.replaced-*")
        assert stat.S_IMODE(Path(register_url.removeprefix("sqlite:///")).stat().st_mode) == 0o600
        assert kept.stat().st_size > 0
    known = docgen("verify", before, url=restored, cwd=tmp_path)
    assert known.returncode == 0, known.stderr
    assert "NOV-2026-0001" in known.stdout
    lost = docgen("verify", after, url=restored, cwd=tmp_path)
    assert lost.returncode == 1 and "not issued by this register" in lost.stderr

    # Nothing is numbered until the clerk says which numbers were used after the backup.
    out = tmp_path / "refused"
    out.mkdir()
    case = out / "case.yaml"
    case.write_text(yaml.safe_dump(notice("2026-05-04")), encoding="utf-8")
    refused = docgen("issue", "notice-of-violation", case, "-o", f"{out}/", url=restored, cwd=out)
    assert refused.returncode == 1
    assert "restored on" in refused.stderr and "register account-numbers" in refused.stderr
    assert list(out.iterdir()) == [case]
    checked = docgen("register", "check", url=restored, cwd=tmp_path)
    assert "nothing is issued until the numbers used after the backup" in checked.stdout

    accounted = docgen(
        "register", "account-numbers", "--used-through", "nov-2026-0002", url=restored, cwd=out
    )
    assert accounted.returncode == 0, accounted.stderr
    assert "gap recorded: NOV-2026-0002 (issued after the backup)" in accounted.stdout
    again = issue(restored, tmp_path, "2026-05-04")
    assert again.name.startswith("NOV-2026-0003")  # never 0002 again
    checked = docgen("register", "check", url=restored, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout
    assert "gap: NOV-2026-0002 (1 number(s)): issued after the backup restored on" in (
        checked.stdout
    )


def test_a_restore_refuses_what_is_not_a_backup_or_would_replace_issued_documents(
    register_url, tmp_path
):
    issue(register_url, tmp_path, "2026-03-02")
    backup = tmp_path / "good.backup"
    assert docgen("register", "backup", backup, url=register_url, cwd=tmp_path).returncode == 0
    other = tmp_path / "notes.txt"
    other.write_text("not a backup\n", encoding="utf-8")

    for file in (other, tmp_path / "missing.backup"):
        done = docgen("register", "restore", file, url=register_url, cwd=tmp_path)
        assert done.returncode == 1
        assert done.stderr.startswith(f"error: {file}") and "Traceback" not in done.stderr
    # Over a register that has issued: refused (SQLite without --force; PostgreSQL always:
    # a restore goes into an empty database, never over one).
    done = docgen("register", "restore", backup, url=register_url, cwd=tmp_path)
    assert done.returncode == 1
    if register_url.startswith("sqlite"):
        assert "holds 1 issued document(s)" in done.stderr and "--force" in done.stderr
    else:
        forced = docgen("register", "restore", backup, "--force", url=register_url, cwd=tmp_path)
        for refused in (done, forced):
            assert refused.returncode == 1
            assert "1 issued document(s)); on PostgreSQL a restore goes into an empty database" in (
                refused.stderr
            )
    # A backup of the other backend is named as such.
    wrong = tmp_path / "wrong.backup"
    wrong.write_bytes(b"PGDMP" if register_url.startswith("sqlite") else b"SQLite format 3\x00")
    done = docgen("register", "restore", wrong, "--force", url=register_url, cwd=tmp_path)
    assert done.returncode == 1 and "is not a backup of a" in done.stderr


def test_accounting_for_numbers_says_what_is_wrong(register_url, tmp_path):
    issue(register_url, tmp_path, "2026-03-02")
    issue(register_url, tmp_path, "2026-03-09")
    backup = tmp_path / "b.backup"
    assert docgen("register", "backup", backup, url=register_url, cwd=tmp_path).returncode == 0
    none = docgen("register", "account-numbers", "--none-since", url=register_url, cwd=tmp_path)
    assert none.returncode == 1 and "no restore is waiting" in none.stderr
    restored = restore(backup, register_url, tmp_path)

    def account(*args: str) -> subprocess.CompletedProcess:
        return docgen("register", "account-numbers", *args, url=restored, cwd=tmp_path)

    both = account("--none-since", "--used-through", "NOV-2026-0005")
    assert both.returncode == 1 and "say either" in both.stderr
    assert account().returncode == 1
    held = account("--used-through", "NOV-2026-0002")
    assert held.returncode == 1 and "already holds the notice-of-violation numbers through 2" in (
        held.stderr
    )
    unknown = account("--used-through", "XYZ-1")
    assert unknown.returncode == 1 and "'XYZ-1' is not a document number" in unknown.stderr
    done = account("--none-since")
    assert done.returncode == 0, done.stderr
    assert issue(restored, tmp_path, "2026-05-04").name.startswith("NOV-2026-0003")


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
