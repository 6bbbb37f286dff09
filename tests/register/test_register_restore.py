"""A backup restored as docs/deploy.md ("Restoring a backup") says, on both backends: the
restored register knows the document issued before the backup, byte for byte, and numbers
on from it; a document issued after the backup is not in it."""

from __future__ import annotations

import os
import re
import resource
import stat
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import yaml
from sqlalchemy import select, update

from docgen.register import Register
from docgen.register.matter.inspections import notify_deficiency, record_inspection_case
from docgen.register.storage import db
from docgen.register.storage.models import Counter, Document, NumberGap, Restore
from tests.helpers import cli, pgserver
from tests.helpers.cli import Run
from tests.helpers.inspection_cases import inspection
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of


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
        "register", "account-numbers", "--used-through", "nov-2026-0002", "--others-unused",
        url=restored, cwd=out,
    )  # fmt: skip
    assert accounted.returncode == 0, accounted.stderr
    assert "gap recorded: NOV-2026-0002 (issued after the backup)" in accounted.stdout
    again = issue(restored, tmp_path, "2026-05-04")
    assert again.name.startswith("NOV-2026-0003")  # never 0002 again
    checked = docgen("register", "check", url=restored, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout
    assert "gap: NOV-2026-0002 (1 number(s)): issued after the backup restored on" in (
        checked.stdout
    )


def a_day(reg: Register, folder: Path, observed: str) -> None:
    """A notice served (its affidavit issued), an inspection report and its notice of
    deficiency: four series, each on by one."""
    nov = reg.issue("notice-of-violation", notice(observed), formats=("html",)).number
    reg.record_service(nov, service_of("personal-delivery", date(2026, 12, 1)), formats=("html",))
    (folder / observed).mkdir()
    case = inspection(folder / observed, photos=0, time=f"{9 + int(observed[5:7])}:10")
    ins = record_inspection_case(reg, case, formats=("html",))
    notify_deficiency(reg, ins.number, date(2026, 11, 30), formats=("html",))


def restored_after_a_day(register_url: str, tmp_path: Path) -> str:
    """The backup holds a day's four documents; after it each series went on by one (on
    paper now, not in the backup); the register restored from it."""
    with Register.open(register_url) as reg:
        a_day(reg, tmp_path, "2026-03-02")
        backup = tmp_path / "b.backup"
        assert docgen("register", "backup", backup, url=register_url, cwd=tmp_path).returncode == 0
        a_day(reg, tmp_path, "2026-04-06")  # NOV, AOS, INS and NOD 2026-0002
    return restore(backup, register_url, tmp_path)


def test_every_series_is_accounted_for_after_a_restore(register_url, tmp_path):
    """Issue 48, item 2: an account naming only the notices is refused, naming in plain
    words each other series the register numbers; the whole account numbers every series
    on above what was used since the backup."""
    restored = restored_after_a_day(register_url, tmp_path)

    def account(*args: str) -> Run:
        return docgen("register", "account-numbers", *args, url=restored, cwd=tmp_path)

    ins = "Inspection report, 2026, Village of Homer: the backup's last is INS-2026-0001"
    assert ins in account("--list").stdout
    partial = account("--used-through", "NOV-2026-0002")
    assert partial.returncode == 1 and "nothing was recorded" in partial.stderr
    for left in (
        "Affidavit of service, 2026, Village of Homer: the backup's last is AOS-2026-0001",
        ins,
        "Notice of deficiency, 2026, Village of Homer: the backup's last is NOD-2026-0001",
        "Stop-work order, 2026, Village of Homer (SWO-2026-0001 on): the backup holds none",
    ):
        assert f"\n  {left}\n" in partial.stderr
    assert "Notice of violation" not in partial.stderr and "notice-of" not in partial.stderr
    same = account("--used-through", "NOV-2026-0002", "--used-through", "NOV-2026-0003")
    assert same.returncode == 1 and "are of the same series" in same.stderr
    numbers = ("NOV-2026-0002", "AOS-2026-0002", "INS-2026-0002", "NOD-2026-0002")
    whole = account(*[a for n in numbers for a in ("--used-through", n)], "--others-unused")
    assert whole.returncode == 0, whole.stderr
    with Register.open(restored) as reg:
        a_day(reg, tmp_path, "2026-05-04")
        with db.read_session(reg.engine) as session:
            made = set(session.scalars(select(Document.number)))
    assert {"NOV-2026-0003", "AOS-2026-0003", "INS-2026-0003", "NOD-2026-0003"} <= made
    assert not {"AOS-2026-0002", "INS-2026-0002", "NOD-2026-0002"} & made
    checked = docgen("register", "check", url=restored, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout
    # Every other series the pack numbers (nine when this was written; each new kind adds one).
    others = re.search(r"none used in (\d+) other series", checked.stdout)
    assert others and int(others[1]) >= 9 and "twice" not in checked.stdout


def test_register_check_names_a_number_given_twice(register_url, tmp_path):
    """A register accounted for before every series had to be named (the notices only, as
    the issue found it): the inspection report, deficiency notice and affidavit numbered
    after it repeat numbers used on paper, and `register check` names each."""
    restored = restored_after_a_day(register_url, tmp_path)
    nov = ("homer", "notice-of-violation", 2026)
    with Register.open(restored) as reg:
        with db.write_session(reg.engine) as session:  # what the old account recorded
            waiting = session.scalars(select(Restore)).one()
            session.execute(
                update(Counter)
                .where(Counter.jurisdiction == nov[0], Counter.kind == nov[1], Counter.year == 2026)
                .values(last=2)
            )
            session.add(
                NumberGap(
                    jurisdiction=nov[0], kind=nov[1], year=2026, first=2, last=2,
                    reason="issued after the backup", recorded_by="t", recorded_at=waiting.at,
                )
            )  # fmt: skip
            waiting.accounted_at, waiting.accounted_by = waiting.at, "t"
            waiting.gaps = [{"series": "homer notice-of-violation 2026", "after": 1, "through": 2}]
        a_day(reg, tmp_path, "2026-05-04")
    checked = docgen("register", "check", url=restored, cwd=tmp_path)
    assert checked.returncode == 1, checked.stdout
    for number in ("AOS-2026-0002", "INS-2026-0002", "NOD-2026-0002"):
        assert f"given twice: {number} was given after the restore of " in checked.stdout
    assert "given twice: NOV" not in checked.stdout
    # A number the register holds inside a gap recorded as used elsewhere is named too.
    with Register.open(restored) as reg, db.write_session(reg.engine) as session:
        session.add(
            NumberGap(
                jurisdiction=nov[0], kind=nov[1], year=2026, first=3, last=3,
                reason="paper notices before the register", recorded_by="t",
                recorded_at=checked_at(),
            )
        )  # fmt: skip
    checked = docgen("register", "check", url=restored, cwd=tmp_path)
    assert "given twice: NOV-2026-0003 is a document of this register, yet recorded as used " in (
        checked.stdout
    )


def checked_at() -> datetime:
    return datetime.now(UTC)


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
