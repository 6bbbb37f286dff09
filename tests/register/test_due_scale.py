"""The Due list at a town's size (issue 48 item 6), on SQLite and PostgreSQL: each pack and
its settings are read once per calendar, not once per document or site, and the queries
are as many for ten sites as for thirty. How fast it is, is measured by the benchmark
(benchmarks/due.py: 2,000 documents at 500 sites), never timed here."""

from __future__ import annotations

from datetime import date

from sqlalchemy import event

from benchmarks.due import fill
from docgen.desk.day import due as desk_due
from docgen.desk.day.due import grouped
from docgen.law import packs as pack_files
from docgen.register.reading.due import calendar
from docgen.register.sites.logbook import open_log


def _counted(monkeypatch, module, name: str) -> list[str]:
    """Every call of ``module.name`` from now on, by its first argument."""
    calls: list[str] = []
    real = getattr(module, name)

    def counting(first, *args, **kwargs):
        calls.append(first)
        return real(first, *args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def _statements(reg) -> list[str]:
    said: list[str] = []
    event.listen(reg.engine, "before_cursor_execute", lambda *a: said.append(a[2]))
    return said


def test_the_calendar_reads_each_pack_once_however_many_sites(reg, tmp_path, monkeypatch):
    fill(reg, tmp_path, 60, 20)  # 20 sites, each a notice of deficiency and of violation
    looks = _counted(monkeypatch, pack_files, "load_settings")
    items = calendar(reg)
    assert len({i.site for i in items}) >= 20
    assert looks == ["homer"]  # once, not once per notice of deficiency (was 22 times)
    packs = _counted(monkeypatch, desk_due, "load_pack")
    grouped(items)
    assert packs == ["homer"]  # the desk's groups: each municipality's today once


def test_the_calendar_s_queries_do_not_grow_with_the_log_books(reg, tmp_path):
    for n in range(2):
        open_log(reg, f"{n} Log Road, Homer, NY 13077", "homer", date(2026, 10, 1))
    said = _statements(reg)
    calendar(reg)
    few = len(said)
    for n in range(2, 8):
        open_log(reg, f"{n} Log Road, Homer, NY 13077", "homer", date(2026, 10, 1))
    said.clear()
    items = calendar(reg)
    assert len([i for i in items if i.category == "log-book inspection"]) == 8
    assert len(said) == few  # one query for every log book's reports (was one per site)
