"""A site's log book in the register (§ 228-78D(2); § 301-73A(2); LAW.md § 12).

A site is opened with the facts that set its interval (the day work started, a D(2)(c)
exemption, a D(2)(d) authorization); its reports are recorded as the inspector wrote them,
from a CSV (every row checked before any is recorded: an unknown column, an impossible date
or time, an unknown role, a rainfall that is not a number each name the row and the
column); the gaps and the next inspection due are computed by docgen.law.logbook.

A report is recorded once: its site, day, time and inspector are the report (one inspector
is at one site once at a given minute). A CSV added again, by the same officer later or by
two at the same moment (write transactions take turns: docgen.register.storage.db), records only
the reports not yet in the log book and says how many were there already; a report that
names a recorded one's day, time and inspector but says otherwise is refused, naming the
report already recorded.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.documents import report_requirement as letter
from docgen.errors import CaseInvalid, Problem
from docgen.faults import pause
from docgen.law.logbook import QUALIFIED, Entry, Gap, Rule, gaps, inches, next_inspection, site_rule
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.asked import Issuer
from docgen.register.matter.inspections import INSPECTION
from docgen.register.people.matching import words_of
from docgen.register.storage import db
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import Refused, RegisterError, guarded
from docgen.register.storage.models import Document, LogEntry, LogSite, Site
from docgen.register.storage.opened import Opened
from docgen.register.storage.records import Issued

ROLES = (QUALIFIED, "trained-contractor", "rain-gauge")
REQUIRED = ("date", "time", "inspector", "qualification", "role", "findings")
COLUMNS = (*REQUIRED, "rainfall", "corrective_actions")
LETTER = letter.KIND.name
MAX_BYTES = 5 * 1024 * 1024  # a season's log book is a few hundred rows
SOURCE = "desk form"  # an entry's source: the file it came from, or the desk's form


@dataclass(frozen=True)
class Log:
    site: str
    jurisdiction: str
    started: date
    rule: Rule
    entries: tuple[LogEntry, ...]
    gaps: tuple[Gap, ...]
    next_due: date | None
    exemption: str | None
    acre_authorized: bool
    number: int  # the register's number of the site: the officer may name it by it


def _label(site: Site) -> str:
    return "; ".join(p for p in (site.address, site.description) if p)


def _listed(sites: Iterable[Site]) -> str:
    """Sites as the officer names them: each by its number and address or description."""
    return "; ".join(f"site {s.id}: {_label(s)}" for s in sites)


def _number(text: str) -> int | None:
    """The site number ``text`` is (digits alone), or None: an address or description."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _names(site: Site) -> list[str]:
    """The words of each name of a site: its address, its description, both (its label)."""
    return [words_of(part) for part in (site.address, site.description, _label(site)) if part]


def _within(wanted: str, site: Site) -> bool:
    """Whether the words ``wanted`` are a run of the words of one of the site's names
    ("12 Oak Street" of "12 Oak Street, Springfield, NY 10001"; never "12 Main" of
    "112 Main Street")."""
    return any(f" {wanted} " in f" {name} " for name in _names(site))


def _whole(wanted: str, site: Site) -> bool:
    """Whether the words ``wanted`` are one of the site's names, whole."""
    return wanted in _names(site)


def _find(session: Session, text: str) -> LogSite:
    """The log book of the site ``text`` names: by its number (a site's number is that
    site), else by its address or description, whole or in part, when one log book's site
    has it; several are refused, each listed with its number."""
    number = _number(text)
    if number is not None and (site := session.get(Site, number)) is not None:
        log = session.scalars(select(LogSite).where(LogSite.site_id == number)).first()
        if log is None:
            raise RegisterError(
                f"site {number} ({_label(site)}) has no log book; open one with docgen logbook "
                f"{number} --open --started DATE --jurisdiction J"
            )
        return log
    wanted = words_of(text)
    rows = session.scalars(select(LogSite).order_by(LogSite.site_id)).all()
    hits = [r for r in rows if wanted and _within(wanted, r.site)]
    exact = [r for r in hits if _whole(wanted, r.site)]
    if len(exact) == 1 or len(hits) == 1:
        return (exact or hits)[0]
    if not hits:
        raise RegisterError(
            f"{text!r}: no site log book in this register; open one with docgen logbook SITE "
            "--open --started DATE --jurisdiction J"
        )
    raise RegisterError(
        f"{text!r} matches several sites: {_listed(h.site for h in hits)}; say which, by its number"
    )


def _site_to_open(session: Session, text: str) -> Site | None:
    """The register's site ``text`` names, to open its log book: by its number (a site's
    number is that site), else by its whole address or description; None: no site has it,
    and it is a new site. A number that is no site's, a name that several sites have, or
    that is part of a site's name (the same site, or another?) is refused, the sites
    listed with their numbers, so the officer says which."""
    number = _number(text)
    if number is not None:
        site = session.get(Site, number)
        if site is None:
            raise RegisterError(
                f"site {number}: no such site in this register; a new site is named by its "
                "address or description"
            )
        return site
    wanted = words_of(text)
    if not wanted:
        raise RegisterError("name the site by its number, address or description")
    sites = session.scalars(select(Site).order_by(Site.id)).all()
    exact = [s for s in sites if _whole(wanted, s)]
    if len(exact) == 1:
        return exact[0]
    if exact:
        raise RegisterError(
            f"{text!r} names several sites: {_listed(exact)}; say which, by its number"
        )
    near = [s for s in sites if _within(wanted, s)]
    if near:
        raise RegisterError(
            f"{text!r} is part of the name of {_listed(near)}; say which by its number, or "
            "name a new site by its whole address or description"
        )
    return None


def open_log(
    reg: Opened,
    site: str,
    jurisdiction: str,
    started: date,
    exemption: str | None = None,
    acre_authorized: bool = False,
    by: str | None = None,
) -> None:
    """Open the log book of ``site``: the day work started and the facts setting its interval."""
    pack = load_pack(jurisdiction)
    book = pack.part("logbook")
    problems = []
    if exemption is not None:
        listed = book.exemptions.value if book.exemptions else {}
        if exemption not in listed:
            problems.append(
                Problem(
                    "exemption",
                    f"{exemption!r} is not an exemption of the {pack.name.value}'s article"
                    + (f"; one of {', '.join(listed)}" if listed else "; it lists none"),
                    book.exemptions.ref if book.exemptions else book.ref,
                )
            )
    if acre_authorized and book.acre_inspections_per_interval is None:
        problems.append(
            Problem(
                "acre authorized",
                f"the {pack.name.value}'s article sets no other interval for an authorization "
                "to disturb an acre or more",
                book.ref,
            )
        )
    if started > municipal_today(pack):
        problems.append(Problem("started", f"{started}: after today", book.ref))
    if problems:
        raise CaseInvalid(problems, site)
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        text = " ".join(site.split())
        place = _site_to_open(session, text)
        if place is None:
            key = "|".join(words_of(p) for p in (text, "", ""))
            place = Site(site_key=key, address=text, description=None, tax_map=None)
            session.add(place)
            session.flush()
        if session.scalars(select(LogSite).where(LogSite.site_id == place.id)).first():
            raise RegisterError(f"site {place.id} ({_label(place)}): its log book is open already")
        log = LogSite(
            jurisdiction=pack.id,
            site_id=place.id,
            started=started,
            ended=None,
            exemption=exemption,
            acre_authorized="yes" if acre_authorized else "no",
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        session.add(log)
        session.flush()
        record(session, who, "log-open", "log_site", log.id, {"site": _label(place)})


def read_csv(path: Path, pack: Pack) -> list[dict[str, Any]]:
    """The rows of a log book CSV, each checked; CaseInvalid lists every problem by row
    and column, so nothing is recorded from a file with one bad row."""
    why = pack.part("logbook").ref
    size = path.stat().st_size if path.is_file() else -1
    if size < 0 or size > MAX_BYTES:
        raise CaseInvalid(
            [Problem("file", f"not a file of at most {MAX_BYTES:,} bytes", why)], str(path)
        )
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise CaseInvalid(
            [Problem("file", "is not UTF-8 text (save it as CSV UTF-8)", why)], str(path)
        ) from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    problems = [
        Problem("header", f"unknown column {h!r}; the columns are {', '.join(COLUMNS)}", why)
        for h in header
        if h not in COLUMNS
    ]
    problems += [
        Problem("header", f"missing column {c!r}", why) for c in REQUIRED if c not in header
    ]
    if problems:
        raise CaseInvalid(problems, str(path))
    rows = []
    for n, raw in enumerate(reader, start=2):
        row = {k.strip(): (v or "").strip() for k, v in raw.items() if k is not None}
        day, found = entry_problems(row, pack, f"row {n}, ")
        problems += found
        rows.append(row | {"day": day})
    if problems:
        raise CaseInvalid(problems, str(path))
    return rows


def entry_problems(
    row: dict[str, str], pack: Pack, where: str = ""
) -> tuple[date | None, list[Problem]]:
    """The day of one report as the inspector wrote it (a CSV row or the desk's form) and
    every problem of it, each naming its column (after ``where``: "row 2, " in a CSV)."""
    why = pack.part("logbook").ref
    problems = []
    typed, clock = row.get("date") or "", row.get("time") or ""
    try:
        day: date | None = date.fromisoformat(typed)
    except ValueError:
        said = f"{typed!r} is not a date (YYYY-MM-DD)" if typed else "missing"
        problems.append(Problem(f"{where}date", said, why))
        day = None
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", clock):
        said = f"{clock!r} is not a time (HH:MM)" if clock else "missing"
        problems.append(Problem(f"{where}time", said, why))
    role = row.get("role") or ""
    if role not in ROLES:
        problems.append(Problem(f"{where}role", f"{role!r}: one of {', '.join(ROLES)}", why))
    for column in ("inspector", "qualification", "findings"):
        if not row.get(column):
            problems.append(Problem(f"{where}{column}", "missing", why))
    rain = row.get("rainfall") or ""
    if rain and ((amount := inches(rain)) is None or amount < 0):
        problems.append(
            Problem(f"{where}rainfall", f"{rain!r} is not inches of rain, e.g. 0.6", why)
        )
    if day is not None and day > municipal_today(pack):
        problems.append(Problem(f"{where}date", f"{day}: after today", why))
    return day, problems


def _entry(log: LogSite, row: dict[str, Any], source: str, now: datetime, who: str) -> LogEntry:
    return LogEntry(
        log_site_id=log.id,
        day=row["day"],
        time=row["time"],
        inspector=row["inspector"],
        qualification=row["qualification"],
        role=row["role"],
        rainfall=row.get("rainfall") or None,
        findings=row["findings"],
        corrective_actions=row.get("corrective_actions") or None,
        source=source,
        recorded_at=now,
        recorded_by=who,
    )


@dataclass(frozen=True)
class Added:
    """What adding a log book CSV did: the reports recorded now, and how many of its
    reports the log book had already (recorded once, from this file or another)."""

    recorded: int
    already: int = 0

    @property
    def said(self) -> str:
        done = f"{self.recorded} report(s) recorded"
        if not self.already:
            return done
        return f"{done}; {self.already} already in the log book, not recorded again"


# what a report says: a report with the same key that says otherwise is another report
_SAYS = ("qualification", "role", "rainfall", "findings", "corrective_actions")


def _key(day: date, time: str, inspector: str) -> tuple[date, str, str]:
    """What makes a report one report: its day, time and inspector (the name's spacing
    and case aside)."""
    return day, time, " ".join(inspector.split()).casefold()


def _says(entry: LogEntry | dict[str, Any]) -> tuple[str, ...]:
    get = entry.get if isinstance(entry, dict) else lambda c: getattr(entry, c)
    return tuple(" ".join((get(c) or "").split()) for c in _SAYS)


def _recorded(session: Session, log: LogSite) -> dict[tuple[date, str, str], LogEntry]:
    return {_key(e.day, e.time, e.inspector): e for e in _entries(session, log)}


def _earlier(entry: LogEntry) -> str:
    """A recorded report in plain words, so an officer can find it."""
    source = "the desk's form" if entry.source == SOURCE else entry.source
    return (
        f"the report of {entry.day} at {entry.time} by {entry.inspector}, recorded from "
        f"{source} by {entry.recorded_by} on {entry.recorded_at:%Y-%m-%d}"
    )


def _new_rows(
    session: Session, log: LogSite, rows: list[dict[str, Any]], why: str, source: str
) -> tuple[list[dict[str, Any]], int]:
    """The rows not in the log book yet, and how many were; CaseInvalid for a row that
    names a report already recorded (or an earlier row of the file) but says otherwise."""
    recorded = _recorded(session, log)
    seen: dict[tuple[date, str, str], int] = {}
    new, already, problems = [], 0, []
    for n, row in enumerate(rows, start=2):
        key = _key(row["day"], row["time"], row["inspector"])
        there = recorded.get(key)
        if there is not None:
            if _says(there) == _says(row):
                already += 1
            else:
                problems.append(
                    Problem(
                        f"row {n}",
                        f"{_earlier(there)} says otherwise; a report is recorded once: "
                        "take this row out, or correct the file it came from",
                        why,
                    )
                )
            continue
        if key in seen:
            first = rows[seen[key] - 2]
            if _says(first) != _says(row):
                problems.append(
                    Problem(
                        f"row {n}",
                        f"the same report as row {seen[key]} (day, time and inspector) says "
                        "otherwise; keep the one that is right",
                        why,
                    )
                )
            else:
                already += 1
            continue
        seen[key] = n
        new.append(row)
    if problems:
        raise CaseInvalid(problems, source)
    return new, already


def add_entries(reg: Opened, site: str, path: Path, by: str | None = None) -> Added:
    """Record the reports of ``path`` (CSV) in ``site``'s log book, as written; all or
    none. Reports the log book has already are not recorded again (:class:`Added`)."""
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        log = _find(session, site)
        pack = load_pack(log.jurisdiction)
        rows = read_csv(path, pack)
        rows, already = _new_rows(session, log, rows, pack.part("logbook").ref, str(path))
        now = datetime.now().astimezone()
        session.add_all(_entry(log, row, path.name, now, who) for row in rows)
        session.flush()
        detail = {"file": path.name, "rows": len(rows), "already": already}
        record(session, who, "log-entries", "log_site", log.id, detail)
        pause("log-recorded")
        return Added(len(rows), already)


def add_entry(reg: Opened, site: str, typed: dict[str, str], by: str | None = None) -> None:
    """Record one report in ``site``'s log book as the inspector wrote it (the desk's
    form), checked as a CSV row is; Refused names every problem by its column."""
    who = actor(by)
    row = {column: " ".join((typed.get(column) or "").split()) for column in COLUMNS}
    row["findings"] = (typed.get("findings") or "").strip()  # written in lines, kept so
    row["corrective_actions"] = (typed.get("corrective_actions") or "").strip()
    with guarded(reg.url), db.write_session(reg.engine) as session:
        log = _find(session, site)
        day, problems = entry_problems(row, load_pack(log.jurisdiction))
        if day is None or problems:  # a day not read is one of the problems
            raise Refused(problems)
        there = _recorded(session, log).get(_key(day, row["time"], row["inspector"]))
        if there is not None:
            raise RegisterError(
                f"This report is in the log book already: {_earlier(there)}. A report is "
                "recorded once."
            )
        entry = _entry(log, row | {"day": day}, SOURCE, datetime.now().astimezone(), who)
        session.add(entry)
        session.flush()
        record(session, who, "log-entry", "log_site", log.id, {"date": row["date"]})


def _entries(session: Session, log: LogSite) -> list[LogEntry]:
    return list(
        session.scalars(
            select(LogEntry)
            .where(LogEntry.log_site_id == log.id)
            .order_by(LogEntry.day, LogEntry.time)
        )
    )


def _facts(
    log: LogSite, rows: Iterable[LogEntry], packs: Callable[..., Pack] = load_pack
) -> tuple[Rule, list[Entry]]:
    pack = packs(log.jurisdiction)
    rule = site_rule(pack, log.exemption, log.acre_authorized == "yes")
    entries = [
        Entry(datetime.fromisoformat(f"{r.day.isoformat()}T{r.time}"), r.role, r.rainfall)
        for r in rows
    ]
    return rule, entries


def logbook(reg: Opened, site: str, through: date | None = None) -> Log:
    """``site``'s log book with its gaps through ``through`` (default: today there)."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        log = _find(session, site)
        rows = _entries(session, log)
        rule, entries = _facts(log, rows)
        end = through or municipal_today(load_pack(log.jurisdiction))
        return Log(
            _label(log.site),
            log.jurisdiction,
            log.started,
            rule,
            tuple(rows),
            tuple(gaps(entries, log.started, end, rule)),
            next_inspection(entries, log.started, rule),
            log.exemption,
            log.acre_authorized == "yes",
            log.site_id,
        )


def next_due(
    session: Session, packs: Callable[..., Pack] = load_pack
) -> Iterable[tuple[date, str, str, str, str, str]]:
    """For the calendar: each open log book's next inspection due (day, what, site,
    provision, jurisdiction, and who opened the log book). Every open log book's reports
    are read in one query, not one per site."""
    logs = session.scalars(select(LogSite).where(LogSite.ended.is_(None))).all()
    reports: dict[int, list[LogEntry]] = {log.id: [] for log in logs}
    for entry in session.scalars(
        select(LogEntry)
        .join(LogSite, LogSite.id == LogEntry.log_site_id)
        .where(LogSite.ended.is_(None))
        .order_by(LogEntry.day, LogEntry.time)
    ):
        reports.setdefault(entry.log_site_id, []).append(entry)
    for log in logs:
        rule, entries = _facts(log, reports[log.id], packs)
        day = next_inspection(entries, log.started, rule)
        if day is not None:
            yield (
                day,
                "next qualified inspection due (site log book)",
                _label(log.site),
                rule.provision,
                log.jurisdiction,
                log.recorded_by,
            )


def require_reports(reg: Issuer, site: str, issued: date, submit_by: date, **issue: Any) -> Issued:
    """Issue the letter requiring ``site``'s log book reports (§ 228-79A(4)), made from its
    gaps, to the developer or applicant of the site's latest inspection report."""
    log = logbook(reg, site, through=issued)
    with guarded(reg.url), db.read_session(reg.engine) as session:
        found = _find(session, site)
        latest = session.scalars(
            select(Document)
            .join(Site, Site.id == Document.site_id)
            .where(
                Document.kind == INSPECTION,
                (Site.address == found.site.address) | (Site.description == found.site.address),
            )
            .order_by(Document.id.desc())
        ).first()
        if latest is None:
            raise RegisterError(
                f"{log.site}: no inspection report at this site names its developer or "
                "applicant; record an inspection first (docgen record-inspection)"
            )
        data = letter.from_log(
            log, latest.case.get("persons") or [], latest.case["officer"], issued, submit_by
        )
    return reg.issue(LETTER, data, **issue)


def log_sites(reg: Opened) -> list[str]:
    """The sites whose log book the register keeps, by their address or description."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        return sorted(_label(log.site) for log in session.scalars(select(LogSite)))
