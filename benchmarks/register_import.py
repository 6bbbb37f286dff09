"""History import benchmark (not a test): ``register import-history`` of 500, 5,000 and
50,000 rows (target: 5,000 rows in a few seconds, 50,000 in under 30 s (issue 48 item 6),
time growing with the rows), and what a clerk's ``docgen issue`` does while one runs.

    .venv/bin/python -m benchmarks.register_import [--rows 500,5000,50000]
        [--names distinct,clustered] [--backends sqlite,postgresql] [--no-clerk]

Names are ``distinct`` (random first names and surnames) or ``clustered`` (200 first
names shared by everyone, as a town's people share them; surnames random): blocking
must keep the candidates few either way, so rows/s should not fall as the file grows.

Each size is imported into a new SQLite register already holding 2,000 respondents (so
matching has something to search), then into PostgreSQL (a throwaway server, as the
tests start theirs). While the largest file imports, a second process issues notices one
after another into the same register: their count and slowest time are printed (an
issue waits for at most one chunk of the import's rows, never for the whole file).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml

from docgen.register import Register
from docgen.register.people.imports import CHUNK, HEADER_ROW, import_history
from docgen.register.storage import db
from docgen.register.storage.models import Respondent, RespondentAddress
from tests.helpers import pgserver
from tests.helpers.register_cases import notice

ISSUER = """
import sys, time
from docgen.register import Issue, Register
from docgen.register.storage.db import RegisterError
url, case, stop = sys.argv[1], sys.argv[2], sys.argv[3]
import os
times, failures = [], 0
with Register.open(url) as reg:
    while not os.path.exists(stop):
        start = time.perf_counter()
        try:
            reg.issue("notice-of-violation", case, Issue(respondent="new"), formats=("html",))
        except RegisterError as err:
            failures += 1
            print("failed:", err, file=sys.stderr)
        times.append(time.perf_counter() - start)
print(len(times), failures, max(times) if times else 0.0)
"""


def names(rows: int, clustered: bool = False) -> list[str]:
    """Distinct names of random letters (seeded): a first name and a surname each; with
    ``clustered``, the first names are 200, shared."""
    pick = random.Random(18)
    letters = "abcdefghijklmnopqrstuvwxyz"

    def word(low: int, high: int) -> str:
        return "".join(pick.choices(letters, k=pick.randint(low, high))).title()

    firsts = [word(5, 8) for _ in range(200)]
    out: set[str] = set()
    while len(out) < rows:
        first = pick.choice(firsts) if clustered else word(5, 8)
        # clustered: longer surnames, so that two people of one first name are not by
        # chance a near match (a question, stopping the file)
        out.add(f"{first} {word(10, 13) if clustered else word(6, 10)}")
    return sorted(out)


def history_csv(folder: Path, rows: int, clustered: bool = False) -> Path:
    path = folder / f"history-{rows}-{'clustered' if clustered else 'distinct'}.csv"
    with path.open("w", encoding="utf-8") as out:
        out.write(HEADER_ROW + "\n")
        for i, name in enumerate(names(rows, clustered)):
            out.write(
                f"{name},{i} Main Street,Homer,NY,13077,"
                f"2023-0{1 + i % 9}-01,2024-0{1 + i % 9}-15,Homer Village Court,IMP-{i}\n"
            )
    return path


def seed(url: str, respondents: int = 2000) -> None:
    with Register.open(url) as reg, reg.engine.begin() as conn:
        now = datetime.now(UTC)
        conn.execute(
            Respondent.__table__.insert(),
            [
                {
                    "name": f"Seeded Person {i}",
                    "kind": "person",
                    "name_key": f"seeded person {i}",
                    "loose_key": f"{i} person seeded",
                    "created_at": now,
                }
                for i in range(respondents)
            ],
        )
        conn.execute(
            RespondentAddress.__table__.insert(),
            [
                {
                    "respondent_id": i + 1,
                    "street": f"{i} Elm St",
                    "city": "Homer",
                    "state": "NY",
                    "zip": "13077",
                    "address_key": f"{i} elm st | homer | ny 13077",
                }
                for i in range(respondents)
            ],
        )


def timed_import(url: str, path: Path, rows: int, label: str, clerk: bool, folder: Path) -> None:
    seed(url)
    issuer = None
    if clerk:
        case = folder / "case.yaml"
        case.write_text(yaml.safe_dump(notice()), encoding="utf-8")
        stop = folder / f"stop-{label}-{rows}"
        issuer = subprocess.Popen(
            [sys.executable, "-c", ISSUER, url, str(case), str(stop)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(3)  # the clerk's process is up and issuing
    with Register.open(url) as reg:
        start, used = time.perf_counter(), time.process_time()
        done = import_history(reg, path)
        took, cpu = time.perf_counter() - start, time.process_time() - used
    # CPU: the importing process's own, what the machine's other work changes least
    line = (
        f"{label:<22} {rows:>6} rows: {took:6.1f} s ({rows / took:,.0f} rows/s; "
        f"CPU {cpu:.1f} s; load {os.getloadavg()[0]:.1f})"
    )
    assert len(done.lines) == rows
    if issuer is not None:
        stop.touch()
        out, _ = issuer.communicate(timeout=120)
        count, failures, slowest = out.split()
        line += (
            f"; meanwhile a clerk issued {count} notices, {failures} failed, the slowest "
            f"{float(slowest):.2f} s"
        )
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", default="500,5000,50000")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--names", default="distinct,clustered")
    parser.add_argument("--no-clerk", action="store_true", help="no clerk issuing meanwhile")
    args = parser.parse_args()
    sizes = [int(n) for n in args.rows.split(",")]
    kinds = args.names.split(",")
    print(f"chunk: {CHUNK} rows per transaction; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for kind in kinds:
            files = {n: history_csv(folder, n, kind == "clustered") for n in sizes}
            for n in sizes if "sqlite" in args.backends else ():
                url = db.sqlite_url(folder / f"sqlite-{kind}-{n}" / "docgen.sqlite")
                clerk = n == max(sizes) and not args.no_clerk
                timed_import(url, files[n], n, f"SQLite {kind}", clerk, folder)
            if "postgresql" not in args.backends:
                continue
            if not pgserver.available():
                print(f"PostgreSQL: skipped, no server binaries in {pgserver.PG_BIN}")
                continue
            with pgserver.postgres() as server:
                for n in sizes:
                    url = pgserver.create_database(server, f"imports_{kind}_{n}")
                    clerk = n == max(sizes) and not args.no_clerk
                    timed_import(url, files[n], n, f"PostgreSQL {kind}", clerk, folder)


if __name__ == "__main__":
    main()
