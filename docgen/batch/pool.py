"""The batch pool: cases rendered by worker processes, each case's files written
atomically in input order under a name unique within the batch, then the manifest.

At most two cases per worker are in flight, and a case's bytes are dropped once its
files are written, so the parent's memory does not grow with the batch. A worker that
dies (killed by the system, out of memory) breaks the pool: the cases that were in flight
are rendered again one at a time in a pool of their own, so only the case that kills its
worker fails, and a new pool takes up the rest. A filesystem failure while writing (a
full disk) stops the batch: the manifest says ``complete: false`` and lists every case
not written, with the cause.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from pathlib import Path
from typing import Any

from docgen.batch.guard import capped_jobs, folder_lock, signals_as_interrupt
from docgen.batch.inputs import CaseInput
from docgen.batch.manifest import (
    MANIFEST,
    Journal,
    Report,
    case_digest,
    own_files,
    previous_entries,
    still_whole,
    write_manifest,
)
from docgen.batch.worker import Job, Outcome, init_worker, render_case
from docgen.errors import OutputError, OutputExists, OutputUsage

Listener = Callable[[Outcome], None]
Render = Callable[[int, CaseInput], Outcome]


def _context() -> Any:
    """Workers start from a clean fork server (never a fork of a process running Pango)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class _Stop(Exception):
    """Writing failed for a reason every later case would meet too (disk full...)."""


def run(
    kind: str,
    cases: Sequence[CaseInput],
    out: str | Path,
    formats: Sequence[str] = ("pdf", "docx", "html"),
    jobs: int | None = None,
    pdf_variant: str | None = None,
    on_outcome: Listener | None = None,
    force: bool = False,
    resume: bool = False,
    layout: str | None = None,
    review: bool = False,
    queue: str | None = None,
    issue: bool = False,
    by: str | None = None,
) -> Report:
    """Render ``cases`` into ``out`` with ``jobs`` worker processes; see the module docstring.

    ``on_outcome`` hears of every case as it finishes (in completion order), for progress.
    A different file already in ``out`` under a case's name fails that case unless ``force``.
    ``resume``: cases whose files the last manifest lists, unchanged, for the same case
    file, are kept as they are; only the others are rendered. ``layout`` and ``review``
    are the render options, for every case. ``queue``: the cases are rendered by workers
    through that queue on the register's PostgreSQL (docgen.queue), not by local processes.
    ``issue`` (with ``queue`` only): each case is issued into the register, numbered and
    recorded (by ``by``, or the user), and its files are the register's.
    On KeyboardInterrupt (Ctrl-C, SIGTERM, SIGHUP) the workers are stopped, the manifest
    lists what was written, and the interrupt is raised again.
    """
    from docgen.documents import get_kind
    from docgen.documents.base import check_options
    from docgen.render.formats import check_variant
    from docgen.render.output import make_folder

    job = Job(kind, tuple(formats), pdf_variant, layout=layout, review=review, issue=issue)
    if issue and (queue is None or layout is not None or review):
        raise OutputUsage(
            "--issue issues through the queue (--queue), with the register's own layout: "
            "--layout and --review are for drafts"
        )
    # An unknown kind or variant, or an option the kind cannot honour, fails before any
    # worker starts.
    check_options(get_kind(kind), job.options())
    check_variant(pdf_variant)
    if queue is not None:
        from docgen.queue.app import queue_url

        queue_url()  # a SQLite register has no queue: a usage error before anything is done
    out = Path(out)
    make_folder(out)
    report = Report(total=len(cases))
    report.warnings += [(case.source, case.warning) for case in cases if case.warning]
    with folder_lock(out), signals_as_interrupt():
        writer = _OrderedWriter(out, job, report, force, Journal(out, kind))
        previous = previous_entries(out, kind) if resume else {}
        todo: list[tuple[int, CaseInput]] = []
        for index, case in enumerate(cases):
            digest = "" if case.error else case_digest(case)
            kept = previous.get(case.source, [])
            if kept and still_whole(out, kept, job.formats, digest):
                writer.keep(index, kept)
            else:
                todo.append((index, case))
                writer.digests[index] = digest
                writer.own[case.source] = own_files(out, kept)
        if queue is None:
            workers, notice = capped_jobs(jobs, len(todo))
            if notice:
                report.warnings.append(("-j", notice))
            stream = outcomes(todo, workers, job)
        else:
            from docgen.queue.client import outcomes as queued

            stream = queued(todo, job, queue, by=by)
        write_manifest(out, kind, report, finished=False)  # last run's no longer stands
        writer.journal.begin(report.files)  # the cases kept, then each case as written
        start = time.perf_counter()
        try:
            with closing(stream):
                for outcome in stream:
                    if on_outcome is not None:
                        on_outcome(outcome)
                    writer.add(outcome)
        except KeyboardInterrupt:
            report.interrupted = True
            raise
        except _Stop as stop:
            report.stopped = str(stop)
            report.not_written = [case.source for _, case in todo if case.source not in writer.done]
        finally:
            report.seconds = time.perf_counter() - start
            try:
                _finish(out, kind, report, writer.journal)
            except OutputError as err:
                if report.complete:
                    raise
                report.warnings.append((MANIFEST, f"not written, old one removed: {err}"))
    return report


def _finish(out: Path, kind: str, report: Report, journal: Journal) -> None:
    """The final manifest, then the journal it replaces removed. On a full disk the journal
    gives its room to the manifest (which says all it said, and more) for a second try."""
    try:
        write_manifest(out, kind, report)
    except OutputError:
        journal.end(finished=True)
        write_manifest(out, kind, report)
    journal.end(finished=True)


def _pool(workers: int, job: Job) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(workers, _context(), init_worker, (job,))


def outcomes(
    todo: Iterable[tuple[int, CaseInput]], workers: int, job: Job, render: Render = render_case
) -> Iterator[Outcome]:
    """Every case's Outcome, in completion order, with at most two cases per worker in
    flight. When a worker dies, the cases in flight are retried one at a time, alone."""
    queue = deque(todo)
    executor = _pool(workers, job)
    in_flight: dict[Future[Outcome], tuple[int, CaseInput]] = {}
    try:
        while queue or in_flight:
            while queue and len(in_flight) < 2 * workers:
                index, case = queue.popleft()
                in_flight[executor.submit(render, index, case)] = (index, case)
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            suspects: list[tuple[int, CaseInput]] = []
            for future in done:
                index, case = in_flight.pop(future)
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    suspects.append((index, case))
                    continue
                yield outcome
            if suspects:
                suspects += in_flight.values()  # a broken pool fails every case it held
                in_flight.clear()
                executor.shutdown(wait=True, cancel_futures=True)
                yield from _one_by_one(sorted(suspects, key=lambda item: item[0]), job, render)
                executor = _pool(workers, job)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _one_by_one(
    suspects: list[tuple[int, CaseInput]], job: Job, render: Render
) -> Iterator[Outcome]:
    """Each case alone in a one-worker pool: a case that kills its worker fails alone."""
    executor: ProcessPoolExecutor | None = None
    try:
        for index, case in suspects:
            executor = executor or _pool(1, job)
            try:
                yield executor.submit(render, index, case).result()
            except BrokenProcessPool:
                executor.shutdown(wait=True)
                executor = None
                yield Outcome(
                    index,
                    case.source,
                    error=f"{case.source}: the worker process rendering this case died "
                    "(killed by the system, perhaps out of memory); the other cases went on",
                )
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


class _OrderedWriter:
    """Writes outcomes in input order, so names (and their -2 suffixes) never depend on timing."""

    def __init__(self, out: Path, job: Job, report: Report, force: bool, journal: Journal):
        self.out, self.job, self.report, self.force = out, job, report, force
        self.journal = journal
        self.pending: dict[int, Outcome | None] = {}
        self.next = 0
        from docgen.api import UniqueStems

        self.names = UniqueStems()
        self.digests: dict[int, str] = {}
        self.own: dict[str, set[str]] = {}  # files a resumed case may replace: its own
        self.done: set[str] = set()  # sources handled (written, kept or failed)

    def keep(self, index: int, entries: list[dict[str, str]]) -> None:
        """A case whose files a resumed batch keeps: its names stay taken, its entries stand."""
        for entry in entries:
            self.names.take(Path(entry["file"]).stem)
        self.report.files += entries
        self.report.resumed += 1
        self.done.add(entries[0]["source"])
        self.pending[index] = None
        self._drain()

    def add(self, outcome: Outcome) -> None:
        self.pending[outcome.index] = outcome
        self._drain()

    def _drain(self) -> None:
        while self.next in self.pending:
            outcome = self.pending.pop(self.next)
            if outcome is not None:
                self._write(outcome)
            self.next += 1

    def _write(self, outcome: Outcome) -> None:
        from docgen.render.output import write_files

        report = self.report
        report.warnings += [(outcome.source, w) for w in outcome.warnings]
        if outcome.error is not None:
            report.failures.append((outcome.source, outcome.error))
            self.done.add(outcome.source)
            return
        stem = self.names.take(outcome.stem)
        blobs = {self.out / f"{stem}.{fmt}": outcome.blobs[fmt] for fmt in self.job.formats}
        blobs |= {
            self.out / f"{stem}-review.{fmt}": data for fmt, data in outcome.review_blobs.items()
        }
        outcome.blobs = outcome.review_blobs = {}  # the parent keeps no bytes once written
        own = self.own.get(outcome.source, set())
        force = self.force or all(p.name in own or not p.exists() for p in blobs)
        try:
            write_files(blobs, force)
        except OutputExists as err:
            report.failures.append((outcome.source, f"{outcome.source}: {err}"))
            self.done.add(outcome.source)
            return
        except OutputError as err:
            raise _Stop(str(err)) from None
        entries = []
        for path, data in blobs.items():
            entry = {
                "file": path.name,
                "sha256": hashlib.sha256(data).hexdigest(),
                "kind": self.job.kind,
                "format": path.suffix[1:],
                "source": outcome.source,
                "case_sha256": self.digests.get(outcome.index, ""),
            }
            if outcome.number is not None:
                entry["number"] = outcome.number  # issued: the register's record of it
            entries.append(entry)
        report.files += entries
        try:
            self.journal.add(entries)
        except OutputError as err:
            raise _Stop(str(err)) from None
        self.done.add(outcome.source)
        report.documents += 1
        for fmt, seconds in outcome.seconds.items():
            report.timings.setdefault(fmt, []).append(seconds)
        for fmt, seconds in outcome.cpu_seconds.items():
            report.cpu_timings.setdefault(fmt, []).append(seconds)
