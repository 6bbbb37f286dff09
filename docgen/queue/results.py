"""The result store: what a job made, kept in the database until the client reads it.

One row per (batch, key): the file name stem, warnings, the case's error if it could not
be rendered, timings, and ``done``; one row per format with the bytes and their SHA-256.
A result is stored whole in one transaction, or not at all. While a job is being
retried, ``cause`` holds the last fault of the machine, for the report if it never
succeeds. The store holds at most ``Settings.store_bytes``: a result that would pass it
is refused with StoreFull, a fault of the machine (retried, then reported).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, text

from docgen.queue.app import SCHEMA, QueueError

STORE_LOCK = 4242077  # advisory lock: one result stored at a time against the size limit
KEEP_HOURS = 24  # results nobody came back for (a client killed outright) are removed


class StoreFull(QueueError):
    """The result store is at its limit (DOCGEN_QUEUE_STORE_MB)."""


@dataclass
class Result:
    """One job's result as the client reads it."""

    key: str
    stem: str
    warnings: list[str]
    error: str | None
    number: str | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)


class Store:
    def __init__(self, engine: Engine, limit: int):
        self.engine, self.limit = engine, limit

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    def done(self, batch: str, key: str) -> bool:
        with self.engine.connect() as conn:
            return bool(
                conn.execute(
                    text(f"SELECT done FROM {SCHEMA}.results WHERE batch = :b AND key = :k"),
                    {"b": batch, "k": key},
                ).scalar()
            )

    def store(self, batch: str, key: str, outcome: Any) -> None:
        """Store ``outcome`` (a docgen.batch.Outcome) whole; a second store of the same
        result changes nothing (the first stands)."""
        size = sum(len(data) for data in outcome.blobs.values())
        with self._begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": STORE_LOCK})
            held = conn.execute(
                text(f"SELECT coalesce(sum(size), 0) FROM {SCHEMA}.result_files")
            ).scalar_one()
            if size and held + size > self.limit:
                raise StoreFull(
                    f"the queue's result store is full: it holds {held / 2**20:.1f} MB and "
                    f"this result needs {size / 2**20:.2f} MB more than the limit of "
                    f"{self.limit / 2**20:g} MB (DOCGEN_QUEUE_STORE_MB); raise the limit or "
                    "let the clients read what is waiting"
                )
            stored = conn.execute(
                text(
                    f"INSERT INTO {SCHEMA}.results AS r (batch, key, stem, number, warnings, "
                    "error, seconds, cpu_seconds, done) VALUES (:b, :k, :stem, :number, "
                    ":warnings, :error, :seconds, :cpu, true) ON CONFLICT (batch, key) DO "
                    "UPDATE SET stem = excluded.stem, number = excluded.number, "
                    "warnings = excluded.warnings, error = excluded.error, "
                    "seconds = excluded.seconds, cpu_seconds = excluded.cpu_seconds, done = true "
                    "WHERE NOT r.done RETURNING key"
                ),
                {
                    "b": batch,
                    "k": key,
                    "stem": outcome.stem,
                    "number": outcome.number,
                    "warnings": json.dumps(outcome.warnings),
                    "error": outcome.error,
                    "seconds": json.dumps(outcome.seconds),
                    "cpu": json.dumps(outcome.cpu_seconds),
                },
            ).scalar()
            if stored is None:
                return  # stored already (by an earlier try of the same job)
            for fmt, data in outcome.blobs.items():
                conn.execute(
                    text(
                        f"INSERT INTO {SCHEMA}.result_files (batch, key, format, sha256, size, "
                        "data) VALUES (:b, :k, :f, :sha, :size, :data)"
                    ),
                    {
                        "b": batch,
                        "k": key,
                        "f": fmt,
                        "sha": hashlib.sha256(data).hexdigest(),
                        "size": len(data),
                        "data": data,
                    },
                )

    def note_cause(self, batch: str, key: str, cause: str) -> None:
        """Remember why the machine failed a job (shown if no later try succeeds)."""
        with self._begin() as conn:
            conn.execute(
                text(
                    f"INSERT INTO {SCHEMA}.results (batch, key, cause) VALUES (:b, :k, :c) "
                    "ON CONFLICT (batch, key) DO UPDATE SET cause = excluded.cause"
                ),
                {"b": batch, "k": key, "c": cause},
            )

    def causes(self, batch: str, keys: list[str]) -> dict[str, str]:
        if not keys:
            return {}
        query = text(
            f"SELECT key, cause FROM {SCHEMA}.results WHERE batch = :b AND key IN :keys "
            "AND cause IS NOT NULL"
        ).bindparams(bindparam("keys", expanding=True))
        with self.engine.connect() as conn:
            return {key: cause for key, cause in conn.execute(query, {"b": batch, "keys": keys})}

    def causes_of(self, batch: str) -> list[str]:
        """Every cause of the machine noted for the batch's jobs."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    text(
                        f"SELECT cause FROM {SCHEMA}.results WHERE batch = :b AND cause IS NOT NULL"
                    ),
                    {"b": batch},
                ).scalars()
            )

    def finished(self, batch: str, limit: int = 20) -> list[Result]:
        """Some of the batch's stored results, each with its files, checked against their
        SHA-256 (a result whose bytes do not match is an error, never written)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    f"SELECT key, stem, warnings, error, number, seconds, cpu_seconds FROM "
                    f"{SCHEMA}.results WHERE batch = :b AND done ORDER BY created_at LIMIT :n"
                ),
                {"b": batch, "n": limit},
            ).all()
            results = []
            for key, stem, warnings, error, number, seconds, cpu in rows:
                result = Result(key, stem, list(warnings), error, number, dict(seconds), dict(cpu))
                for fmt, sha, data in conn.execute(
                    text(
                        f"SELECT format, sha256, data FROM {SCHEMA}.result_files "
                        "WHERE batch = :b AND key = :k"
                    ),
                    {"b": batch, "k": key},
                ):
                    data = bytes(data)
                    if hashlib.sha256(data).hexdigest() != sha:
                        raise QueueError(f"result {key} ({fmt}): its bytes do not match SHA-256")
                    result.blobs[fmt] = data
                results.append(result)
            return results

    def forget(self, batch: str, keys: list[str] | None = None) -> None:
        """Remove results read (or, with no keys, every result of the batch)."""
        where = "batch = :b" + (" AND key IN :keys" if keys is not None else "")
        query = text(f"DELETE FROM {SCHEMA}.results WHERE {where}")
        params: dict[str, Any] = {"b": batch}
        if keys is not None:
            if not keys:
                return
            query = query.bindparams(bindparam("keys", expanding=True))
            params["keys"] = keys
        with self._begin() as conn:
            conn.execute(query, params)

    def prune(self, hours: float = KEEP_HOURS) -> int:
        """Remove results older than ``hours`` (their client is gone)."""
        with self._begin() as conn:
            return conn.execute(
                text(
                    f"DELETE FROM {SCHEMA}.results "
                    "WHERE created_at < now() - make_interval(secs => :s)"
                ),
                {"s": hours * 3600},
            ).rowcount

    def size(self) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    text(f"SELECT coalesce(sum(size), 0) FROM {SCHEMA}.result_files")
                ).scalar_one()
            )
