"""Document numbers: the next per jurisdiction, kind and year, in the pack's format.

Gap-free: the counter row is locked (SQLite: the transaction began IMMEDIATE; PostgreSQL:
``SELECT ... FOR UPDATE``) and advanced in the transaction that inserts the document, so
a number is used exactly when its document is recorded; a failure or a crash before the
commit rolls both back.
"""

from __future__ import annotations

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


def _ensure_counter(session: Session, jurisdiction: str, kind: str, year: int) -> None:
    values = {"jurisdiction": jurisdiction, "kind": kind, "year": year, "last": 0}
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    session.execute(insert(Counter).values(**values).on_conflict_do_nothing())


def next_number(session: Session, pack: Pack, kind: str, year: int) -> str:
    """Take the next free number (inside the caller's write transaction)."""
    fmt = number_format(pack, kind)
    _ensure_counter(session, pack.id, kind, year)
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
