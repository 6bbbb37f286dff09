"""The batch pool: cases rendered by worker processes, each case's files written
atomically in input order under a name unique within the batch, then the manifest.

One case per worker is in flight, and a case's bytes are dropped once its files are
written, so the parent's memory does not grow with the batch. A worker that
dies (killed by the system, out of memory) or runs past the render's time limit fails only
the case it was rendering, and a fresh one takes its place: the workers are the desk's
rendering processes (docgen.render.processes), each serving one case at a time under
the same memory and time limits. A filesystem failure while writing (a
full disk) stops the batch: the manifest says ``complete: false`` and lists every case
not written, with the cause.

Issuing (``--issue``), the register has the last word: however a batch ends (finished, a
full disk, interrupted), the cases not written are looked up in the register before the
report and manifest are made, and one it holds is "recorded as NUMBER; files not
written: CAUSE" (``Report.recorded``), listed with its number, never "failed": a
``--resume`` writes its files (the register gives the same document again). A case
changed since it was issued is refused on resume, naming its number: a changed notice
is a correction (``docgen supersede``), never a second number for one violation.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import closing
from multiprocessing.connection import wait
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from docgen.batch.guard import capped_jobs, folder_lock, signals_as_interrupt
from docgen.batch.inputs import CaseInput
from docgen.batch.manifest import (
    MANIFEST,
    Journal,
    Report,
    case_digest,
    own_files,
    previous_entries,
    previous_numbers,
    still_whole,
    write_manifest,
)
from docgen.batch.worker import Job, Outcome, init_worker, render_case
from docgen.errors import DocgenError, OutputError, OutputExists, OutputUsage
from docgen.queue.app import queue_url
from docgen.render import ENGINES, processes
from docgen.render.output import make_folder, write_files
from docgen.render.processes import Renderer, RendererDied, RendererLost, Start
from docgen.render.variants import check_variant

Listener = Callable[[Outcome], None]
Render = Callable[[int, CaseInput], Outcome]


class _Stop(Exception):
    """Writing failed for a reason every later case would meet too (disk full...)."""


class Interrupted(KeyboardInterrupt):
    """The batch was interrupted (Ctrl-C, SIGTERM, SIGHUP); ``report`` says what it left."""

    def __init__(self, report: Report):
        super().__init__()
        self.report = report


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
    lists what was written (and, issuing, what was recorded), and :class:`Interrupted`
    is raised with the report.
    """
    # documents and documents.pipeline load pydantic, annotated_types (+150 ms): loaded on first use
    from docgen.documents import get_kind
    from docgen.documents.pipeline import check_options

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
        queue_url()  # a SQLite register has no queue: a usage error before anything is done
    out = Path(out)
    make_folder(out)
    asked: dict[str, str] = {}  # issuing: each case's request, to ask the register by
    report = Report(total=len(cases))
    report.warnings += [(case.source, case.warning) for case in cases if case.warning]
    with folder_lock(out), signals_as_interrupt():
        writer = _OrderedWriter(out, job, report, force, Journal(out, kind))
        previous = previous_entries(out, kind) if resume else {}
        issued = previous_numbers(out, kind) if resume and issue else {}
        todo: list[tuple[int, CaseInput]] = []
        for index, case in enumerate(cases):
            digest = "" if case.error else case_digest(case)
            kept = previous.get(case.source, [])
            if kept and still_whole(out, kept, job.formats, digest):
                writer.keep(index, kept)
            elif digest and case.source in issued and issued[case.source][1] != digest:
                refused = Outcome(index, case.source, error=changed(case, issued))
                if on_outcome is not None:
                    on_outcome(refused)
                writer.add(refused)
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
            # queue.client loads pydantic, annotated_types (+190 ms): loaded on first use
            from docgen.queue.client import outcomes as queued

            stream = queued(todo, job, queue, by=by, asked=asked)
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
            _reconcile(report, todo, writer, asked, "the batch was interrupted")
            raise Interrupted(report) from None
        except _Stop as stop:
            report.stopped = str(stop)
            report.not_written = [case.source for _, case in todo if case.source not in writer.done]
            _reconcile(report, todo, writer, asked, report.stopped)
        finally:
            report.seconds = time.perf_counter() - start
            digests = {case.source: writer.digests.get(index, "") for index, case in todo}
            try:
                _finish(out, kind, report, writer.journal, digests)
            except OutputError as err:
                if report.complete:
                    raise
                report.warnings.append((MANIFEST, f"not written, old one removed: {err}"))
    return report


def changed(case: CaseInput, issued: dict[str, tuple[str, str]]) -> str:
    """Why a case changed since its batch issued it is refused on resume."""
    number = issued[case.source][0]
    return (
        f"{case.source}: changed since it was issued as {number}; the register keeps {number} "
        f"as issued and a second number would charge the violation twice: issue the changed "
        f"case as a correction with `docgen supersede {number} {case.source}`, or put the "
        "case back as it was"
    )


def _reconcile(
    report: Report,
    todo: list[tuple[int, CaseInput]],
    writer: _OrderedWriter,
    asked: dict[str, str],
    cause: str,
) -> None:
    """Issuing: the cases not written that the register holds are recorded, with their
    numbers (see the module docstring); the others stay as they are."""
    left = {case.source: asked[case.source] for _, case in todo if case.source in asked}
    left = {source: h for source, h in left.items() if source not in writer.done}
    if not left:
        return
    # queue.client loads pydantic, annotated_types, typing_inspection (+190 ms): loaded on first use
    from docgen.queue.client import numbers_recorded

    try:
        numbers = numbers_recorded(left)
    except (DocgenError, SQLAlchemyError) as err:  # the register is gone too: say so
        report.warnings.append(
            ("register", f"not asked what the cases not written were recorded as ({err})")
        )
        return
    for source, number in sorted(numbers.items()):
        report.recorded.append((source, number, cause))
        writer.done.add(source)
    report.not_written = [source for source in report.not_written if source not in numbers]


def _finish(
    out: Path, kind: str, report: Report, journal: Journal, digests: dict[str, str]
) -> None:
    """The final manifest, then the journal it replaces removed. On a full disk the journal
    gives its room to the manifest (which says all it said, and more) for a second try."""
    try:
        write_manifest(out, kind, report, digests=digests)
    except OutputError:
        journal.end(finished=True)
        write_manifest(out, kind, report, digests=digests)
    journal.end(finished=True)


def outcomes(
    todo: Iterable[tuple[int, CaseInput]], workers: int, job: Job, render: Render = render_case
) -> Generator[Outcome, None, None]:
    """Every case's Outcome, in completion order, each rendered by one of ``workers``
    rendering processes started from a fork server with the engines loaded (each warms up
    on the job's kind, and ends with the batch). A case whose process dies or runs out of
    its time or memory fails alone (its process replaced); the other cases go on."""
    queue = deque(todo)
    renderers = [Renderer(Start(tuple(ENGINES), init_worker, (job,))) for _ in range(workers)]
    busy: dict[Renderer, tuple[int, CaseInput, float]] = {}  # its case, and its deadline

    def handed_out() -> list[Outcome]:
        """The next cases, one to each free renderer; those no renderer would take."""
        refused = []
        for renderer in renderers:
            while renderer not in busy and queue:
                index, case = queue.popleft()
                why = _sent(renderer, render, index, case)
                if why is None:
                    busy[renderer] = (index, case, time.monotonic() + processes.seconds())
                else:
                    refused.append(_failed(index, case, why))
        return refused

    try:
        yield from handed_out()
        while busy:
            nearest = min(deadline for _, _, deadline in busy.values())
            ready = wait([r.pipe for r in busy], timeout=max(0.0, nearest - time.monotonic()))
            finished = []
            for renderer, (index, case, deadline) in list(busy.items()):
                if renderer.pipe in ready:
                    del busy[renderer]
                    finished.append(_received(renderer, index, case))
                elif time.monotonic() >= deadline:
                    del busy[renderer]
                    renderer.replace()
                    took = f"it took longer than {processes.seconds():g} seconds, and was stopped"
                    finished.append(_failed(index, case, took))
            finished += handed_out()  # the next cases go out before these are written
            yield from finished
    finally:
        for renderer in renderers:
            renderer.end(kill=True)


def _sent(renderer: Renderer, render: Render, index: int, case: CaseInput) -> str | None:
    """``case`` handed to ``renderer`` (to its replacement, once, if it had died unseen);
    why not, if neither took it."""
    for _ in range(2):
        try:
            renderer.send(render, (index, case))
            return None
        except RendererDied:
            continue  # dead before the case reached it: replaced, nothing of it done
        except RendererLost as lost:
            return lost.why
    return "the process making it stopped before it began"


def _received(renderer: Renderer, index: int, case: CaseInput) -> Outcome:
    try:
        outcome: Outcome = renderer.receive()
    except RendererDied:
        return _failed(
            index, case, "the worker process rendering this case died (killed by the "
            "system, perhaps out of memory)"
        )  # fmt: skip
    except RendererLost as lost:
        return _failed(index, case, lost.why)
    return outcome


def _failed(index: int, case: CaseInput, why: str) -> Outcome:
    return Outcome(index, case.source, error=f"{case.source}: {why}; the other cases went on")


class _OrderedWriter:
    """Writes outcomes in input order, so names (and their -2 suffixes) never depend on timing."""

    def __init__(self, out: Path, job: Job, report: Report, force: bool, journal: Journal):
        self.out, self.job, self.report, self.force = out, job, report, force
        self.journal = journal
        self.pending: dict[int, Outcome | None] = {}
        self.next = 0
        # api loads pydantic, annotated_types, typing_inspection (+160 ms): loaded on first use
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
        report = self.report
        report.warnings += [(outcome.source, w) for w in outcome.warnings]
        if outcome.unwritten is not None and outcome.number is not None:
            report.recorded.append((outcome.source, outcome.number, outcome.unwritten))
            self.done.add(outcome.source)
            return
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
