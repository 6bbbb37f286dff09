"""What `docgen worker` says when the database goes away and comes back.

One voice per outage: the parent process checks the database every few seconds (for
stalled jobs) and says once that the connection was lost, with its cause, and once that
it was regained, with how long it took (``Outage``). The worker processes reconnect on
their own and stay quiet about the same outage: without ``quiet_worker_logging`` the
libraries' warnings went to stderr as they came, a two-line warning from the connection
pool on every attempt and procrastinate's tracebacks besides.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator

POOL_LOGGER = "psycopg.pool"  # "error connecting in 'pool-1'" on every reconnection attempt


def _chain(err: BaseException) -> Iterator[BaseException]:
    """``err``, what it wraps (SQLAlchemy's ``orig``) and what caused it, once each."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [err]
    while todo:
        found = todo.pop()
        if found is None or id(found) in seen:
            continue
        seen.add(id(found))
        yield found
        orig = getattr(found, "orig", None)
        todo += [
            found.__context__,
            found.__cause__,
            orig if isinstance(orig, BaseException) else None,
        ]


def connection_error(err: BaseException) -> BaseException | None:
    """The lost or refused connection behind ``err`` (psycopg's OperationalError: refused,
    the server shutting down or gone mid-query), or None when ``err`` is something else."""
    # psycopg, asyncio, ssl take 93 ms to import: loaded on first use
    import psycopg

    for found in _chain(err):
        if isinstance(found, psycopg.OperationalError | ConnectionError):
            return found
    return None


def one_line(text: str) -> str:
    """libpq's messages run over lines ("...Connection refused\\n\\tIs the server
    running..."): the lines joined, so each message stays one line in the log."""
    return " ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def cause_of(err: BaseException) -> str:
    """The first line of what the driver said (SQLAlchemy's own wrapping left out)."""
    found = connection_error(err) or getattr(err, "orig", None) or err
    lines = str(found).strip().splitlines()
    return lines[0].strip() if lines else type(found).__name__


class Outage:
    """The parent's view of the database: ``failed`` after each check that could not
    reach it, ``answered`` after each that could. Each says something only when the
    state changes, so an outage is two lines however many checks it lasts."""

    def __init__(self, say: Callable[[str], None], clock: Callable[[], float] = time.monotonic):
        self.say, self.clock = say, clock
        self.since: float | None = None

    def failed(self, err: BaseException) -> None:
        if self.since is None:
            self.since = self.clock()
            self.say(
                f"database connection lost ({cause_of(err)}); the workers reconnect on "
                "their own once it is back"
            )

    def answered(self) -> None:
        if self.since is not None:
            lasted = self.clock() - self.since
            self.since = None
            self.say(f"database connection regained after {lasted:.1f} s")


class _OneLine(logging.Formatter):
    """``worker NAME: message`` on one line; an unexpected exception keeps its traceback
    (a bug to report), a connection error never gets this far (``_NotOutage``)."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def format(self, record: logging.LogRecord) -> str:
        line = f"worker {self.name}: {one_line(record.getMessage())}"
        if record.exc_info and record.exc_info[1] is not None:
            return line + "\n" + self.formatException(record.exc_info)
        return line


class _NotOutage(logging.Filter):
    """Leaves out the reports of a lost connection (the parent says it once)."""

    def filter(self, record: logging.LogRecord) -> bool:
        err = record.exc_info[1] if record.exc_info else None
        return err is None or connection_error(err) is None


def quiet_worker_logging(name: str) -> None:
    """Set up logging in a worker process: warnings and errors on stderr, one line each,
    prefixed with the worker's name; the pool's warning on every reconnection attempt
    quieted, and the libraries' reports of the lost connection left to the parent."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine(name))
    handler.addFilter(_NotOutage())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger(POOL_LOGGER).setLevel(logging.ERROR)
