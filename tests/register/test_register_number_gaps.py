"""Numbers and dates that cannot run ahead, on SQLite and PostgreSQL: a typed number above
its series' next is refused (nothing recorded, no number used), or taken with the
clerk's reason and the gap recorded; `register check` reports every gap with its reason
or "unexplained"; a document dated after the municipality's today is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
import yaml
from sqlalchemy import delete

from docgen.errors import CaseInvalid
from docgen.register import Issue, RegisterError
from docgen.register.storage.db import write_session
from docgen.register.storage.models import NumberGap
from tests.helpers.cli import docgen
from tests.helpers.register_cases import notice

HTML = ("html",)


def numbered(number: str) -> dict:
    return {**notice(), "number": number}


def test_a_typed_number_ahead_is_refused_and_nothing_is_used(reg):
    with pytest.raises(RegisterError) as refused:
        reg.issue("notice-of-violation", numbered("NOV-2026-0500"), formats=HTML)
    said = str(refused.value)
    assert "NOV-2026-0500 is ahead of its series, whose next number is NOV-2026-0001" in said
    assert "499 number(s) unused (NOV-2026-0001 to NOV-2026-0499)" in said
    assert "--number-gap REASON" in said
    assert reg.count() == 0
    assert reg.issue("notice-of-violation", notice(), formats=HTML).number == "NOV-2026-0001"


def test_the_cli_refuses_it_naming_the_flag(register_url, tmp_path):
    case = tmp_path / "case.yaml"
    case.write_text(yaml.safe_dump(numbered("NOV-2026-0500")), encoding="utf-8")
    run = docgen("issue", "notice-of-violation", case, "-f", "html", "-o", f"{tmp_path}/out/")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "ahead of its series" in run.stderr and "--number-gap" in run.stderr
    reason = "0001 to 0499 were issued on paper in 2026 before the register"
    taken = docgen(
        "issue", "notice-of-violation", case, "-f", "html", "-o", f"{tmp_path}/out/",
        "--number-gap", reason,
    )  # fmt: skip
    assert taken.returncode == 0, taken.stderr
    assert "NOV-2026-0500" in taken.stdout
    checked = docgen("register", "check")
    assert checked.returncode == 0, checked.stdout
    assert f"gap: NOV-2026-0001 to NOV-2026-0499 (499 number(s)): {reason}" in checked.stdout


def test_a_gap_taken_with_a_reason_moves_the_series_past_it(reg):
    reg.issue("notice-of-violation", notice(), formats=HTML)  # 0001
    taken = reg.issue(
        "notice-of-violation",
        numbered("NOV-2026-0010"),
        Issue(number_gap="0002 to 0009 were written by hand during the outage of 2026-11-03"),
        formats=HTML,
    )
    assert taken.number == "NOV-2026-0010"
    assert reg.issue("notice-of-violation", notice(), formats=HTML).number == "NOV-2026-0011"
    with reg.engine.connect() as conn:
        actions = [a for (a,) in conn.exec_driver_sql("SELECT action FROM audit")]
    assert "number-gap" in actions


def test_register_check_reports_every_gap_explained_or_not(reg, register_url):
    reg.issue("notice-of-violation", notice(), formats=HTML)  # 0001
    reg.issue(
        "notice-of-violation",
        numbered("NOV-2026-0005"),
        Issue(number_gap="paper notices"),
        formats=HTML,
    )
    reg.issue(
        "notice-of-violation",
        numbered("NOV-2026-0009"),
        Issue(number_gap="typed by hand"),
        formats=HTML,
    )
    # as in a register from before gaps were recorded: the second gap's reason is gone
    with write_session(reg.engine) as session:
        session.execute(delete(NumberGap).where(NumberGap.first == 6))
    checked = docgen("register", "check")
    assert checked.returncode == 1
    lines = [line for line in checked.stdout.splitlines() if line.startswith("gap: ")]
    assert lines[0].startswith("gap: NOV-2026-0002 to NOV-2026-0004 (3 number(s)): paper notices")
    assert lines[1:] == ["gap: NOV-2026-0006 to NOV-2026-0008 (3 number(s)): unexplained"]


def test_a_document_dated_after_today_is_refused(reg):
    from docgen.law.pack import municipal_today
    from docgen.law.packs import load_pack

    tomorrow = municipal_today(load_pack("homer")) + timedelta(days=1)
    with pytest.raises(CaseInvalid) as refused:
        reg.issue("notice-of-violation", notice(tomorrow.isoformat()), formats=HTML)
    said = str(refused.value)
    assert f"issued: {tomorrow}: after today" in said and "Village of Homer" in said
    assert reg.count() == 0
    today = reg.issue(
        "notice-of-violation", notice((tomorrow - timedelta(days=1)).isoformat()), formats=HTML
    )
    assert today.number == "NOV-2026-0001" or today.number.endswith("-0001")
