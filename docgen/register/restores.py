"""Restoring the register from a backup without ever giving a number twice.

A backup is the register as it was the night before: every number issued since is in use
on paper (served, filed, posted) but not in the restored register, which would give it
again. So a restore records itself (:func:`restore`: when, from which backup and its
SHA-256, the highest number of every series the backup holds) and the register issues
nothing until the clerk has accounted for the numbers used after the backup
(:func:`account`): either the highest number used so far in a series (each series then
starts above it, and the gap is recorded with its reason), or a statement that nothing
was issued since the backup. ``register check`` lists the gaps with their reason.

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

from docgen.law.packs import load_pack, pack_names
from docgen.register import db
from docgen.register.db import RegisterError
from docgen.register.models import Counter, NumberGap, Restore
from docgen.register.numbering import ensure_counter, normalize, sequence
from docgen.register.pgclient import libpq, postgres_client
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
            return conn.execute(text("SELECT count(*) FROM documents")).scalar_one()
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


@dataclass(frozen=True)
class Gap:
    series: str
    after: int  # the last number the backup held
    through: int  # the last number the clerk says was used

    def said(self) -> str:
        name, kind, year_text = self.series.split(" ")
        year = int(year_text)
        fmt = None
        if name in pack_names():
            pack = load_pack(name)
            fmt = pack.numbering.format_for(kind) if pack.numbering else None
        if fmt is None:
            return f"{self.series} {self.after + 1} to {self.through}"
        first = fmt.format(year=year, seq=self.after + 1)
        last = fmt.format(year=year, seq=self.through)
        return first if first == last else f"{first} to {last}"


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
    reg: Any, used_through: list[str], none_since: bool, by: str, jurisdiction: str | None
) -> list[Gap]:
    """Account for the numbers used after the pending restore's backup: each series named
    starts above its number and the gap is recorded; ``none_since`` says none was used."""
    if bool(used_through) == none_since:
        raise RegisterError(
            "say either the highest numbers used since the backup (--used-through NUMBER, "
            "once per series) or that none was issued since (--none-since)"
        )
    parsed = [parse_number(n, jurisdiction) for n in used_through]
    with db.guarded(reg.url), db.write_session(reg.engine) as session:
        restored = pending(session)
        if restored is None:
            raise RegisterError("no restore is waiting: the register issues as usual")
        gaps = []
        for (name, kind, year, seq), typed in zip(parsed, used_through, strict=True):
            key = series_key(name, kind, year)
            where = (Counter.jurisdiction == name, Counter.kind == kind, Counter.year == year)
            ensure_counter(session, name, kind, year)
            last = session.scalar(select(Counter.last).where(*where))
            if seq <= last:
                raise RegisterError(
                    f"--used-through {typed}: the restored register already holds the {kind} "
                    f"numbers through {last} for {year}; name the highest number used after "
                    "the backup, or leave this series out"
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
        restored.accounted_at = datetime.now(UTC)
        restored.accounted_by = by
        restored.gaps = [{"series": g.series, "after": g.after, "through": g.through} for g in gaps]
    return gaps


def restore_lines(session: Session) -> list[str]:
    """``register check``'s lines about restores: a restore still waiting for its numbers,
    and for each accounted one the numbers said to be used after its backup (each also a
    recorded gap with that reason, numbering.gaps)."""
    lines = []
    for restored in session.scalars(select(Restore).order_by(Restore.id)):
        when = f"{restored.at:%Y-%m-%d}"
        if restored.accounted_at is None:
            lines.append(
                f"restore: restored on {when} from {restored.backup}; nothing is issued until "
                "the numbers used after the backup are accounted for (register account-numbers)"
            )
            continue
        used = [Gap(g["series"], g["after"], g["through"]).said() for g in restored.gaps or []]
        lines.append(
            f"restore: restored on {when} from {restored.backup}; used after the backup, "
            f"stated by {restored.accounted_by}: {', '.join(used) or 'none'}"
        )
    return lines
