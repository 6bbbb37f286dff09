"""Issue and record-service benchmark (not a test): what a clerk's two commands of every
matter cost the register, on SQLite and on PostgreSQL.

    .venv/bin/python -m benchmarks.service [--notices 200] [--backends sqlite,postgresql]

Into an empty register, ``--notices`` notices of violation are issued one after another
(HTML only: the register's own cost, not the PDF engine's), then each is served by
certified mail with its affidavit of service issued (HTML) in the same transaction: the
median and 95th percentile of each command, and its rate. A last round does the same with
every format (PDF, DOCX, HTML) on 20 notices, as the command line issues them by default.

PostgreSQL is a throwaway server started as the tests start theirs; without the server
binaries its rows are skipped with a note. The machine is shared: the load is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import string
import tempfile
import time
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path

from docgen.cases.mail import with_check_digit
from docgen.register import Register, Service
from tests.helpers import pgserver
from tests.helpers.register_cases import notice

HTML = ("html",)
ALL = ("pdf", "docx", "html")
ISSUED = "2026-11-16"
MAILED = date(2026, 11, 17)


def timed(steps: Iterable[Callable[[], object]]) -> list[float]:
    times = []
    for step in steps:
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


def line(what: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    rate = len(times) / sum(times)
    return (
        f"  {what:<32} median {statistics.median(times) * 1000:7.1f} ms"
        f"  p95 {p95 * 1000:7.1f} ms  {rate:6.1f}/s"
    )


def matter(url: str, backend: str, count: int, formats: tuple[str, ...]) -> None:
    with Register.open(url) as reg:
        reg.issue("notice-of-violation", notice(ISSUED), formats=formats)  # warm the engines
        numbers: list[str] = []
        draw = random.Random(count)  # names far apart: each notice a respondent of its own
        names = [
            "".join(draw.choices(string.ascii_lowercase, k=9)).title() + " Holdings LLC"
            for _ in range(count)
        ]

        def issue(index: int) -> Callable[[], object]:
            case = notice(ISSUED, name=names[index], street=f"{index + 1} Clinton Street")
            return lambda: numbers.append(
                reg.issue("notice-of-violation", case, formats=formats).number
            )

        issued = timed(issue(i) for i in range(count))

        def serve(number: str, index: int) -> Callable[[], object]:
            article = with_check_digit(f"9407100000{index:011d}")  # 22 digits, its own
            event = Service("certified-mail", MAILED, article=article, by_officer=True)
            return lambda: reg.record_service(number, event, formats=formats)

        served = timed(serve(n, i) for i, n in enumerate(numbers))
    shown = "+".join(formats)
    print(f"{backend}, {count} notices, {shown}:")
    print(line("issue", issued))
    print(line("record-service (with affidavit)", served))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notices", type=int, default=200)
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    backends = args.backends.split(",")
    print(f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DOCGEN_HOME"] = folder
        if "sqlite" in backends:
            matter(f"sqlite:///{Path(folder) / 'html.sqlite'}", "SQLite", args.notices, HTML)
            matter(f"sqlite:///{Path(folder) / 'all.sqlite'}", "SQLite", 20, ALL)
        if "postgresql" in backends:
            if not pgserver.available():
                print(f"PostgreSQL: skipped, no server binaries in {pgserver.PG_BIN}")
                return
            with pgserver.postgres() as server:
                url = pgserver.create_database(server, "service")
                matter(url, "PostgreSQL", args.notices, HTML)


if __name__ == "__main__":
    main()
