"""Restoring the register from a backup without ever giving a number twice.

A backup is the register as it was the night before: every number issued since is in use
on paper (served, filed, posted) but not in the restored register, which would give it
again. So a restore records itself (:func:`restore`: when, from which backup and its
SHA-256, the highest number of every series the backup holds) and the register issues
nothing until the clerk has accounted for the numbers used after the backup
(:func:`account`) in every series, none left out: the series come from the register (every
series it has numbered, and each kind its municipalities number in the present year:
:func:`to_account`), never from a list kept by hand. For each, the highest number used
since (the series then starts above it, and the gap is recorded with its reason), or a
statement that none was. An account naming some series and not the others is refused,
naming each one left. ``register check`` lists the gaps with their reason, and names a
number the register gave to a document although it was used after a backup
(:func:`given_twice`: an account of the numbers made before this rule, naming some series
only).

The backup is one of ``docgen register backup``'s files: a SQLite database for a SQLite
register, a ``pg_dump`` custom-format archive for PostgreSQL. A restore over a register
that has issued documents is refused unless forced, and even then the register it
replaces is kept, renamed beside it (SQLite); on PostgreSQL a restore goes into an empty
database only.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, inspect, select, text, update
from sqlalchemy.orm import Session

from docgen.documents import get_kind
from docgen.kinds import MODULES
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack, pack_names
from docgen.register.rules.numbering import ensure_counter, normalize, sequence
from docgen.register.storage import db
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Counter, Document, NumberGap, Restore
from docgen.register.storage.pgclient import libpq, postgres_client
from docgen.render.output import staging_file

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


def series_key(jurisdiction: str, kind: str, year: int) -> str:
    return f"{jurisdiction} {kind} {year}"


@dataclass(frozen=True)
class Restored:
    """What :func:`restore` did: the backup, where the replaced register was kept, and the
    highest number of each series at backup time."""

    backup: Path
    kept: Path | None
    highest: dict[str, int]


def restore(url: str, backup: Path, force: bool, by: str) -> Restored:
    """Put the register at ``url`` back as ``backup`` holds it, and record the restore."""
    backup = Path(backup)
    try:
        with open(backup, "rb") as f:
            head = f.read(16)
    except OSError as err:
        raise RegisterError(f"{backup}: cannot read the backup: {err.strerror}") from None
    path = db.sqlite_path(db.driver_url(url))
    if path is not None:
        if not head.startswith(SQLITE_MAGIC):
            raise RegisterError(
                f"{backup} is not a backup of a SQLite register (`docgen register backup` "
                "writes a SQLite database for one); nothing was restored"
            )
        kept = _restore_sqlite(path, backup, force)
    else:
        if not head.startswith(PG_DUMP_MAGIC):
            raise RegisterError(
                f"{backup} is not a backup of a PostgreSQL register (a pg_dump custom-format "
                "archive, as `docgen register backup` writes one); nothing was restored"
            )
        _restore_postgresql(url, backup)
        kept = None
    engine = db.make_engine(url)
    try:
        with db.guarded(url):
            db.check_revision(engine, url, migrate=True)
            with db.write_session(engine) as session:
                highest = {
                    series_key(c.jurisdiction, c.kind, c.year): c.last
                    for c in session.scalars(select(Counter))
                }
                session.add(
                    Restore(
                        at=datetime.now(UTC),
                        backup=str(backup.resolve()),
                        sha256=_sha256(backup),
                        by=by,
                        highest=highest,
                    )
                )
    finally:
        engine.dispose()
    return Restored(backup, kept, highest)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _issued_documents(url: str) -> int:
    engine = create_engine(db.driver_url(url))
    try:
        with engine.connect() as conn:
            if not conn.dialect.has_table(conn, "documents"):
                return 0
            return int(conn.execute(text("SELECT count(*) FROM documents")).scalar_one())
    finally:
        engine.dispose()


def _refuse_over_issued(where: str, issued: int) -> None:
    raise RegisterError(
        f"the register {where} holds {issued} issued document(s); a restore replaces it, so "
        "it is refused: restore into an empty register, or give --force to keep the present "
        "register aside and restore over it"
    )


def _restore_sqlite(path: Path, backup: Path, force: bool) -> Path | None:
    """The backup copied into the register's place; a present register is renamed aside
    (with its -wal and -shm), never deleted. The copy is checked before it is put there."""
    kept = None
    if db.check_existing_file(path):
        issued = _issued_documents(db.sqlite_url(path))
        if issued and not force:
            _refuse_over_issued(str(path), issued)
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        kept = path.with_name(f"{path.name}.replaced-{stamp}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = staging_file(path)
    os.close(fd)
    try:
        shutil.copyfile(backup, tmp)
        os.chmod(tmp, 0o600)
        with sqlite3.connect(f"file:{tmp}?mode=ro", uri=True) as copy:
            answer = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            has_register = copy.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
            ).fetchone()
        copy.close()
        if answer != ["ok"] or not has_register:
            raise RegisterError(
                f"{backup} is not a sound docgen register "
                f"({'; '.join(answer[:3]) if answer != ['ok'] else 'no register revision'}); "
                "nothing was restored: take an older backup"
            )
        if kept is not None:
            os.replace(path, kept)
            for extra in ("-wal", "-shm"):
                side = path.with_name(path.name + extra)
                if side.exists():
                    os.replace(side, kept.with_name(kept.name + extra))
        os.replace(tmp, path)
    except sqlite3.Error as err:
        raise RegisterError(
            f"{backup} cannot be read as a register ({err}); nothing was restored"
        ) from None
    finally:
        Path(tmp).unlink(missing_ok=True)
    return kept


def _restore_postgresql(url: str, backup: Path) -> None:
    """pg_restore of the archive, in one transaction, into the database at ``url``, which
    must be empty: a database holding a register is never cleaned here (create a new one,
    as docs/deploy.md says, and restore into it; the old one stays as it is)."""
    engine = create_engine(db.driver_url(url))
    try:
        with db.guarded(url), engine.connect() as conn:
            tables = inspect(conn).get_table_names()
    finally:
        engine.dispose()
    if tables:
        issued = _issued_documents(url)
        raise RegisterError(
            f"the database {db.safe_url(url)} is not empty ({len(tables)} tables, {issued} "
            "issued document(s)); on PostgreSQL a restore goes into an empty database only: "
            "create one (createdb), point DOCGEN_DATABASE_URL at it and restore there; nothing "
            "was restored"
        )
    done = subprocess.run(
        [
            postgres_client("pg_restore"),
            "--no-owner",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={libpq(url)}",
            str(backup),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise RegisterError(
            f"pg_restore: {said[-1] if said else done.returncode}; nothing was restored "
            "(the restore runs in one transaction)"
        )


# -- accounting for the numbers used after the backup -----------------------------------


def pending(session: Session) -> Restore | None:
    """The restore whose numbers are not yet accounted for (None: issuing may go on)."""
    return session.scalar(
        select(Restore).where(Restore.accounted_at.is_(None)).order_by(Restore.id.desc()).limit(1)
    )


def refuse_until_accounted(session: Session) -> None:
    """Nothing is numbered in a restored register until the numbers used after its backup
    are accounted for: the same number would go to two documents."""
    restored = pending(session)
    if restored is not None:
        raise RegisterError(
            f"the register was restored on {restored.at:%Y-%m-%d} from {restored.backup}; "
            "numbers issued after that backup was taken may be in use on paper, so nothing is "
            "issued until they are accounted for: `docgen register account-numbers "
            "--used-through NUMBER ...` (the highest number of each series used since the "
            "backup) or `--none-since`; nothing was issued"
        )


def _format(jurisdiction: str, kind: str) -> str | None:
    """The pack's numbering format of ``kind`` (None: not a series a pack numbers here)."""
    if jurisdiction not in pack_names():
        return None
    pack = load_pack(jurisdiction)
    return pack.numbering.format_for(kind) if pack.numbering else None


@dataclass(frozen=True)
class Gap:
    series: str
    after: int  # the last number the backup held
    through: int  # the last number the clerk says was used (``after``: none was)

    def said(self) -> str:
        name, kind, year_text = self.series.split(" ")
        year = int(year_text)
        fmt = _format(name, kind)
        if fmt is None:
            return f"{self.series} {self.after + 1} to {self.through}"
        first = fmt.format(year=year, seq=self.after + 1)
        last = fmt.format(year=year, seq=self.through)
        return first if first == last else f"{first} to {last}"


@dataclass(frozen=True)
class Series:
    """A series whose numbers may have been used after the backup, and the backup's last."""

    jurisdiction: str
    kind: str
    year: int
    last: int  # the backup's last number of it (0: the backup holds none)

    @property
    def key(self) -> str:
        return series_key(self.jurisdiction, self.kind, self.year)

    def said(self) -> str:
        """The series in plain words: its kind, year and municipality, and the backup's last
        number ("Notice of deficiency, 2026, <the municipality's name>: the backup's last is
        NOD-2026-0001")."""
        fmt = _format(self.jurisdiction, self.kind)
        title = get_kind(self.kind).title if self.kind in MODULES else self.kind
        town = load_pack(self.jurisdiction).name.value if fmt else self.jurisdiction
        where = f"{title}, {self.year}, {town}"
        if fmt is None:
            return f"{where}: the backup's last is number {self.last}"
        if not self.last:
            return f"{where} ({fmt.format(year=self.year, seq=1)} on): the backup holds none"
        return f"{where}: the backup's last is {fmt.format(year=self.year, seq=self.last)}"


def to_account(session: Session) -> list[Series]:
    """Every series whose numbers may have been used after the backup, from the register:
    each series it has numbered (its counters, as the backup left them), and each kind its
    municipalities number in their present year (a series begun after the backup)."""
    found = {(c.jurisdiction, c.kind, c.year): c.last for c in session.scalars(select(Counter))}
    for name in sorted({j for j, _, _ in found} & set(pack_names())):
        pack = load_pack(name)
        year = municipal_today(pack).year
        for kind in pack.numbering.formats if pack.numbering else {}:
            found.setdefault((name, kind, year), 0)
    return [Series(j, k, y, last) for (j, k, y), last in sorted(found.items())]


def series_of(reg: Any) -> list[Series]:
    """:func:`to_account` of the register ``reg`` (`register account-numbers --list`)."""
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        return to_account(session)


def parse_number(typed: str, jurisdiction: str | None) -> tuple[str, str, int, int]:
    """``typed`` as (jurisdiction, kind, year, seq), by the packs' numbering formats."""
    number = normalize(typed)
    found = []
    for name in pack_names():
        if jurisdiction is not None and name != jurisdiction:
            continue
        pack = load_pack(name)
        for kind in pack.numbering.formats if pack.numbering else {}:
            place = sequence(pack, kind, number)
            if place is not None:
                found.append((name, kind, *place))
    if not found:
        raise RegisterError(
            f"--used-through {typed!r} is not a document number of "
            f"{jurisdiction or 'any installed municipality'} (they are written as the pack's "
            "numbering formats say, e.g. NOV-2026-0007)"
        )
    if len(found) > 1:
        held = ", ".join(sorted({f[0] for f in found}))
        raise RegisterError(
            f"--used-through {typed!r} is a number of several municipalities ({held}); say which "
            "with --jurisdiction"
        )
    return found[0]


def account(
    reg: Any,
    used_through: list[str],
    none_since: bool,
    by: str,
    jurisdiction: str | None,
    others_unused: bool = False,
) -> list[Gap]:
    """Account for the numbers used after the pending restore's backup, in every series
    (:func:`to_account`): each series named starts above its number and the gap is
    recorded; ``none_since`` says none was used in any, ``others_unused`` in every series
    not named. An account leaving a series out is refused, naming each one left."""
    if bool(used_through) == none_since or (others_unused and not used_through):
        raise RegisterError(
            "say either the highest numbers used since the backup (--used-through NUMBER, "
            "once per series, and --others-unused when no number of the other series was "
            "used) or that none was issued since (--none-since)"
        )
    parsed = [parse_number(n, jurisdiction) for n in used_through]
    named: dict[str, str] = {}
    for (name, kind, year, _), typed in zip(parsed, used_through, strict=True):
        key = series_key(name, kind, year)
        if key in named:
            raise RegisterError(
                f"--used-through {named[key]} and {typed} are of the same series; give only "
                "the highest number used since the backup"
            )
        named[key] = typed
    with db.guarded(reg.url), db.write_session(reg.engine) as session:
        restored = pending(session)
        if restored is None:
            raise RegisterError("no restore is waiting: the register issues as usual")
        left = [s for s in to_account(session) if s.key not in named]
        gaps = []
        for (name, kind, year, seq), typed in zip(parsed, used_through, strict=True):
            key = series_key(name, kind, year)
            where = (Counter.jurisdiction == name, Counter.kind == kind, Counter.year == year)
            ensure_counter(session, name, kind, year)
            last = session.execute(select(Counter.last).where(*where)).scalar_one()
            if seq <= last:
                raise RegisterError(
                    f"--used-through {typed}: the restored register already holds the {kind} "
                    f"numbers through {last} for {year}; name the highest number used after "
                    "the backup, or, if none of it was used, leave it out and add --others-unused"
                )
            session.execute(update(Counter).where(*where).values(last=seq))
            gaps.append(Gap(key, last, seq))
            session.add(  # register check names the gap with its reason (numbering.gaps)
                NumberGap(
                    jurisdiction=name,
                    kind=kind,
                    year=year,
                    first=last + 1,
                    last=seq,
                    reason=f"issued after the backup restored on {restored.at:%Y-%m-%d} "
                    f"({restored.backup})",
                    recorded_by=by,
                    recorded_at=datetime.now(UTC),
                )
            )
        if left and not (none_since or others_unused):
            raise RegisterError(
                "these series are not accounted for; numbers of any of them issued after the "
                "backup would be given again. For each, give the highest number used since the "
                "backup (--used-through NUMBER), or add --others-unused if none of them was "
                "used; nothing was recorded:\n  " + "\n  ".join(s.said() for s in left)
            )
        unused = [Gap(s.key, s.last, s.last) for s in left]  # stated: none used since
        restored.accounted_at = datetime.now(UTC)
        restored.accounted_by = by
        restored.gaps = [
            {"series": g.series, "after": g.after, "through": g.through} for g in gaps + unused
        ]
    return gaps


def restore_lines(session: Session) -> list[str]:
    """``register check``'s lines about restores: a restore still waiting for its numbers,
    and for each accounted one the numbers said to be used after its backup (each also a
    recorded gap with that reason, numbering.gaps) and how many series none was used in."""
    lines = []
    for restored in session.scalars(select(Restore).order_by(Restore.id)):
        when = f"{restored.at:%Y-%m-%d}"
        if restored.accounted_at is None:
            lines.append(
                f"restore: restored on {when} from {restored.backup}; nothing is issued until "
                "the numbers used after the backup are accounted for (register account-numbers)"
            )
            continue
        stated = [Gap(g["series"], g["after"], g["through"]) for g in restored.gaps or []]
        used = [g.said() for g in stated if g.through > g.after]
        none = len(stated) - len(used)
        others = f"; none used in {none} other series" if none and used else ""
        lines.append(
            f"restore: restored on {when} from {restored.backup}; used after the backup, "
            f"stated by {restored.accounted_by}: {', '.join(used) or 'none'}{others}"
        )
    return lines


def given_twice(session: Session) -> list[str]:
    """Numbers the register gave to a document although they were used on another: a
    number inside a gap recorded as used elsewhere (after a backup, or before the register),
    and a number given after a restore in a series its backup held but its account of the
    numbers used since left out (an account made before every series had to be named)."""
    gaps: dict[tuple[str, str, int], list[NumberGap]] = {}
    for gap in session.scalars(select(NumberGap).order_by(NumberGap.id)):
        gaps.setdefault((gap.jurisdiction, gap.kind, gap.year), []).append(gap)
    restores = [r for r in session.scalars(select(Restore).order_by(Restore.id)) if r.accounted_at]
    found = []
    rows = session.execute(
        select(Document.jurisdiction, Document.kind, Document.number).order_by(Document.id)
    )
    for name, kind, number in rows:
        place = sequence(load_pack(name), kind, number) if name in pack_names() else None
        if place is None:
            continue
        year, seq = place
        for gap in gaps.get((name, kind, year), []):
            if gap.first <= seq <= gap.last:
                found.append(
                    f"{number} is a document of this register, yet recorded as used on another "
                    f"({gap.reason}): one number on two documents"
                )
        key = series_key(name, kind, year)
        for restored in restores:
            stated = {g["series"] for g in restored.gaps or []}
            if stated and key not in stated and seq > restored.highest.get(key, seq):
                found.append(
                    f"{number} was given after the restore of {restored.at:%Y-%m-%d}, whose "
                    "account of the numbers used since its backup left this series out: the "
                    "same number may be on a document issued after that backup"
                )
    return found
