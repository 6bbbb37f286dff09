"""History from before the register: convictions imported from a CSV, in batches that can
be withdrawn.

The file is read and checked by docgen.register.people.history_csv; here its rows are
matched with the register's respondents and written.

A row whose court and docket are already in the register, or whose respondent already
has a conviction with the same offense and conviction dates, is a duplicate: reported,
not imported (the same file imported twice imports nothing the second time).

One import is one batch with its own id (``import_batches``); its rows are written in
transactions of ``CHUNK`` rows, so clerks keep issuing while a long file is imported,
and ``docgen register import-history --undo ID`` withdraws them all (audited). Matching
is done in memory against the respondents loaded once, so the time grows with the rows,
not with rows times respondents.

One import runs at a time, and its rows count only once it has finished
(docgen.register.people.import_runs). Each chunk's write transaction first reads the
respondents made since (by an issue meanwhile): a row the file would make a new
respondent for that one of them now is, by name and address, is that respondent.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Table, delete, func, select, text, update
from sqlalchemy.orm import Session

from docgen.cases.loader import read_regular
from docgen.faults import pause
from docgen.register.people.history_csv import (
    MAX_BYTES,
    HistoryRow,
    default_jurisdiction,
    read_rows,
    validate,
)
from docgen.register.people.import_runs import import_lock, unfinished
from docgen.register.people.matching import (
    FIRM_WORDS,
    address_key,
    is_near,
    loose_key,
    loose_keys,
    name_key,
)
from docgen.register.people.respondents import MAX_ID, remember
from docgen.register.storage import db
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import (
    Alias,
    AuditEntry,
    Base,
    ImportBatch,
    Offense,
    Respondent,
    RespondentAddress,
)

CHUNK = 500  # rows per write transaction: a clerk's issue waits for one chunk at most


@dataclass
class Imported:
    """What an import did: its batch, the rows imported and the duplicates left out (and,
    finishing an import that stopped, the rows it had imported before)."""

    batch: int | None
    lines: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    before: int = 0


Planned = list[tuple[int, HistoryRow, int]]  # (line, row, respondent id: -n a new one)


def _word_ends(key: str) -> set[str]:
    """Each word of a name key, and its first and last four letters."""
    return {e for w in key.split() if w not in FIRM_WORDS for e in (w, w[:4] + "<", ">" + w[-4:])}


def _blocks(key: str) -> set[str]:
    """Where a name key is filed for near matching (its blocking keys). A one-word name:
    the word, and its first and last four letters. A name of several words: each pair of
    a word (or its first or last four letters) with the first or last two letters of
    another word (or the initial of a word before the last). A near name (a misspelling,
    a shortened word, an initial) shares at least one of them with the name it is near,
    and a block stays small when many names share a word (200 first names among 50,000
    people): a common first name alone is no block, so the candidates grow with the
    rows, never with rows times a first name's people."""
    words = [w for w in key.split() if w not in FIRM_WORDS] or key.split()
    ends = [{w, w[:4] + "<", ">" + w[-4:]} for w in words]
    if len(words) < 2:
        return ends[0] if ends else {key}
    # what of another word goes with it: its first and last two letters, and the initial
    # of a word before the last (an initial stands for a first or middle name: "J. Smith")
    last = len(words) - 1
    marks = [
        {w[:2] + "<", ">" + w[-2:]} | ({w[:1] + "<"} if j < last else set())
        for j, w in enumerate(words)
    ]
    out = set()
    for i, these in enumerate(ends):
        for j, other in enumerate(marks):
            if i != j:
                out |= {f"{a} {b}" for a in these for b in other}
    return out


class People:
    """The register's respondents in memory for one import: names, loose keys, addresses,
    and the new respondents the file makes (negative ids until written)."""

    def __init__(self, session: Any):
        self.named: dict[str, set[int]] = defaultdict(set)
        self.loose: dict[str, set[int]] = defaultdict(set)
        self.at: dict[str, set[int]] = defaultdict(set)
        self.blocks: dict[str, set[int]] = defaultdict(set)
        # a one-word name and a name of several words share no pair block: each kind is
        # also filed by its words' ends, asked only by the other kind (one-word names
        # are few, so neither side's look-up grows with a common first name)
        self.one_word: dict[str, set[int]] = defaultdict(set)
        self.by_word: dict[str, set[int]] = defaultdict(set)
        self.keys: dict[int, set[str]] = defaultdict(set)
        self.names: dict[int, str] = {}
        # -n -> (its first row, address key, name key, loose key): each key made once
        self.new: dict[int, tuple[HistoryRow, str, str, str]] = {}
        self.seen = (0, 0, 0)  # the last respondent, alias and address ids read
        self.own: set[int] = set()  # respondents this import made
        self.catch_up(session)

    def catch_up(self, session: Any) -> set[int]:
        """Read the respondents, aliases and addresses recorded since the last read (by
        others: an issue meanwhile); the respondents read."""
        last_r, last_a, last_ad = self.seen
        fresh: set[int] = set()
        for rid, name in session.execute(
            select(Respondent.id, Respondent.name).where(Respondent.id > last_r)
        ):
            last_r = max(last_r, rid)
            if rid not in self.own:
                self.names[rid] = name
                self.file(rid, name)
                fresh.add(rid)
        for aid, rid, name in session.execute(
            select(Alias.id, Alias.respondent_id, Alias.name).where(Alias.id > last_a)
        ):
            last_a = max(last_a, aid)
            self.file(rid, name)
        for aid, rid, akey in session.execute(
            select(
                RespondentAddress.id, RespondentAddress.respondent_id, RespondentAddress.address_key
            ).where(RespondentAddress.id > last_ad)
        ):
            last_ad = max(last_ad, aid)
            if rid not in self.own:
                self.at[akey].add(rid)
        self.seen = (last_r, last_a, last_ad)
        return fresh

    def made_meanwhile(self, pseudo: int) -> int | None:
        """The one respondent recorded by others with the name and address of the new one
        ``pseudo`` stands for (an issue made it while this import ran), if there is one."""
        _, akey, key, _ = self.new[pseudo]
        same = {
            rid
            for rid in self.named.get(key, set()) & self.at.get(akey, set())
            if rid > 0 and rid not in self.own
        }
        return same.pop() if len(same) == 1 else None

    def file(self, rid: int, name: str) -> tuple[str, str]:
        """File ``name`` for respondent ``rid``; its name key and loose key."""
        key, loose = name_key(name), loose_key(name)
        self.named[key].add(rid)
        self.loose[loose].add(rid)
        self.keys[rid].add(key)
        for block in _blocks(key):
            self.blocks[block].add(rid)
        for end in _word_ends(key):
            (self.one_word if len(key.split()) == 1 else self.by_word)[end].add(rid)
        return key, loose

    def who(self, row: HistoryRow) -> tuple[int | None, list[str]]:
        """(the respondent the row is, or None for a new one; else the candidates)."""
        key, akey = name_key(row.name), _address_key(row)
        named = self.named.get(key, set())
        exact = {rid for rid in named if rid in self.at.get(akey, set())}
        if len(exact) == 1:
            return exact.pop(), []
        found = {rid: "same name, another address" for rid in named}
        for rid in exact:
            found[rid] = "same name and address"
        loosely = (self.loose.get(loose, set()) for loose in loose_keys(row.name))
        for rid in set().union(*loosely):
            found.setdefault(rid, "the same words in another order, or look-alike letters")
        nearby = set().union(*(self.blocks.get(b, set()) for b in _blocks(key)))
        across = self.by_word if len(key.split()) == 1 else self.one_word
        nearby |= set().union(*(across.get(e, set()) for e in _word_ends(key)))
        for rid in nearby - set(found):
            if any(other != key and is_near(key, other) for other in self.keys[rid]):
                found[rid] = "similar name"
        if not found:
            return None, []
        return None, [f"#{rid} {self.names[rid]} ({why})" for rid, why in sorted(found.items())]

    def add(self, row: HistoryRow) -> int:
        pseudo = -(len(self.new) + 1)
        akey = _address_key(row)
        self.names[pseudo] = f"{row.name} (new in this file)"
        self.new[pseudo] = (row, akey, *self.file(pseudo, row.name))
        self.at[akey].add(pseudo)
        return pseudo


def _address_key(row: HistoryRow) -> str:
    return address_key(row.street, row.city, row.state, row.zip)


def _docket_key(court: str, docket: str) -> tuple[str, str]:
    # A docket is read once: keyed without name_key's memory of recent names, which a
    # file's 50,000 dockets pushed its 50,000 names out of (each then keyed again).
    return (name_key(court), name_key.__wrapped__(docket))


def import_history(reg: Any, path: Path, by: str | None = None) -> Imported:
    """Import the convictions in the CSV at ``path`` as one batch (see the module), holding
    the register's import lock; the same file's import that stopped is finished."""
    path = Path(path)
    with db.uncollected():  # a file's rows and their index: in no cycle
        rows = validate(read_rows(path, default_jurisdiction()), path.name)
        digest = hashlib.sha256(read_regular(path, MAX_BYTES, RegisterError)).hexdigest()
        with import_lock(reg):
            return _import(reg, path, rows, digest, actor(by))


def _import(
    reg: Any, path: Path, rows: list[tuple[int, HistoryRow]], digest: str, who: str
) -> Imported:
    with guarded(reg.url), db.read_session(reg.engine) as session:
        resumed = unfinished(session, digest, path.name)
        people = People(session)
        known_ids = set(session.scalars(select(Respondent.id)))
        dockets: set[tuple[str, str]] = set()
        own: set[tuple[str, str]] = set()  # the dockets of this file's run that stopped
        dates: set[tuple[int, date, date]] = set()
        for court, docket, holder, committed, convicted, batch in session.execute(
            select(
                Offense.court,
                Offense.docket,
                Offense.respondent_id,
                Offense.committed,
                Offense.convicted,
                Offense.import_batch_id,
            )
        ):
            if court and docket:
                (own if resumed is not None and batch == resumed else dockets).add(
                    _docket_key(court, docket)
                )
            if convicted is not None:
                dates.add((holder, committed, convicted))
    plan: Planned = []
    result = Imported(batch=None)
    problems: list[str] = []
    for line, row in rows:
        where = f"{path.name}:{line}"
        rid: int | None
        if row.respondent_id is not None:
            if row.respondent_id not in known_ids:
                problems.append(f"{where}: respondent_id: no respondent #{row.respondent_id}")
                continue
            rid = row.respondent_id
        else:
            rid, asked = people.who(row)
            if asked:
                problems.append(
                    f"{where}: {row.name!r} is not matched with certainty; candidates: "
                    + "; ".join(asked)
                    + " (add a respondent_id column: an id, or leave a new one's empty "
                    "after checking it is nobody on record)"
                )
                continue
        key = _docket_key(row.court, row.docket)
        if key in own:  # imported by this file's run that stopped
            result.before += 1
            continue
        if key in dockets or (rid is not None and (rid, row.committed, row.convicted) in dates):
            result.duplicates.append(
                f"{where}: already in the register ({row.court}, docket {row.docket}); not imported"
            )
            continue
        if rid is None:
            rid = people.add(row)
        dockets.add(key)
        dates.add((rid, row.committed, row.convicted))
        plan.append((line, row, rid))
    if problems:
        raise RegisterError(
            f"{path.name}: nothing imported; {len(problems)} row(s) to fix:\n  "
            + "\n  ".join(problems)
        )
    if not plan and resumed is None:
        return result
    result.batch = _write(
        reg, path, digest, who, plan, people, len(result.duplicates), result.lines, resumed
    )
    return result


def _write(
    reg: Any,
    path: Path,
    digest: str,
    who: str,
    plan: Planned,
    people: People,
    duplicates: int,
    lines: list[str],
    resumed: int | None,
) -> int:
    with guarded(reg.url), db.write_session(reg.engine) as session:
        if resumed is None:
            batch = ImportBatch(
                source=str(path)[:1000],
                sha256=digest,
                rows=0,
                duplicates=duplicates,
                started_at=datetime.now(UTC),
                by=who,
            )
            session.add(batch)
            session.flush()
        else:
            batch = session.get_one(ImportBatch, resumed)
        batch_id = batch.id
        record(session, who, "import-start", "import_batch", batch_id, {"source": path.name})
    made: dict[int, int] = {}
    done = 0
    try:
        for start in range(0, len(plan), CHUNK):
            chunk = plan[start : start + CHUNK]
            with guarded(reg.url), db.write_session(reg.engine) as session:
                people.catch_up(session)
                _new_respondents(session, who, chunk, people, made)
                _remember(session, who, chunk)
                values = [_offense(path, n, row, made.get(r, r), batch_id) for n, row, r in chunk]
                ids = _inserted(session, Offense, values)
                now = datetime.now(UTC)
                session.execute(
                    _table(AuditEntry).insert(),
                    [
                        {
                            "at": now,
                            "actor": who,
                            "action": "import",
                            "entity": "offense",
                            "entity_id": oid,
                            "detail": {"source": f"{path.name}:{line}", "batch": batch_id},
                        }
                        for oid, (line, _, _) in zip(ids, chunk, strict=True)
                    ],
                )
                session.execute(
                    update(ImportBatch)
                    .where(ImportBatch.id == batch_id)
                    .values(rows=ImportBatch.rows + len(chunk))
                )
            pause("imported-chunk")
            done += len(chunk)
            for line, row, rid in chunk:
                lines.append(
                    f"{path.name}:{line}: #{made.get(rid, rid)} {row.name}, convicted "
                    f"{row.convicted} ({row.court}, docket {row.docket})"
                )
    except RegisterError as err:
        raise RegisterError(
            f"{path.name}: import {batch_id} stopped after {done} row(s): {err}; withdraw "
            f"what it wrote with `docgen register import-history --undo {batch_id}`"
        ) from None
    with guarded(reg.url), db.write_session(reg.engine) as session:
        batch = session.get_one(ImportBatch, batch_id)
        batch.finished_at = datetime.now(UTC)
        done = batch.rows
        record(
            session,
            who,
            "import",
            "import_batch",
            batch_id,
            {"source": path.name, "sha256": digest, "rows": done, "duplicates": duplicates},
        )
    return batch_id


def _new_respondents(
    session: Session, who: str, chunk: Planned, people: People, made: dict[int, int]
) -> None:
    fresh = sorted({rid for _, _, rid in chunk if rid < 0 and rid not in made}, reverse=True)
    for pseudo in list(fresh):  # made by an issue since the file was read: that one
        if (found := people.made_meanwhile(pseudo)) is not None:
            made[pseudo] = found
            fresh.remove(pseudo)
    if not fresh:
        return
    now = datetime.now(UTC)
    rows = [people.new[p][0] for p in fresh]
    ids = _inserted(
        session,
        Respondent,
        [
            {
                "name": r.name,
                # looks_like_firm, from the key made when the row was read
                "kind": "firm" if FIRM_WORDS & set(key.split()) else "person",
                "name_key": key,
                "loose_key": loose,
                "created_at": now,
            }
            for r, _, key, loose in (people.new[p] for p in fresh)
        ],
    )
    made.update(zip(fresh, ids, strict=True))
    people.own.update(ids)
    session.execute(
        _table(RespondentAddress).insert(),
        [
            {
                "respondent_id": rid,
                "street": r.street,
                "city": r.city,
                "state": r.state,
                "zip": r.zip,
                "address_key": people.new[p][1],
            }
            for p, rid, r in zip(fresh, ids, rows, strict=True)
        ],
    )
    session.execute(
        _table(AuditEntry).insert(),
        [
            {
                "at": now,
                "actor": who,
                "action": "create",
                "entity": "respondent",
                "entity_id": rid,
                "detail": {"name": r.name},
            }
            for rid, r in zip(ids, rows, strict=True)
        ],
    )


def _table(model: type[Base]) -> Table:
    """The table ``model`` maps, written with Core statements (not the ORM's unit of work)."""
    return Base.metadata.tables[model.__tablename__]


def _inserted(session: Session, model: type[Base], rows: list[dict[str, Any]]) -> list[int]:
    """Insert ``rows`` into ``model``'s table (Core, not the ORM's unit of work): their
    new ids, in the order of ``rows``. PostgreSQL: the ids are taken from the table's
    sequence in one query, and the rows sent as one pipelined executemany of a short
    statement (a multi-row INSERT of 500 rows spends most of its time in the driver's
    parsing of its placeholders); SQLite: one executemany, then the ids above the largest
    before it. The write transaction holds SQLite's write lock from its start (BEGIN
    IMMEDIATE), and each row inserted gets the largest id plus one, so they are the rows'
    ids in order. (An INSERT ... RETURNING in parameter order was sent once per row.)"""
    table = _table(model)
    if session.get_bind().dialect.name == "postgresql":
        ids = list(
            session.scalars(
                text(
                    "SELECT nextval(pg_get_serial_sequence(:t, 'id')) FROM generate_series(1, :n)"
                ),
                {"t": table.name, "n": len(rows)},
            )
        )
        session.execute(table.insert(), [{**r, "id": i} for r, i in zip(rows, ids, strict=True)])
        return ids
    before = session.scalar(select(func.max(table.c.id))) or 0
    session.execute(table.insert(), rows)
    ids = list(session.scalars(select(table.c.id).where(table.c.id > before).order_by(table.c.id)))
    if len(ids) != len(rows):  # another writer inside this transaction: never expected
        raise RegisterError(f"{len(ids)} records written for {len(rows)} rows; none kept")
    return ids


def _remember(session: Session, who: str, chunk: Planned) -> None:
    """A row naming its respondent by id: its spelling and address are kept on that record
    (the clerk said so by giving the id)."""
    for _, row, rid in chunk:
        if row.respondent_id is not None:
            remember(session, session.get_one(Respondent, rid), row.name, row, who)


def _offense(path: Path, line: int, row: HistoryRow, rid: int, batch: int) -> dict[str, Any]:
    return {
        "respondent_id": rid,
        "document_id": None,
        "jurisdiction": row.jurisdiction,
        "committed": row.committed,
        "continued_through": None,
        "violations": [],
        "disposition": "convicted",
        "disposition_date": row.convicted,
        "convicted": row.convicted,
        "court": row.court,
        "docket": row.docket,
        "reference": f"imported from {path.name}:{line}"[:500],
        "import_batch_id": batch,
    }


def undo_import(reg: Any, batch_id: int | str, by: str | None = None) -> int:
    """Withdraw every offense import ``batch_id`` brought in (audited); how many."""
    who = actor(by)
    text = str(batch_id).strip()
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None
    with guarded(reg.url), db.write_session(reg.engine) as session:
        batch = session.get(ImportBatch, number) if number and number <= MAX_ID else None
        if batch is None:
            raise RegisterError(f"--undo {batch_id}: no import with that id")
        if batch.undone_at is not None:
            raise RegisterError(
                f"import {batch.id} was already withdrawn ({batch.undone_at:%Y-%m-%d %H:%M} UTC "
                f"by {batch.undone_by})"
            )
        gone = session.execute(
            delete(Offense).where(Offense.import_batch_id == batch.id).returning(Offense.id)
        ).all()
        batch.undone_at, batch.undone_by = datetime.now(UTC), who
        record(
            session,
            who,
            "undo-import",
            "import_batch",
            batch.id,
            {"source": batch.source, "offenses": sorted(o for (o,) in gone)},
        )
        return len(gone)
