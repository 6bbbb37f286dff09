"""Twice is once (issue 48 item 5), on SQLite and PostgreSQL: a log book report, a
reinspection asked for, each recorded once, whether entered again later or by two at the
same moment (a second process held inside its write transaction); a notice issued while a
history import runs says plainly that its priors may be incomplete."""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import pytest
import yaml
from sqlalchemy import func, select

from docgen.errors import CaseInvalid
from docgen.law.logbook import QUALIFIED
from docgen.register import RegisterError
from docgen.register.matter.inspections import ask_reinspection
from docgen.register.sites.logbook import add_entries, add_entry, logbook, open_log
from docgen.register.storage.models import ReinspectionRequest
from tests.helpers.cli import docgen
from tests.helpers.faults import held_at
from tests.helpers.inspection_cases import INSPECTION, reinspection
from tests.helpers.register_cases import notice
from tests.register.test_due import csv_file, served_notice_of_deficiency
from tests.register.test_register_import_runs import history

SITE = "120 Cayuga Street, Homer, NY 13077"
ROWS = (
    "2026-10-08,08:00,Ann Pike,CPESC,qualified-inspector,,ok,\n"
    "2026-10-16,08:00,Ann Pike,CPESC,qualified-inspector,0.2,fence sagging,retension\n"
)


def _count(reg, model) -> int:
    with reg.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(model)).scalar()


def _at_once(held, go: Path, other):
    """Run ``other`` in this process while ``held`` (a second process) is inside its write
    transaction; then let that one commit. What ``other`` returned or raised."""
    done: dict[str, object] = {}

    def run():
        try:
            done["result"] = other()
        except Exception as err:
            done["error"] = err

    thread = threading.Thread(target=run)
    thread.start()
    Path(f"{go}.go").touch()
    out, err = held.communicate(timeout=300)
    thread.join(timeout=300)
    return held.returncode, out, err, done


def test_a_log_book_csv_added_twice_records_each_report_once(reg, tmp_path):
    open_log(reg, SITE, "homer", date(2026, 10, 1))
    path = csv_file(tmp_path, ROWS)
    assert add_entries(reg, "120 Cayuga", path).recorded == 2
    again = docgen("logbook", "120 Cayuga", "--add", path)
    assert again.returncode == 0, again.stderr
    assert "0 report(s) recorded; 2 already in the log book, not recorded again" in again.stdout
    # the file grown by a row: only the new row is recorded
    grown = csv_file(tmp_path, ROWS + "2026-10-20,09:00,Bo Lind,trained,trained-contractor,,ok,\n")
    added = add_entries(reg, "120 Cayuga", grown)
    assert (added.recorded, added.already) == (1, 2)
    assert len(logbook(reg, "120 Cayuga").entries) == 3


def test_a_report_that_says_otherwise_is_refused_naming_the_one_recorded(reg, tmp_path):
    open_log(reg, SITE, "homer", date(2026, 10, 1))
    add_entries(reg, "120 Cayuga", csv_file(tmp_path, ROWS))
    other = "2026-10-08,08:00,ann  pike,CPESC,qualified-inspector,,silt fence down,\n"
    with pytest.raises(CaseInvalid) as refused:
        add_entries(reg, "120 Cayuga", csv_file(tmp_path, other, "other.csv"))
    said = str(refused.value)
    assert "row 2: the report of 2026-10-08 at 08:00 by Ann Pike, recorded from log.csv" in said
    assert "says otherwise; a report is recorded once" in said
    row = "2026-10-20,09:00,Bo Lind,trained,trained-contractor,,ok,\n"
    twice = row + row.replace(",ok,", ",not ok,")
    with pytest.raises(CaseInvalid, match="row 3: the same report as row 2"):
        add_entries(reg, "120 Cayuga", csv_file(tmp_path, twice, "twice.csv"))
    columns = ("date", "time", "inspector", "qualification", "role", "findings")
    said = ("2026-10-16", "08:00", "Ann Pike", "CPESC", QUALIFIED, "x")
    typed = dict(zip(columns, said, strict=True))
    with pytest.raises(RegisterError, match="This report is in the log book already: the report"):
        add_entry(reg, "120 Cayuga", typed)
    assert len(logbook(reg, "120 Cayuga").entries) == 2


def test_a_log_book_csv_added_by_two_at_once_records_each_report_once(reg, tmp_path):
    open_log(reg, SITE, "homer", date(2026, 10, 1))
    path = csv_file(tmp_path, ROWS)
    held, pause = held_at("log-recorded", ["logbook", "120 Cayuga", "--add", path], tmp_path)
    code, out, err, done = _at_once(held, pause, lambda: add_entries(reg, "120 Cayuga", path))
    assert code == 0, err
    assert "error" not in done, done
    said = {out.splitlines()[0], done["result"].said}
    assert said == {
        "2 report(s) recorded",
        "0 report(s) recorded; 2 already in the log book, not recorded again",
    }
    assert len(logbook(reg, "120 Cayuga").entries) == 2


def _asked(reg) -> int:
    return _count(reg, ReinspectionRequest)


def test_a_reinspection_asked_for_twice_is_recorded_once(reg, tmp_path):
    nod = served_notice_of_deficiency(reg, tmp_path)
    ask_reinspection(reg, nod, date(2026, 12, 2), "Sam Keller", by="ann")
    run = docgen("ask-reinspection", nod, "--date", "2026-12-02", "--asked-by", "sam  keller")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    said = " ".join(run.stderr.split())
    assert f"{nod}: a reinspection was asked for already, on 2026-12-02 by Sam Keller" in said
    assert "(recorded by ann on " in said
    assert "a request is recorded once (Village of Homer practice)" in said
    # another day, another person: still the one request, until a reinspection is made
    with pytest.raises(RegisterError, match="asked for already, on 2026-12-02 by Sam Keller"):
        ask_reinspection(reg, nod, date(2026, 12, 3), "Ida Ruiz")
    assert _asked(reg) == 1
    reg.issue("inspection-report", reinspection(tmp_path, nod, "2026-12-03", [_still_open()]),
              formats=("html",))  # fmt: skip
    ask_reinspection(reg, nod, date(2026, 12, 4), "Sam Keller")  # asked again since: new
    assert _asked(reg) == 2
    with pytest.raises(RegisterError, match="asked for already, on 2026-12-04"):
        ask_reinspection(reg, nod, date(2026, 12, 4), "Sam Keller")


def _still_open() -> dict:
    """The washout found still missing on a reinspection: deficiency 2 stays open."""
    return {**INSPECTION["findings"][2], "corrects": 2}


def test_a_reinspection_asked_for_by_two_at_once_is_recorded_once(reg, tmp_path):
    nod = served_notice_of_deficiency(reg, tmp_path)
    args = ["ask-reinspection", nod, "--date", "2026-12-02", "--asked-by", "Sam Keller"]
    held, pause = held_at("reinspection-recorded", args, tmp_path)
    code, _, err, done = _at_once(
        held, pause, lambda: ask_reinspection(reg, nod, date(2026, 12, 2), "Sam Keller")
    )
    assert code == 0, err
    assert "asked for already, on 2026-12-02 by Sam Keller" in str(done["error"])
    assert _asked(reg) == 1


def test_a_notice_issued_while_an_import_runs_says_its_priors_may_be_incomplete(reg, tmp_path):
    path = history(tmp_path)
    held, pause = held_at("imported-chunk", ["register", "import-history", path], tmp_path)
    try:
        # Ada Byron's conviction is in the chunk committed, not counted until the import ends
        case = notice("2026-11-16", name="Ada Byron", street="3 Oak Street")
        during = reg.issue("notice-of-violation", case, formats=("html",))
        said = [w for w in during.warnings if "prior offenses" in w]
        assert said == reg.history_incomplete() and len(said) == 1
        assert said[0].startswith(
            f"the prior offenses may be incomplete: history import 1 of {path}"
        )
        assert "has not finished" in said[0] and "issue a corrected document" in said[0]
        typed = notice("2026-11-18", name="Ada Byron", street="3 Oak Street")
        run = docgen("issue", "notice-of-violation", _case(tmp_path, typed), "-f", "html", "-o",
                     tmp_path / "out/")  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert "warning: the prior offenses may be incomplete" in run.stderr
    finally:
        Path(f"{pause}.go").touch()
        _, err = held.communicate(timeout=300)
    assert held.returncode == 0, err
    after = reg.issue("notice-of-violation", notice("2026-11-17", name="Ada Byron",
                      street="3 Oak Street"), formats=("html",))  # fmt: skip
    assert not any("prior offenses" in w for w in after.warnings)
    assert reg.history_incomplete() == []


def _case(folder: Path, data: dict) -> Path:
    path = folder / "case.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path
