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

Numbers are unique per jurisdiction: two municipalities sharing one register both have a
``CC-2026-0001`` (each pack's format is that municipality's practice, printed on its
documents, so docgen does not add a prefix of its own); a command given a number that
two jurisdictions hold asks for ``--jurisdiction``.
"""

from __future__ import annotations

import re
import string
import unicodedata

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from docgen.law.pack import Pack
from docgen.register.db import RegisterError
from docgen.register.models import Counter, Document


def number_format(pack: Pack, kind: str) -> str:
    fmt = pack.numbering.format_for(kind) if pack.numbering else None
    if fmt is None:
        raise RegisterError(
            f"the {pack.id} pack has no numbering.formats.{kind}; add one, or give the case a "
            "number"
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
        f"the {pack.id} pack's numbering.formats.{kind} ({fmt!r}) makes it; change the format"
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
    fmt = pack.numbering.format_for(kind) if pack.numbering else None
    if fmt is None:
        if not number:
            raise RegisterError("number: empty; leave it out and the register numbers the case")
        return allowed(number, pack, kind)
    example = fmt.format(year=year, seq=1)
    ref = pack.numbering.ref
    found = _pattern(fmt).fullmatch(number)
    if found is None:
        raise RegisterError(
            f"number: {typed!r} is not a {kind} number of {pack.id}; they are written like "
            f"{example} ({ref}); leave the number out and the register gives the next one"
        )
    if int(found["year"]) != year:
        raise RegisterError(
            f"number: {number} is numbered for {found['year']}, but this {kind} is issued in "
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
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    session.execute(insert(Counter).values(**values).on_conflict_do_nothing())


def next_number(session: Session, pack: Pack, kind: str, year: int) -> str:
    """Take the next free number (inside the caller's write transaction)."""
    fmt = number_format(pack, kind)
    allowed(fmt.format(year=year, seq=1), pack, kind)  # before the counter is touched
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
            break
    session.execute(update(Counter).where(*where).values(last=last))
    return number


def sequence_of(fmt: str, number: str) -> tuple[int, int] | None:
    """(year, sequence) of ``number`` written in format ``fmt``; None when it is not."""
    found = _pattern(fmt).fullmatch(normalize(number))
    return (int(found["year"]), int(found["seq"])) if found is not None else None
