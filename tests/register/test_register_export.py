"""Say what was recorded, and notice damage: a document recorded whose files could not be
written says so with its number; `docgen export` writes the stored files again byte for
byte; stored bytes that no longer match their SHA-256 are refused, naming the document."""

from __future__ import annotations

import errno
import hashlib
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from docgen.register import Issue, Register, RegisterError
from docgen.register.matter.issuing import NotWritten
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of
from tests.register.test_register_cli import case_file, docgen


def test_export_writes_the_stored_files_byte_for_byte(register_url, tmp_path):
    case = case_file(tmp_path, notice())
    issued = docgen(
        "issue", "notice-of-violation", case, "-f", "html,pdf", "-o", "a/", cwd=tmp_path
    )
    assert issued.returncode == 0, issued.stderr
    again = docgen("export", "nov-2026-0001", "-o", "b/", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    written = sorted((tmp_path / "b").iterdir())
    assert [p.suffix for p in written] == [".html", ".pdf"]
    first = {p.suffix: p.read_bytes() for p in (tmp_path / "a").iterdir()}
    assert {p.suffix: p.read_bytes() for p in written} == first
    verified = docgen("verify", written[1], cwd=tmp_path)
    assert verified.returncode == 0 and "NOV-2026-0001" in verified.stdout
    missing = docgen("export", "NOV-2026-0001", "-f", "docx", "-o", "c/", cwd=tmp_path)
    assert missing.returncode == 1 and "no docx stored (stored: html, pdf)" in missing.stderr
    assert not list(tmp_path.rglob("*.part"))


def test_files_not_written_after_the_commit_say_the_number_was_recorded(reg, tmp_path, monkeypatch):
    import docgen.register.matter.issuing as issuing

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(issuing, "write_files", disk_full)
    with pytest.raises(NotWritten) as err:
        reg.issue("notice-of-violation", notice(), formats=("html",), out=f"{tmp_path}/out/")
    assert err.value.number == "NOV-2026-0001"
    assert str(err.value) == (
        "NOV-2026-0001 was recorded; its files were not written: [Errno 28] No space left on "
        "device; write them with `docgen export NOV-2026-0001 -o DIR`"
    )
    monkeypatch.undo()
    assert reg.count() == 1  # recorded: a retry would issue NOV-2026-0002, export does not
    written = reg.export("NOV-2026-0001", f"{tmp_path}/out/", ("html",))
    assert written[0].read_bytes() == reg.files("NOV-2026-0001")["html"]


def _alter_stored_pdf(reg) -> None:
    """One flipped bit in a stored PDF, below the register (as a damaged disk would)."""
    with reg.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER document_files_frozen_update"))
        else:
            conn.execute(text("ALTER TABLE document_files DISABLE TRIGGER ALL"))
        blob = conn.execute(text("SELECT content FROM document_files WHERE format = 'pdf'"))
        content = bytearray(blob.scalar_one())
        content[len(content) // 2] ^= 0x01
        conn.execute(
            text("UPDATE document_files SET content = :c WHERE format = 'pdf'"),
            {"c": bytes(content)},
        )


def test_altered_stored_bytes_are_refused_naming_the_document(reg, tmp_path):
    issued = reg.issue("notice-of-violation", notice(), formats=("html", "pdf"))
    assert hashlib.sha256(reg.files(issued.number)["pdf"]).hexdigest() == issued.hashes["pdf"]
    _alter_stored_pdf(reg)
    for read in (
        lambda: reg.files(issued.number),
        lambda: reg.export(issued.number, f"{tmp_path}/out/"),
    ):
        with pytest.raises(RegisterError, match="NOV-2026-0001: its stored PDF is altered"):
            read()
    assert not (tmp_path / "out").exists()
    assert reg.export(issued.number, f"{tmp_path}/html/", ("html",))  # the HTML is intact


def test_dash_is_refused_by_the_registers_commands_never_a_file_named_dash(register_url, tmp_path):
    case = case_file(tmp_path, notice())
    for args in (("issue", "notice-of-violation", case), ("export", "NOV-2026-0001")):
        run = docgen(*args, "-f", "html", "-o", "-", cwd=tmp_path)
        assert run.returncode == 2 and "-o -: the register writes files" in run.stderr
    assert not list(tmp_path.glob("-*"))
    with Register.open(register_url) as reg:
        assert reg.count() == 0


def test_audit_moments_keep_their_utc_offset_and_their_order(reg):
    for _ in range(3):
        reg.issue("notice-of-violation", notice(), Issue(respondent="new"), formats=("html",))
    moments = [datetime.fromisoformat(e["at"]) for e in reversed(reg.audit())]
    assert all(m.utcoffset() == timedelta(0) for m in moments)
    assert moments == sorted(moments)


def test_register_check_and_backup_notice_altered_files(register_url, tmp_path):
    case = case_file(tmp_path, notice())
    assert (
        docgen("issue", "notice-of-violation", case, "-f", "html,pdf", cwd=tmp_path).returncode == 0
    )
    sound = docgen("register", "check", cwd=tmp_path)
    assert sound.returncode == 0, sound.stderr
    assert sound.stdout.splitlines() == [
        "2 stored file(s) checked against their SHA-256",
        "database: integrity ok",
        "numbers: no gap in any series",
        # The test's municipality has no settings: its check line names this machine.
        "warning: NOV-2026-0001 tells the public to check it at http://127.0.0.1:8000, which "
        "only this machine can reach (settings: verification.address)",
    ]
    with Register.open(register_url) as reg:
        _alter_stored_pdf(reg)
    damaged = docgen("register", "check", cwd=tmp_path)
    assert damaged.returncode == 1
    assert "altered: NOV-2026-0001 PDF does not match its SHA-256" in damaged.stdout
    refused = docgen("register", "backup", tmp_path / "copy.db", cwd=tmp_path)
    assert (
        refused.returncode == 1 and "the register is damaged; no backup was made" in refused.stderr
    )
    assert not (tmp_path / "copy.db").exists() and not list(tmp_path.glob(".copy.db*"))


def _damaged_sqlite_register(tmp_path, monkeypatch) -> Path:
    """A SQLite register with one notice, its respondents' page then overwritten."""
    path = tmp_path / "home" / "docgen.sqlite"
    monkeypatch.setenv("DOCGEN_DATABASE_URL", f"sqlite:///{path}")
    case = case_file(tmp_path, notice())
    assert docgen("issue", "notice-of-violation", case, "-f", "html", cwd=tmp_path).returncode == 0
    with Register.open(f"sqlite:///{path}") as reg, reg.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.exec_driver_sql("PRAGMA page_size").scalar()
        root = conn.exec_driver_sql(
            "SELECT rootpage FROM sqlite_master WHERE name = 'respondents'"
        ).scalar()
    with open(path, "r+b") as handle:  # every engine is closed: a disk's damage
        handle.seek((root - 1) * page + 8)
        handle.write(b"\xff" * 64)
    return path


def test_a_sqlite_register_with_a_damaged_page_is_not_backed_up(tmp_path, monkeypatch):
    _damaged_sqlite_register(tmp_path, monkeypatch)
    refused = docgen("register", "backup", tmp_path / "copy.db", cwd=tmp_path)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "damaged" in refused.stderr or "malformed" in refused.stderr
    assert not (tmp_path / "copy.db").exists()


def test_service_is_refused_on_an_affidavit_and_on_a_superseded_document(reg):
    from datetime import date

    first = reg.issue("notice-of-violation", notice(), formats=("html",))
    served = reg.record_service(first.number, service_of("personal-delivery", date(2026, 11, 16)))
    with pytest.raises(RegisterError, match="is an affidavit of service"):
        reg.record_service(
            served.affidavit.number, service_of("personal-delivery", date(2026, 11, 17))
        )
    corrected = reg.supersede(first.number, notice(), formats=("html",))
    with pytest.raises(RegisterError, match=f"was superseded by {corrected.number}"):
        reg.record_service(first.number, service_of("first-class-mail", date(2026, 11, 17)))


def test_an_issue_on_a_malformed_register_says_restore_a_backup_with_the_command(
    tmp_path, monkeypatch
):
    path = _damaged_sqlite_register(tmp_path, monkeypatch)
    again = case_file(tmp_path, notice(), "again.yaml")
    refused = docgen("issue", "notice-of-violation", again, "-f", "html", cwd=tmp_path)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "trying again cannot help" in refused.stderr
    assert f"mv {path} {path}.damaged" in refused.stderr and "cp BACKUP" in refused.stderr
    assert "issue it again once the register answers" not in refused.stderr
