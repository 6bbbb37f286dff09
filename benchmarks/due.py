"""Calendar benchmark (not a test): the Due list's response time on a register of
``--documents`` documents at ``--sites`` sites (issue 32: 2,000 documents, 500 sites;
issue 48 item 6: calendar() and the desk's /due under 100 ms at that size).

    .venv/bin/python -m benchmarks.due [--documents 2000] [--sites 500] [--rounds 20]

A fresh SQLite register (a temporary DOCGEN_HOME) gets one inspection report, its notice
of deficiency (served) and a notice of violation (served) issued for real; then each site
gets copies of those rows (new numbers, the site's own row, the service events), and the
rest of ``--documents`` are inspection reports, so every site has a halt in effect, two
corrective actions, a remedy date and an appeal deadline. Printed: the median and the
slowest of ``--rounds`` calls of docgen.register.reading.due.calendar (everything due, overdue
first) and of the iCalendar feed made from it; of ``docgen due --json`` (a process each
time, its start included); and of GET /due on `docgen serve` signed in as a clerk
(everything), beside the target and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from sqlalchemy import select

from benchmarks.desk import PASSWORD, serve_desk, signed_in
from tests.helpers.inspection_cases import inspection
from tests.helpers.register_cases import notice

TARGET_MS = 100.0  # calendar() and the desk's /due (issue 48 item 6)


def main() -> None:
    ask = argparse.ArgumentParser()
    ask.add_argument("--documents", type=int, default=2000)
    ask.add_argument("--sites", type=int, default=500)
    ask.add_argument("--rounds", type=int, default=20)
    args = ask.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["DOCGEN_HOME"] = home
        os.environ.pop("DOCGEN_DATABASE_URL", None)
        from docgen.register import Register
        from docgen.register.reading.due import calendar
        from docgen.register.reading.feed import ics

        with Register.open() as reg:
            made = fill(reg, Path(home), args.documents, args.sites)
            timings, cpu, feeds = [], [], []
            for _ in range(args.rounds):
                start, used = time.perf_counter(), time.process_time()
                items = calendar(reg)
                timings.append(time.perf_counter() - start)
                cpu.append(time.process_time() - used)
                start = time.perf_counter()
                ics(items, "benchmark", "America/New_York", date(2026, 12, 2))
                feeds.append(time.perf_counter() - start)
        url = f"sqlite:///{Path(home) / 'docgen.sqlite'}"
        command, command_cpu = timed_command(url, max(3, args.rounds // 4))
        page, page_cpu = timed_page(home, url, args.rounds)
        load = os.getloadavg()[0]
        print(f"register: {made} documents at {args.sites} sites (SQLite); load {load:.1f}")
        print(f"calendar: {len(items)} items")
        for name, values, used, target in (
            ("calendar()", timings, cpu, TARGET_MS),
            ("iCalendar feed", feeds, None, None),
            ("docgen due --json (a process)", command, command_cpu, None),
            ("desk GET /due (clerk: everything)", page, page_cpu, TARGET_MS),
        ):
            aim = f" (target under {target:.0f} ms)" if target else ""
            # CPU time: what the machine's other work does not change (the desk's: its
            # server process's, per request)
            busy = f"; CPU median {statistics.median(used) * 1000:.0f} ms" if used else ""
            print(
                f"{name}: median {statistics.median(values) * 1000:.0f} ms, "
                f"slowest {max(values) * 1000:.0f} ms over {len(values)} calls{busy}{aim}"
            )


def cpu_of(pid: int) -> float:
    """The CPU seconds process ``pid`` has used (user and system, from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_command(url: str, rounds: int) -> tuple[list[float], list[float]]:
    """``docgen due --json`` as an officer runs it: a process each time (wall, CPU)."""
    env = {**os.environ, "DOCGEN_DATABASE_URL": url}
    times, cpu = [], []
    for _ in range(rounds):
        start, before = time.perf_counter(), os.times()
        subprocess.run(
            [sys.executable, "-m", "docgen.cli", "due", "--json"],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        after = os.times()
        times.append(time.perf_counter() - start)
        cpu.append(
            after.children_user
            + after.children_system
            - before.children_user
            - before.children_system
        )
    return times, cpu


def timed_page(home: str, url: str, rounds: int) -> tuple[list[float], list[float]]:
    """GET /due on `docgen serve`, signed in as a clerk (everything due), after one
    warm-up: (wall, the server process's CPU per request)."""
    from docgen.desk.admin import accounts
    from docgen.desk.base.database import sessions

    accounts.add_user(sessions(url), "clerk", "clerk", PASSWORD)
    server, base = serve_desk(home, url, 1)
    client = None
    try:
        client, _ = signed_in(base, "clerk")
        assert client.get("/due").status_code == 200
        times, cpu = [], []
        for _ in range(rounds):
            start, before = time.perf_counter(), cpu_of(server.pid)
            client.get("/due").raise_for_status()
            times.append(time.perf_counter() - start)
            cpu.append(cpu_of(server.pid) - before)
        return times, cpu
    finally:
        if client is not None:
            client.close()
        server.terminate()
        server.wait(timeout=10)


def fill(reg, home: Path, documents: int, sites: int) -> int:
    """Real documents at one site, copied to ``sites`` sites; inspection reports up to
    ``documents``. Returns the number of documents."""
    from docgen.register.matter.inspections import notify_deficiency, record_inspection_case
    from docgen.register.matter.service import Service
    from docgen.register.storage import db
    from docgen.register.storage.models import Document, Offense, ServiceEvent, Site

    inspected = record_inspection_case(reg, inspection(home, photos=0), formats=("html",))
    nod = notify_deficiency(reg, inspected.number, date(2026, 11, 30), formats=("html",))
    # Each delivery with the facts its affidavit would state (none is filled in, LAW.md § 10).
    hand = {
        "place": "the site trailer, 120 Cayuga Street, Homer, NY 13077",
        "time": "10:15",
        "person": "Sam Keller",
        "capacity": "site superintendent",
        "description": "male, about 45 years old, 5 ft 10 in, about 180 lb, gray hair",
        "by_officer": True,
    }
    nod_served = Service("personal-delivery", date(2026, 12, 1), **hand)
    reg.record_service(nod.number, nod_served, affidavit=False)
    nov = reg.issue("notice-of-violation", notice("2026-11-30"), formats=("html",))
    nov_served = Service("personal-delivery", date(2026, 11, 30), **hand)
    reg.record_service(nov.number, nov_served, affidavit=False)
    with db.write_session(reg.engine) as session:
        models = {d.number: d for d in session.scalars(select(Document)).all()}
        offense = session.scalars(select(Offense)).first()
        count = len(models)
        per_site = [models[inspected.number], models[nod.number], models[nov.number]]
        n = 0
        for s in range(sites):
            place = Site(site_key=f"bench|{s}", address=f"{s} Benchmark Road, Homer, NY 13077")
            session.add(place)
            session.flush()
            for original in per_site:
                if count >= documents:
                    break
                n += 1
                copy = Document(
                    **{
                        c: getattr(original, c)
                        for c in (
                            "jurisdiction",
                            "kind",
                            "issued",
                            "respondent_id",
                            "case",
                            "remedies_due",
                            "docgen_version",
                            "pack_version",
                            "recorded_at",
                            "recorded_by",
                        )
                    },
                    number=f"B-{n:06d}",
                    site_id=place.id,
                )
                session.add(copy)
                session.flush()
                count += 1
                for event in original.services:
                    session.add(
                        ServiceEvent(
                            document_id=copy.id,
                            **{
                                c: getattr(event, c)
                                for c in (
                                    "method",
                                    "date",
                                    "served_by",
                                    "appeal_deadline",
                                    "served_on",
                                    "role",
                                    "recorded_at",
                                    "recorded_by",
                                )
                            },
                        )
                    )
                if original.number == nov.number:
                    session.add(
                        Offense(
                            respondent_id=offense.respondent_id,
                            document_id=copy.id,
                            jurisdiction=offense.jurisdiction,
                            committed=offense.committed,
                            violations=offense.violations,
                            disposition="pending",
                        )
                    )
        while count < documents:
            n += 1
            original = per_site[0]
            session.add(
                Document(
                    jurisdiction=original.jurisdiction,
                    kind=original.kind,
                    number=f"B-{n:06d}",
                    issued=original.issued,
                    case=original.case,
                    docgen_version=original.docgen_version,
                    pack_version=original.pack_version,
                    recorded_at=original.recorded_at,
                    recorded_by=original.recorded_by,
                )
            )
            count += 1
    return count


if __name__ == "__main__":
    main()
