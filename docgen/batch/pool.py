"""The batch pool: cases rendered by worker processes, each case's files written
atomically in input order under a name unique within the batch, then the manifest."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from docgen.batch.inputs import CaseInput
from docgen.batch.manifest import Report, write_manifest
from docgen.batch.worker import Job, Outcome, init_worker, render_case
from docgen.errors import DocgenError


class Namer:
    """File name stems unique within a batch: the first keeps its name, then -2, -3..."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, stem: str) -> str:
        candidate, n = stem, 1
        while candidate.lower() in self._taken:  # case-blind: macOS and Windows folders
            n += 1
            candidate = f"{stem}-{n}"
        self._taken.add(candidate.lower())
        return candidate


Listener = Callable[[Outcome], None]


def check_variant(variant: str | None) -> None:
    """An unknown PDF variant is refused before any worker starts."""
    from docgen.render.pdf import VARIANTS

    if variant is not None and variant not in VARIANTS:
        raise DocgenError(f"unknown PDF variant {variant!r}; choose from {', '.join(VARIANTS)}")


def default_jobs() -> int:
    return os.cpu_count() or 1


def _context() -> Any:
    """Workers start from a clean fork server (never a fork of a process running Pango)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def run(
    kind: str,
    cases: Sequence[CaseInput],
    out: str | Path,
    formats: Sequence[str] = ("pdf", "docx", "html"),
    jobs: int | None = None,
    pdf_variant: str | None = None,
    on_outcome: Listener | None = None,
    force: bool = False,
) -> Report:
    """Render ``cases`` into ``out`` with ``jobs`` worker processes; see the module docstring.

    ``on_outcome`` hears of every case as it finishes (in completion order), for progress.
    A different file already in ``out`` under a case's name fails that case unless ``force``.
    On KeyboardInterrupt the workers are stopped, the manifest lists what was written,
    and the interrupt is raised again.
    """
    from docgen.documents import get_kind

    get_kind(kind)  # an unknown kind fails before any worker starts
    check_variant(pdf_variant)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    job = Job(kind, tuple(formats), pdf_variant)
    workers = max(1, min(jobs or default_jobs(), len(cases) or 1))
    report = Report(total=len(cases))
    writer = _OrderedWriter(out, job, report, force)
    start = time.perf_counter()
    executor = ProcessPoolExecutor(workers, _context(), init_worker, (job,))
    try:
        futures: list[Future[Outcome]] = [
            executor.submit(render_case, i, case) for i, case in enumerate(cases)
        ]
        for index, future in _as_completed(futures):
            try:
                outcome = future.result()
            except BrokenProcessPool:
                outcome = Outcome(index, cases[index].source)
                outcome.error = f"{cases[index].source}: a worker process died while rendering"
            if on_outcome is not None:
                on_outcome(outcome)
            writer.add(outcome)
    except KeyboardInterrupt:
        report.interrupted = True
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        report.seconds = time.perf_counter() - start
        write_manifest(out, kind, report)
    return report


def _as_completed(futures: list[Future[Outcome]]) -> Iterable[tuple[int, Future[Outcome]]]:
    from concurrent.futures import as_completed

    index_of = {id(f): i for i, f in enumerate(futures)}
    for future in as_completed(futures):
        yield index_of[id(future)], future


class _OrderedWriter:
    """Writes outcomes in input order, so names (and their -2 suffixes) never depend on timing."""

    def __init__(self, out: Path, job: Job, report: Report, force: bool = False):
        self.out, self.job, self.report, self.force = out, job, report, force
        self.pending: dict[int, Outcome] = {}
        self.next = 0
        self.names = Namer()

    def add(self, outcome: Outcome) -> None:
        self.pending[outcome.index] = outcome
        while self.next in self.pending:
            self._write(self.pending.pop(self.next))
            self.next += 1

    def _write(self, outcome: Outcome) -> None:
        from docgen.errors import OutputExists
        from docgen.render.output import write_files

        report = self.report
        report.warnings += [(outcome.source, w) for w in outcome.warnings]
        if outcome.error is not None:
            report.failures.append((outcome.source, outcome.error))
            return
        stem = self.names.take(outcome.stem)
        blobs = {self.out / f"{stem}.{fmt}": outcome.blobs[fmt] for fmt in self.job.formats}
        try:
            write_files(blobs, self.force)
        except OutputExists as err:
            report.failures.append((outcome.source, f"{outcome.source}: {err}"))
            return
        for path, data in blobs.items():
            fmt = path.suffix[1:]
            report.files.append(
                {
                    "file": path.name,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "kind": self.job.kind,
                    "format": fmt,
                    "source": outcome.source,
                }
            )
        report.documents += 1
        for fmt, seconds in outcome.seconds.items():
            report.timings.setdefault(fmt, []).append(seconds)
        for fmt, seconds in outcome.cpu_seconds.items():
            report.cpu_timings.setdefault(fmt, []).append(seconds)
