"""Keeping the register: consistent backups while in use, and history from before it.

``import_history`` reads a CSV of convictions (one per row, header row first):

    name,street,city,state,zip,committed,convicted,court,docket[,jurisdiction][,respondent_id]

Every row needs its court reference (court and docket): a prior that raises a penalty
under § 228-79C(4) must be traceable to the judgment. The file is imported whole or not
at all; each bad row is reported as ``file.csv:N`` with what is wrong.
"""

from __future__ import annotations

import csv
import os
import shutil
import sqlite3
import subprocess
import tempfile
from datetime import date, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

from docgen.law.penalties import disposition_problem
from docgen.register import db
from docgen.register.audit import actor, record
from docgen.register.db import RegisterError, guarded
from docgen.register.models import Offense
from docgen.register.respondents import AmbiguousRespondent, resolve

REQUIRED = ("name", "street", "city", "state", "zip", "committed", "convicted", "court", "docket")


def backup(reg: Any, target: Path) -> Path:
    """A consistent copy of the register at ``target`` (never over an existing file).

    SQLite: the online backup API (pages copied under a read lock, so writers may carry
    on between steps). PostgreSQL: ``pg_dump`` in custom format (one snapshot).
    """
    target = Path(target)
    if target.exists():
        raise RegisterError(f"{target} exists; a backup never replaces a file, choose a new name")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    try:
        if reg.engine.dialect.name == "sqlite":
            with guarded(reg.url):
                source = reg.engine.raw_connection()
                try:
                    copy = sqlite3.connect(tmp)
                    with copy:
                        source.driver_connection.backup(copy)
                    copy.close()
                finally:
                    source.close()
        else:
            _pg_dump(reg.url, Path(tmp))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _pg_dump(url: str, target: Path) -> None:
    from sqlalchemy.engine import make_url

    parsed = make_url(db.driver_url(url))
    libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    found = shutil.which("pg_dump") or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_dump"), reverse=True)),
        None,
    )
    if found is None:
        raise RegisterError("pg_dump not found; install the PostgreSQL client (postgresql-client)")
    done = subprocess.run(
        [found, "--format=custom", f"--file={target}", f"--dbname={libpq}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RegisterError(f"pg_dump failed: {done.stderr.strip().splitlines()[-1:]}")


def _day(row: dict[str, str], key: str) -> date:
    try:
        return date.fromisoformat(row[key].strip())
    except ValueError:
        raise ValueError(f"{key}: {row[key]!r} is not a date (YYYY-MM-DD)") from None


def import_history(reg: Any, path: Path, by: str | None = None) -> list[str]:
    """Import the convictions in the CSV at ``path``; one line per imported row."""
    from docgen.law.packs import load_pack

    who = actor(by)
    with open(path, newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    missing = [c for c in REQUIRED if rows and c not in rows[0]]
    if not rows or missing:
        raise RegisterError(
            f"{path}: "
            + ("no rows" if not rows else f"missing columns: {', '.join(missing)}")
            + f"; the header is {','.join(REQUIRED)}[,jurisdiction][,respondent_id]"
        )
    problems: list[str] = []
    done: list[str] = []
    today = datetime.now(ZoneInfo("America/New_York")).date()
    with guarded(reg.url), db.write_session(reg.engine) as session:
        for n, row in enumerate(rows, start=2):
            where = f"{path.name}:{n}"
            try:
                empty = [c for c in REQUIRED if not (row.get(c) or "").strip()]
                if empty:
                    raise ValueError(
                        f"{', '.join(empty)} empty (each conviction needs its court reference)"
                    )
                committed, convicted = _day(row, "committed"), _day(row, "convicted")
                wrong = disposition_problem(convicted, committed, today, f"today ({today})")
                if wrong:  # LAW.md § 4, reading 13
                    raise ValueError(f"convicted {convicted}: {wrong}")
                jurisdiction = load_pack((row.get("jurisdiction") or "homer").strip()).id
                address = SimpleNamespace(
                    street=row["street"].strip(),
                    city=row["city"].strip(),
                    state=row["state"].strip().upper(),
                    zip=row["zip"].strip(),
                )
                chosen = (row.get("respondent_id") or "").strip() or None
                person, _ = resolve(session, row["name"].strip(), address, chosen, who)
            except AmbiguousRespondent as err:
                problems.append(f"{where}: {err} (add a respondent_id column)")
                continue
            except (ValueError, RegisterError) as err:
                problems.append(f"{where}: {err}")
                continue
            offense = Offense(
                respondent_id=person.id,
                document_id=None,
                jurisdiction=jurisdiction,
                committed=committed,
                violations=[],
                disposition="convicted",
                disposition_date=convicted,
                convicted=convicted,
                court=row["court"].strip(),
                docket=row["docket"].strip(),
                reference=f"imported from {path.name}:{n}",
            )
            session.add(offense)
            session.flush()
            record(session, who, "import", "offense", offense.id, {"source": where})
            done.append(
                f"{where}: #{person.id} {person.name}, convicted {convicted} "
                f"({offense.court}, docket {offense.docket})"
            )
        if problems:
            raise RegisterError(
                f"{path}: nothing imported; {len(problems)} row(s) to fix:\n  "
                + "\n  ".join(problems)
            )
    return done
