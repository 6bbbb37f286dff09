"""The queue's settings and its database schema. The queue lives in the register's database
(``DOCGEN_DATABASE_URL``), in the schema ``docgen_queue`` that ``docgen register
upgrade`` installs; only PostgreSQL can hold it.

Settings come from the environment, the same on every machine:

- ``DOCGEN_QUEUE_HEARTBEAT``: seconds between a worker's heartbeats (default 10); a worker
  silent for three of them is taken for dead and its job is given to another.
- ``DOCGEN_QUEUE_ATTEMPTS``: how many times a job is tried when the machine fails it
  (default 5); ``DOCGEN_QUEUE_BACKOFF``: the base of the wait between tries, in seconds
  (default 2: 2, 4, 8, 16 s).
- ``DOCGEN_QUEUE_STORE_MB``: the most the result store may hold (default 1024 MB).
- ``DOCGEN_QUEUE_PHOTOS_MB``: the most a job may carry of the photos its case names (a
  desk draft's, or those beside a case file `docgen batch --queue --issue` issues;
  default 32 MB, before base64 makes a third more of them): they are stored in the job
  itself (procrastinate's ``args``, a jsonb column) until a worker has issued it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docgen.environ import number
from docgen.errors import DocgenError, OutputUsage

SCHEMA = "docgen_queue"  # see register/migrations/versions/0002_queue.py
DEFAULT_QUEUE = "docgen"


class QueueUsage(OutputUsage):
    """A queue asked for where there can be none (a SQLite register): exit code 2."""


class QueueError(DocgenError):
    """The queue cannot do what was asked (exit code 1); the message says why."""


def _number(name: str, default: float, low: float, unit: str = "") -> float:
    return number(name, default, low, unit=unit, error=QueueError)


@dataclass(frozen=True)
class Settings:
    heartbeat: float = 10.0
    attempts: int = 5
    backoff: int = 2
    store_bytes: int = 1024 * 2**20
    photos_bytes: int = 32 * 2**20

    @property
    def stalled_after(self) -> float:
        """Seconds without a heartbeat after which a worker is taken for dead."""
        return 3 * self.heartbeat

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            heartbeat=_number("DOCGEN_QUEUE_HEARTBEAT", 10.0, 0.2, "seconds"),
            attempts=int(_number("DOCGEN_QUEUE_ATTEMPTS", 5, 1)),
            backoff=int(_number("DOCGEN_QUEUE_BACKOFF", 2, 0, "seconds")),
            store_bytes=int(_number("DOCGEN_QUEUE_STORE_MB", 1024, 0, "MB") * 2**20),
            photos_bytes=int(_number("DOCGEN_QUEUE_PHOTOS_MB", 32, 0, "MB") * 2**20),
        )


def queue_url(url: str | None = None) -> str:
    """The register's URL, which must be PostgreSQL's: a SQLite file cannot hold a queue."""
    # register.storage.db loads sqlalchemy, asyncio, ssl (+270 ms): loaded on first use
    from docgen.register.storage.db import default_url

    url = url or default_url()
    if not url.startswith(("postgresql", "postgres:")):
        raise QueueUsage(
            "a queue needs the register on PostgreSQL (set DOCGEN_DATABASE_URL to "
            "postgresql://USER@HOST/DB and run `docgen register upgrade`); this register is "
            "a SQLite file, for one machine: leave out --queue and the batch renders here"
        )
    return url


def conninfo(url: str) -> str:
    """A libpq URL for psycopg (without SQLAlchemy's ``+psycopg``)."""
    scheme, rest = url.split("://", 1)
    return f"postgresql://{rest}" if scheme.startswith("postgres") else url


def connection_options() -> dict[str, Any]:
    """What every queue connection needs: procrastinate's tables in its search path."""
    return {"options": f"-c search_path={SCHEMA}"}
