"""The municipality's year benchmark (not a test): the time of the year's figures on a
register of ``--documents`` documents at ``--sites`` sites (issue 51, "Done when": the
year's figures for a register of at least 2,000 documents in under one second, each
figure's numbers listed).

    .venv/bin/python -m benchmarks.year [--documents 2000] [--sites 400] [--rounds 20]

A fresh register on SQLite, then on a throwaway PostgreSQL server (skipped with a note
without the server binaries), gets ``--documents`` rows through SQLAlchemy Core: the
inspection reports, notices of deficiency, notices of violation, stop-work orders and
penalty statements of the past fourteen months spread over ``--sites`` sites, every tenth
one superseded by a correction, and an offense with a disposition for every notice of
violation (a quarter of them withdrawn: those notices are not counted). Printed: the
median and the slowest of ``--rounds`` calls of docgen.register.reading.year.figures for
the last twelve months (every count with its numbers), beside the target and the
machine's load, and a check that the counts add up; and the median of by_month, the
chart's counts made from them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, insert, select

from docgen.register import Register
from tests.helpers import pgserver

TARGET_S = 1.0  # issue 51, "Done when"
KINDS = (
    "inspection-report",
    "notice-of-deficiency",
    "notice-of-violation",
    "stop-work-order",
    "penalty-statement",
)
TODAY = date(2026, 12, 6)


def fill(url: str, documents: int, sites: int) -> int:
    """``documents`` rows, the newest first; every tenth one a correction of the one before
    it. Returns how many of them the twelve months' figures must count (not superseded,
    issued in the period)."""
    from docgen.register.storage import db
    from docgen.register.storage.models import Document, Offense, Respondent, Site

    now = datetime.now(UTC)
    start = TODAY - timedelta(days=364)
    with Register.open(url) as reg, db.write_session(reg.engine) as session:
        session.add(
            Respondent(
                name="Benchmark Builders LLC",
                kind="firm",
                name_key="benchmark builders",
                loose_key="benchmark builders",
                created_at=now,
            )
        )
        session.flush()
        respondent = session.scalars(select(Respondent.id)).one()
        session.execute(
            insert(Site),
            [{"site_key": f"bench|{s}", "address": f"{s} Benchmark Road"} for s in range(sites)],
        )
        site_ids = list(session.scalars(select(Site.id).order_by(Site.id)))
        previous: int | None = None
        withdrawn: set[int] = set()  # the notices whose offense was withdrawn
        kind_of_previous, issued_of_previous = KINDS[0], TODAY
        for n in range(documents):
            issued = TODAY - timedelta(days=(n * 7) % 425)  # fourteen months
            corrects = previous if n % 10 == 9 else None
            row = Document(
                jurisdiction="homer",
                kind=KINDS[n % len(KINDS)] if corrects is None else kind_of_previous,
                number=f"B-{n:06d}",
                issued=issued if corrects is None else issued_of_previous,
                respondent_id=respondent,
                site_id=site_ids[n % sites],
                supersedes_id=corrects,
                case={},
                docgen_version="bench",
                pack_version="bench",
                recorded_at=now,
                recorded_by="bench",
            )
            session.add(row)
            session.flush()
            if row.kind == "notice-of-violation" and corrects is None:
                outcome = "withdrawn" if n % 4 == 0 else "convicted" if n % 3 else "pending"
                session.add(
                    Offense(
                        respondent_id=respondent,
                        document_id=row.id,
                        jurisdiction="homer",
                        committed=row.issued,
                        violations=[],
                        disposition=outcome,
                        disposition_date=row.issued if outcome != "pending" else None,
                    )
                )
                if outcome == "withdrawn":
                    withdrawn.add(row.id)
            previous, kind_of_previous, issued_of_previous = row.id, row.kind, row.issued
        # what the period must count: each kind's documents not superseded nor withdrawn,
        # issued in it
        superseded = {d.supersedes_id for d in session.scalars(select(Document)) if d.supersedes_id}
        counted = sum(
            1
            for d in session.scalars(select(Document))
            if d.id not in superseded | withdrawn and start <= d.issued <= TODAY
        )
    if url.startswith("postgresql"):
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
        engine.dispose()
    return counted


def measure(url: str, label: str, documents: int, sites: int, rounds: int) -> None:
    from docgen.register.reading.year import Period, by_month, figures

    start = time.perf_counter()
    expected = fill(url, documents, sites)
    loaded = time.perf_counter() - start
    begin = TODAY - timedelta(days=364)
    with Register.open(url) as reg:
        found = figures(reg.engine, "homer", begin, TODAY)  # warm: the engine's first query
        times, cpu, charts = [], [], []
        for _ in range(rounds):
            started, used = time.perf_counter(), time.process_time()
            found = figures(reg.engine, "homer", begin, TODAY)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
            started = time.perf_counter()
            months = by_month(found, Period(begin, TODAY, TODAY))
            charts.append(time.perf_counter() - started)
    by_kind = sum(
        f.count
        for f in found
        if f.category
        in (
            "Inspections",
            "Notices of deficiency",
            "Notices of violation",
            "Stop-work orders",
            "Penalties",
        )
    )
    assert by_kind == expected, (by_kind, expected)
    listed = sum(f.count for f in found)
    median, slowest = statistics.median(times), max(times)
    verdict = "meets" if slowest < TARGET_S else "MISSES"
    print(f"{label}: {documents:,} documents at {sites} sites (rows loaded in {loaded:.1f} s)")
    print(
        f"  figures(): median {median * 1000:.0f} ms, slowest {slowest * 1000:.0f} ms over "
        f"{rounds} calls; CPU median {statistics.median(cpu) * 1000:.0f} ms "
        f"({verdict} the target of under {TARGET_S:.0f} s)"
    )
    print(
        f"  by_month() (the chart's {len(months)} months): median "
        f"{statistics.median(charts) * 1000:.1f} ms"
    )
    print(
        f"  {listed:,} numbers listed in {len(found)} categories; the five kinds' counts "
        f"({by_kind:,}) are the {expected:,} documents of the period not superseded nor withdrawn"
    )


def main() -> None:
    ask = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ask.add_argument("--documents", type=int, default=2000)
    ask.add_argument("--sites", type=int, default=400)
    ask.add_argument("--rounds", type=int, default=20)
    args = ask.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-year-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'year.sqlite'}"
        measure(url, "SQLite", args.documents, args.sites, args.rounds)
    if not pgserver.available():
        print(f"PostgreSQL: skipped, no server binaries in {pgserver.PG_BIN}")
        return
    with pgserver.postgres() as server:
        url = pgserver.create_database(server, "year")
        measure(url, "PostgreSQL", args.documents, args.sites, args.rounds)


if __name__ == "__main__":
    main()
