"""A database that fails or goes away while a command records something (PostgreSQL
stopped by an administrator, a network gone): the clerk is told whether it was recorded.

Before the commit nothing was. At the commit the register is asked again, when it
answers, whether the document being issued is there (by its request's content hash); when
it cannot be asked, the answer is "not known", with why doing it again is safe: an issue
of the same case gives its number back, a service or a lifting already recorded is
refused, never recorded twice."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from docgen.faults import pause
from docgen.register.matter import issuing
from docgen.register.storage import db
from docgen.register.storage.db import RegisterError, guarded


@dataclass
class Recording:
    """What the transaction records: ``what`` in words (None: the document it issues);
    ``again``, what to do once the register answers, and ``safe``, why doing it again is
    safe ({number}: the number of the document issued). Set in the transaction: the request
    of the document it issues, and that document's number."""

    what: str | None
    again: str
    safe: str
    request: issuing.Request | None = None
    number: str | None = None
    at_commit: bool = False

    def issuing(self, request: issuing.Request, number: str) -> None:
        self.request, self.number = request, number


@contextmanager
def recording(
    reg: Any, again: str, safe: str, what: str | None = None
) -> Iterator[tuple[Session, Recording]]:
    """A write transaction on ``reg``; a database failure in it is told as nothing recorded,
    recorded (issuing.NotWritten: its files to write with export), or not known."""
    held = Recording(what, again, safe)
    try:
        with guarded(reg.url), db.write_session(reg.engine) as session:
            yield session, held
            held.at_commit = True  # what follows is the commit
            pause("committing")
    except db.DatabaseFailure as err:
        raise lost(reg, held, err) from None


def lost(reg: Any, held: Recording, err: Exception) -> Exception:
    if isinstance(err, db.Damaged):
        return err  # says itself that nothing was recorded, and that a backup is the cure
    nothing = RegisterError(
        f"nothing was recorded ({err}); no number was used: {held.again} once the register answers"
    )
    if not held.at_commit:
        return nothing
    if held.request is not None:
        try:
            with guarded(reg.url), db.read_session(reg.engine) as session:
                row = issuing.issued_before(session, issuing.source_hash(held.request))
        except db.DatabaseFailure:
            pass  # not answered: not known
        else:
            if row is None:
                return nothing
            return issuing.NotWritten(row.number, f"the register went away ({err})")
    subject = " with ".join(filter(None, (held.what, held.number)))
    return RegisterError(
        f"not known whether {subject} was recorded: the register went away while "
        f"committing it ({err}); once it answers, {held.again}: "
        + held.safe.format(number=held.number)
    )
