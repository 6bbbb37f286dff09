"""Calendar benchmark (not a test): the calendar's response time on a register of
``--documents`` documents at ``--sites`` sites (issue 32: 2,000 documents, 500 sites).

    .venv/bin/python -m benchmarks.due [--documents 2000] [--sites 500] [--rounds 20]

A fresh SQLite register (a temporary DOCGEN_HOME) gets one inspection report, its notice
of deficiency (served) and a notice of violation (served) issued for real; then each site
gets copies of those rows (new numbers, the site's own row, the service events), and the
rest of ``--documents`` are inspection reports, so every site has a halt in effect, two
corrective actions, a remedy date and an appeal deadline. Printed: the median and the
slowest of ``--rounds`` calls of docgen.register.due.calendar (everything due, overdue
first) and of the iCalendar feed made from it, beside the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from sqlalchemy import select

from tests.helpers.inspection_cases import inspection
from tests.helpers.register_cases import notice


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
        from docgen.register.due import calendar
        from docgen.register.feed import ics

        with Register.open() as reg:
            made = fill(reg, Path(home), args.documents, args.sites)
            timings, feeds = [], []
            for _ in range(args.rounds):
                start = time.perf_counter()
                items = calendar(reg)
                timings.append(time.perf_counter() - start)
                start = time.perf_counter()
                ics(items, "benchmark", "America/New_York", date(2026, 12, 2))
                feeds.append(time.perf_counter() - start)
        load = os.getloadavg()[0]
        print(f"register: {made} documents at {args.sites} sites (SQLite); load {load:.1f}")
        print(f"calendar: {len(items)} items")
        for name, values in (("calendar()", timings), ("iCalendar feed", feeds)):
            print(
                f"{name}: median {statistics.median(values) * 1000:.0f} ms, "
                f"slowest {max(values) * 1000:.0f} ms over {len(values)} calls"
            )


def fill(reg, home: Path, documents: int, sites: int) -> int:
    """Real documents at one site, copied to ``sites`` sites; inspection reports up to
    ``documents``. Returns the number of documents."""
    from docgen.register import db
    from docgen.register.inspections import notify_deficiency, record_inspection_case
    from docgen.register.models import Document, Offense, ServiceEvent, Site
    from docgen.register.service import Service

    inspected = record_inspection_case(reg, inspection(home, photos=0), formats=("html",))
    nod = notify_deficiency(reg, inspected.number, date(2026, 11, 30), formats=("html",))
    reg.record_service(nod.number, Service("personal-delivery", date(2026, 12, 1)), affidavit=False)
    nov = reg.issue("notice-of-violation", notice("2026-11-30"), formats=("html",))
    reg.record_service(
        nov.number, Service("personal-delivery", date(2026, 11, 30)), affidavit=False
    )
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
