"""Document numbers: the next per jurisdiction, kind and year, in the pack's format.

Gap-free: the counter row is locked (SQLite: the transaction began IMMEDIATE; PostgreSQL:
``SELECT ... FOR UPDATE``) and advanced in the transaction that inserts the document, so
a number is used exactly when its document is recorded; a failure or a crash before the
commit rolls both back.

One spelling per number: a number typed in a case, or given to a command, is read
trimmed, NFKC, in upper case and with every dash as "-" (``normalize``); a typed number
must then be written exactly as the pack writes that kind's numbers for the issue year
(``typed_number``), so ``NOV-2026-00001``, ``NOV-2026-0001.``, ``PS-2026-0001`` on a
notice and ``NOV-2027-0001`` in 2026 are refused, and a look-alike of an issued number is
that number.

Safe to print anywhere: a number is ASCII letters, digits and ``-._/`` only (it goes into
file names, URLs and HTTP headers), checked at issue whatever produced it (a pack's
format, or a number typed in a case); a pack whose format makes anything else is refused.

Numbers cannot run ahead: a typed number above its series' next would leave the numbers
between unused, so it is refused, unless the clerk says why those numbers were not
issued here (``number_gap``: paper notices before the register, say); then the gap is
recorded with that reason (``NumberGap``) and the series goes on after the typed
number. :func:`gaps` lists every gap in every series, with its reason or "unexplained".

Numbers are unique per jurisdiction: two municipalities sharing one register both have a
``CC-2026-0001`` (each pack's format is that municipality's practice, printed on its
documents, so docgen does not add a prefix of its own); a command given a number that
two jurisdictions hold asks for ``--jurisdiction``.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import defaultdict
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from docgen.documents import get_kind
from docgen.law.pack import Pack
from docgen.register.storage.audit import record
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Counter, Document, NumberGap


def number_format(pack: Pack, kind: str) -> str:
    fmt = pack.numbering.format_for(kind) if pack.numbering else None
    if fmt is None:
        raise RegisterError(
            f"the {pack.id} pack numbers no {get_kind(kind).lower_title}: add its format to the "
            f"pack's numbering formats (as {kind!r}), or give the case a number"
        )
    return fmt


def normalize(text: str) -> str:
    """``" nov‐2026‐0001 "`` -> ``"NOV-2026-0001"``: trimmed, NFKC, upper case, one dash."""
    folded = unicodedata.normalize("NFKC", str(text)).strip().upper()
    return "".join("-" if unicodedata.category(c) == "Pd" or c == "\u2212" else c for c in folded)


def _pattern(fmt: str) -> re.Pattern[str]:
    """The pack's format as a pattern: ``{year}`` four digits, ``{seq...}`` digits."""
    parts = []
    for literal, field, _spec, _conv in string.Formatter().parse(fmt):
        parts.append(re.escape(literal.upper()))
        if field == "year":
            parts.append(r"(?P<year>[0-9]{4})")
        elif field == "seq":
            parts.append(r"(?P<seq>[0-9]+)")
        elif field is not None:
            raise RegisterError(f"numbering format {fmt!r}: unknown field {{{field}}}")
    return re.compile("".join(parts))


ALLOWED = re.compile(r"[A-Za-z0-9._/-]+")


def allowed(number: str, pack: Pack, kind: str) -> str:
    """``number`` if it is made of ASCII letters, digits and ``-._/`` only; otherwise an
    error naming the number, the characters refused and the format that made it."""
    if ALLOWED.fullmatch(number) and not set(number) <= set("./"):
        return number
    bad = sorted({c for c in number if not ALLOWED.fullmatch(c)})
    shown = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in bad) or "only dots and slashes"
    fmt = pack.numbering.format_for(kind) if pack.numbering else None
    made = (
        f"the {pack.id} pack's numbering format of {get_kind(kind).a_title} ({fmt!r}) makes "
        "it; change the format"
        if fmt
        else "type the number with those characters only"
    )
    raise RegisterError(
        f"number: {number!r} cannot be issued: a document number is ASCII letters, digits and "
        f"- . _ / only (it is printed in file names, addresses and headers), not {shown}; {made}"
    )


def typed_number(pack: Pack, kind: str, year: int, typed: str) -> str:
    """The number a case typed, in its one spelling, or an error saying what is wrong."""
    number = normalize(typed)
    numbering = pack.numbering
    fmt = numbering.format_for(kind) if numbering else None
    if numbering is None or fmt is None:
        if not number:
            raise RegisterError("number: empty; leave it out and the register numbers the case")
        return allowed(number, pack, kind)
    example = fmt.format(year=year, seq=1)
    ref = numbering.ref
    found = _pattern(fmt).fullmatch(number)
    if found is None:
        raise RegisterError(
            f"number: {typed!r} is not {get_kind(kind).a_title} number of {pack.id}; they are "
            f"written like "
            f"{example} ({ref}); leave the number out and the register gives the next one"
        )
    if int(found["year"]) != year:
        raise RegisterError(
            f"number: {number} is numbered for {found['year']}, but this "
            f"{get_kind(kind).lower_title} is issued in "
            f"{year}; its number is of its issue year, like {example} ({ref})"
        )
    canonical = fmt.format(year=year, seq=int(found["seq"]))
    if int(found["seq"]) < 1 or canonical != number:
        raise RegisterError(
            f"number: {typed!r} is not written as {pack.id} writes numbers "
            f"({canonical if int(found['seq']) >= 1 else example}; {ref})"
        )
    return allowed(canonical, pack, kind)


def ensure_counter(session: Session, jurisdiction: str, kind: str, year: int) -> None:
    values = {"jurisdiction": jurisdiction, "kind": kind, "year": year, "last": 0}
    if session.get_bind().dialect.name == "postgresql":
        # sqlalchemy takes 28 ms to import: loaded on first use
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        session.execute(postgresql_insert(Counter).values(**values).on_conflict_do_nothing())
    else:
        # sqlalchemy takes 8 ms to import: loaded on first use
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        session.execute(sqlite_insert(Counter).values(**values).on_conflict_do_nothing())


def next_number(session: Session, pack: Pack, kind: str, year: int) -> str:
    """Take the next free number (inside the caller's write transaction)."""
    fmt = number_format(pack, kind)
    allowed(fmt.format(year=year, seq=1), pack, kind)  # before the counter is touched
    last = _next_free(session, pack, kind, year, fmt)
    where = (Counter.jurisdiction == pack.id, Counter.kind == kind, Counter.year == year)
    session.execute(update(Counter).where(*where).values(last=last))
    return fmt.format(year=year, seq=last)


def _next_free(session: Session, pack: Pack, kind: str, year: int, fmt: str) -> int:
    """The series' next free sequence number (its counter row locked)."""
    ensure_counter(session, pack.id, kind, year)
    where = (Counter.jurisdiction == pack.id, Counter.kind == kind, Counter.year == year)
    last = session.execute(select(Counter.last).where(*where).with_for_update()).scalar_one()
    while True:
        last += 1
        number = fmt.format(year=year, seq=last)
        # A number typed by hand in an earlier case may already be taken: that number has
        # its document, so stepping past it leaves no gap.
        taken = session.scalar(
            select(Document.id).where(Document.jurisdiction == pack.id, Document.number == number)
        )
        if taken is None:
            return last


def sequence(pack: Pack, kind: str, number: str) -> tuple[int, int] | None:
    """(year, sequence number) of a number written in the pack's format for ``kind``."""
    fmt = pack.numbering.format_for(kind) if pack.numbering else None
    found = _pattern(fmt).fullmatch(number) if fmt else None
    return (int(found["year"]), int(found["seq"])) if found else None


def typed_ahead(
    session: Session,
    pack: Pack,
    kind: str,
    number: str,
    reason: str | None,
    who: str,
) -> None:
    """A typed number above its series' next is refused; with ``reason`` (the clerk's
    word for why the numbers before it were never issued here) it is taken: the gap is
    recorded and the counter moved past the number. Inside the write transaction."""
    place = sequence(pack, kind, number)
    if place is None:
        return  # a kind the pack does not number: typed numbers are its only ones
    year, seq = place
    fmt = number_format(pack, kind)
    nxt = _next_free(session, pack, kind, year, fmt)
    if seq <= nxt:
        return
    first, last = fmt.format(year=year, seq=nxt), fmt.format(year=year, seq=seq - 1)
    unused = f"{first}" if seq - 1 == nxt else f"{first} to {last}"
    said = (reason or "").strip()
    if not said:
        raise RegisterError(
            f"number: {number} is ahead of its series, whose next number is {first}: issuing "
            f"it would leave {seq - nxt} number(s) unused ({unused}); leave the number out "
            f"and the register gives {first}, or, if those numbers were used elsewhere (paper "
            "notices before the register), say so with --number-gap REASON: the gap is "
            "recorded with that reason"
        )
    gap = NumberGap(
        jurisdiction=pack.id,
        kind=kind,
        year=year,
        first=nxt,
        last=seq - 1,
        reason=said[:1000],
        recorded_by=who,
        recorded_at=datetime.now().astimezone(),
    )
    session.add(gap)
    session.flush()
    where = (Counter.jurisdiction == pack.id, Counter.kind == kind, Counter.year == year)
    session.execute(update(Counter).where(*where).values(last=seq))
    record(
        session, who, "number-gap", "number_gap", gap.id, {"numbers": unused, "reason": gap.reason}
    )


def gaps(session: Session) -> list[tuple[str, bool]]:
    """Every gap in every series: ("NOV-2026-0001 to NOV-2026-0499 (499 numbers): why",
    whether a reason is recorded), the unexplained ones said so."""
    # law.packs loads yaml (+40 ms): loaded on first use
    from docgen.law.packs import load_pack

    issued: dict[tuple[str, str, int], set[int]] = defaultdict(set)
    packs: dict[str, Pack] = {}
    for jurisdiction, kind, number in session.execute(
        select(Document.jurisdiction, Document.kind, Document.number)
    ):
        if jurisdiction not in packs:
            packs[jurisdiction] = load_pack(jurisdiction)
        place = sequence(packs[jurisdiction], kind, number)
        if place is not None:
            issued[(jurisdiction, kind, place[0])].add(place[1])
    reasons: dict[tuple[str, str, int], list[NumberGap]] = defaultdict(list)
    for gap in session.scalars(select(NumberGap).order_by(NumberGap.id)):
        reasons[(gap.jurisdiction, gap.kind, gap.year)].append(gap)
    out = []
    for series in sorted(issued):
        jurisdiction, kind, year = series
        fmt = number_format(packs[jurisdiction], kind)
        runs: list[tuple[int, int, str]] = []  # (first, last, why)
        for seq in range(1, max(issued[series])):
            if seq in issued[series]:
                continue
            why = next(
                (
                    f"{g.reason} (recorded by {g.recorded_by}, {g.recorded_at:%Y-%m-%d})"
                    for g in reasons[series]
                    if g.first <= seq <= g.last
                ),
                "unexplained",
            )
            if runs and runs[-1][1] == seq - 1 and runs[-1][2] == why:
                runs[-1] = (runs[-1][0], seq, why)
            else:
                runs.append((seq, seq, why))
        for first, last, why in runs:
            count = last - first + 1
            said = fmt.format(year=year, seq=first)
            if count > 1:
                said += f" to {fmt.format(year=year, seq=last)}"
            out.append((f"{said} ({count} number(s)): {why}", why != "unexplained"))
    return out
