"""Register benchmark (not a test): prints the figures issue #12 asks for, with targets.

    .venv/bin/python -m benchmarks.register [--docs 100000] [--issues 1000] [--rounds 10]

1. ``issue`` overhead over plain rendering: the same notice of violation, every format,
   rendered in memory through docgen.api (build + to_bytes) and issued into a SQLite
   register (respondent matched, priors read, number taken, bytes and hashes stored,
   committed), interleaved ``--rounds`` times; medians and the ratio (target: at most
   +10% per document).
2. ``history`` on a register of ``--docs`` documents (rows bulk-inserted through
   SQLAlchemy Core: one respondent per five notices, each notice with its offense, file
   row and service event): the median of 200 calls for random respondents (target:
   under 50 ms), on SQLite and on PostgreSQL.
3. ``--issues`` issues in a row into an empty register, HTML only (the register's own
   cost, not the PDF engine's), on SQLite and on PostgreSQL: total, per issue, and a
   check that the numbers are consecutive.

PostgreSQL is a throwaway server started as the tests start theirs; without the server
binaries its rows are skipped with a note. The machine is shared: the load is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from docgen import api
from docgen.register import Register
from tests.helpers import pgserver
from tests.helpers.register_cases import notice


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def overhead(folder: Path, rounds: int) -> None:
    case = respondent_case(0)
    with Register.open(f"sqlite:///{folder / 'overhead.sqlite'}") as reg:
        reg.issue("notice-of-violation", case)  # warm both paths: engines, fonts, tables
        render, issue = [], []
        for _ in range(rounds):
            start = time.perf_counter()
            doc = api.build("notice-of-violation", {**case, "number": "NOV-2026-9999"})
            for fmt in api.FORMATS:
                api.to_bytes(doc, fmt)
            render.append(time.perf_counter() - start)
            start = time.perf_counter()
            reg.issue("notice-of-violation", respondent_case(len(issue) + 1))
            issue.append(time.perf_counter() - start)
    plain, issued = statistics.median(render), statistics.median(issue)
    ratio = issued / plain - 1
    verdict = "meets" if ratio <= 0.10 else "MISSES"
    print(f"issue vs render (pdf+docx+html, {rounds} rounds, SQLite):")
    print(f"  render {ms(plain)}  issue {ms(issued)}  overhead {ratio:+.1%} ({verdict} <= +10%)")


def bulk_register(url: str, documents: int) -> list[int]:
    """A register holding ``documents`` notices, inserted as rows; the respondents' ids."""
    from sqlalchemy import insert

    from docgen.register.storage import models as m

    per_person = 5
    now = datetime.now().astimezone()
    with Register.open(url) as reg, reg.engine.begin() as conn:
        people = documents // per_person
        conn.execute(
            insert(m.Respondent),
            [
                {
                    "id": i,
                    "name": f"Respondent {i} LLC",
                    "kind": "firm",
                    "name_key": f"respondent {i} llc",
                    "created_at": now,
                }
                for i in range(1, people + 1)
            ],
        )
        conn.execute(
            insert(m.RespondentAddress),
            [
                {
                    "respondent_id": i,
                    "street": f"{i} Main Street",
                    "city": "Homer",
                    "state": "NY",
                    "zip": "13077",
                    "address_key": f"{i} main st | homer | ny 13077",
                }
                for i in range(1, people + 1)
            ],
        )
        step = 20_000
        for first in range(1, documents + 1, step):
            ids = range(first, min(first + step, documents + 1))
            day = [date(2020, 1, 1) + timedelta(days=i % 2000) for i in ids]
            conn.execute(
                insert(m.Document),
                [
                    {
                        "id": i,
                        "jurisdiction": "homer",
                        "kind": "notice-of-violation",
                        "number": f"NOV-B-{i:06d}",
                        "issued": d,
                        "respondent_id": (i - 1) // per_person + 1,
                        "case": {"number": f"NOV-B-{i:06d}"},
                        "remedies_due": d + timedelta(days=14),
                        "docgen_version": "bench",
                        "pack_version": "bench",
                        "recorded_at": now,
                        "recorded_by": "bench",
                    }
                    for i, d in zip(ids, day, strict=True)
                ],
            )
            conn.execute(
                insert(m.DocumentFile),
                [
                    {
                        "document_id": i,
                        "format": "html",
                        "sha256": f"{i:064x}",
                        "size": 1,
                        "content": b"x",
                    }
                    for i in ids
                ],
            )
            conn.execute(
                insert(m.Offense),
                [
                    {
                        "respondent_id": (i - 1) // per_person + 1,
                        "document_id": i,
                        "jurisdiction": "homer",
                        "committed": d - timedelta(days=3),
                        "violations": [],
                        "disposition": "convicted" if i % 3 else "pending",
                        "convicted": d + timedelta(days=30) if i % 3 else None,
                    }
                    for i, d in zip(ids, day, strict=True)
                ],
            )
            conn.execute(
                insert(m.ServiceEvent),
                [
                    {
                        "document_id": i,
                        "method": "personal-delivery",
                        "date": d,
                        "served_by": "bench",
                        "appeal_deadline": d + timedelta(days=15),
                        "recorded_at": now,
                        "recorded_by": "bench",
                    }
                    for i, d in zip(ids, day, strict=True)
                ],
            )
        if conn.dialect.name == "postgresql":
            for table in ("respondents", "documents", "offenses", "document_files"):
                conn.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
            conn.exec_driver_sql("ANALYZE")
    return list(range(1, documents // per_person + 1))


def history(url: str, label: str, documents: int) -> None:
    start = time.perf_counter()
    people = bulk_register(url, documents)
    loaded = time.perf_counter() - start
    picks = random.Random(12).sample(people, 200)
    with Register.open(url) as reg:
        assert reg.count() == documents
        reg.history(picks[0])
        times = []
        for person in picks:
            start = time.perf_counter()
            found = reg.history(person)
            times.append(time.perf_counter() - start)
            assert len(found.documents) == 5
    median = statistics.median(times)
    verdict = "meets" if median < 0.050 else "MISSES"
    print(f"history on {documents:,} documents ({label}; rows loaded in {loaded:.1f} s):")
    print(f"  median {ms(median)}, p95 {ms(sorted(times)[189])} ({verdict} < 50 ms)")


def respondent_case(i: int) -> dict:
    """A notice to a respondent of its own (names far apart, so none is a near match)."""
    tag = hashlib.sha256(str(i).encode()).hexdigest()[:10]
    return notice("2026-11-16", name=f"Firm {tag} LLC", street=f"{i} Main Street")


def in_a_row(url: str, label: str, count: int) -> None:
    with Register.open(url) as reg:
        start = time.perf_counter()
        numbers = [
            reg.issue("notice-of-violation", respondent_case(i), formats=("html",)).number
            for i in range(count)
        ]
        took = time.perf_counter() - start
    assert numbers == [f"NOV-2026-{n:04d}" for n in range(1, count + 1)]
    print(
        f"{count:,} issues in a row ({label}, HTML only): {took:.1f} s, "
        f"{ms(took / count)} per issue, numbers consecutive"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--issues", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as tmp:
        folder = Path(tmp)
        overhead(folder, args.rounds)
        history(f"sqlite:///{folder / 'history.sqlite'}", "SQLite", args.docs)
        in_a_row(f"sqlite:///{folder / 'row.sqlite'}", "SQLite", args.issues)
        if not pgserver.available():
            print(f"PostgreSQL: skipped, no server binaries in {pgserver.PG_BIN}")
            return
        with pgserver.postgres() as server:
            history(pgserver.create_database(server, "history"), "PostgreSQL", args.docs)
            in_a_row(pgserver.create_database(server, "row"), "PostgreSQL", args.issues)


if __name__ == "__main__":
    main()
