"""`docgen batch`: many cases of one kind, rendered in worker processes, written safely.

Stages: inputs are expanded into cases (files; every .yaml/.yml/.json in a directory,
sorted; one case per CSV row, dotted column names mapping into nested keys); worker
processes, warmed up once (templates, stylesheet, fonts, one page of each format),
validate and render each case in memory; the parent writes each case's files
atomically, in input order, under a sanitized name unique within the batch (``-2``,
``-3`` on collision), then writes ``manifest.json``. One bad case never stops the
others; Ctrl-C stops the workers and leaves no partial file.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.errors import CaseFileError, DocgenError

CASE_SUFFIXES = (".yaml", ".yml", ".json")
MANIFEST = "manifest.json"
MAX_CSV_BYTES = 50 * 1024 * 1024


# -- inputs --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseInput:
    """One case to render: a file to read in the worker, or data from a CSV row."""

    source: str  # what a person reads in a report: "cases/a.yaml" or "sweep.csv:3"
    name: str  # the fallback file name stem: the file's stem, or "sweep-3"
    path: str | None = None
    data: dict[str, Any] | None = None
    error: str | None = None  # the case could not even be read (reported, not rendered)


def collect(inputs: Iterable[str | Path]) -> list[CaseInput]:
    """Every case named by ``inputs``, in order. A missing path is a DocgenError (nothing runs)."""
    cases: list[CaseInput] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.is_file() and p.suffix.lower() in CASE_SUFFIXES
            )
            if not found:
                raise DocgenError(f"{path}: no case files (.yaml, .yml, .json) in this directory")
            cases += [CaseInput(str(p), p.stem, path=str(p)) for p in found]
        elif path.suffix.lower() == ".csv" and path.is_file():
            cases += csv_cases(path)
        elif path.is_file():
            cases.append(CaseInput(str(path), path.stem, path=str(path)))
        else:
            raise DocgenError(f"{path}: no such file or directory")
    return cases


def csv_cases(path: Path) -> list[CaseInput]:
    """One case per data row; the header row is row 1, so the first case is ``file.csv:2``."""
    try:
        if path.stat().st_size > MAX_CSV_BYTES:
            raise CaseFileError(f"{path}: over the {MAX_CSV_BYTES // 2**20} MB limit for a CSV")
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        return [CaseInput(str(path), path.stem, error=f"{path}: not UTF-8 text")]
    except OSError as err:
        raise CaseFileError(f"{path}: cannot read: {err.strerror}") from None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as err:
        return [CaseInput(str(path), path.stem, error=f"{path}: not a valid CSV file: {err}")]
    if not rows or not any(cell.strip() for cell in rows[0]):
        return [CaseInput(str(path), path.stem, error=f"{path}: no header row")]
    header = [cell.strip() for cell in rows[0]]
    cases = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line is not a case
        source, name = f"{path}:{number}", f"{path.stem}-{number}"
        try:
            if len(row) > len(header):
                raise CaseFileError(f"{len(row)} cells but the header names {len(header)} columns")
            cases.append(CaseInput(source, name, data=unflatten(zip(header, row, strict=False))))
        except CaseFileError as err:
            cases.append(CaseInput(source, name, error=f"{source}: {err}"))
    return cases


def unflatten(cells: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """``recipient.address.street`` -> nested keys; ``remedies.0.measure`` -> a list item.

    Empty cells are omitted (the key is absent, as in a case file without it). A list is
    made of the indexes present, in numeric order.
    """
    root: dict[str, Any] = {}
    for column, raw in cells:
        value = raw.strip()
        if not value:
            continue
        if not column:
            raise CaseFileError(f"a value {value[:40]!r} under a column with no name")
        parts = column.split(".")
        if any(not part for part in parts):
            raise CaseFileError(f"column {column!r}: empty part in the dotted name")
        node = root
        for i, part in enumerate(parts[:-1]):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                where = ".".join(parts[: i + 1])
                raise CaseFileError(f"column {column!r}: {where!r} already holds a value")
            node = child
        if parts[-1] in node:
            raise CaseFileError(f"column {column!r}: given twice, or also as a group of columns")
        node[parts[-1]] = value
    return _lists(root, "")


def _lists(node: Any, path: str) -> Any:
    """Mappings whose keys are all numbers become lists, in numeric order."""
    if not isinstance(node, dict):
        return node
    items = {key: _lists(value, f"{path}{key}.") for key, value in node.items()}
    numeric = [key.isdigit() for key in items]
    if items and all(numeric):
        return [items[key] for key in sorted(items, key=int)]
    if any(numeric):
        mixed = ", ".join(sorted(items))
        raise CaseFileError(f"columns {path}*: mix list indexes and names ({mixed})")
    return items


# -- workers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """What every case of a batch shares; each worker receives it once."""

    kind: str
    formats: tuple[str, ...]
    pdf_variant: str | None = None


@dataclass
class Outcome:
    """A worker's answer for one case: every format in memory, or the error."""

    index: int
    source: str
    stem: str = ""
    blobs: dict[str, bytes] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # html (validate+build), pdf, docx
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None


class _Collect(logging.Handler):
    """Keeps docgen's log warnings of the case being rendered, to report with its source."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


_JOB: Job | None = None
_LOG = _Collect()


def warm_up(job: Job) -> None:
    """Load what every case needs once: the kind's templates, then one page per format."""
    from docgen.documents import get_kind
    from docgen.render.environment import environment

    spec = get_kind(job.kind)
    env = environment()
    for template in (spec.template, *spec.layouts.values()):
        env.get_template(template)
    page = warm_up_page(spec.stylesheets)
    if "html" in job.formats:
        page.standalone()
    if "pdf" in job.formats:
        from docgen.render import pdf

        pdf.warm_up()
        pdf.render_pdf(page, job.pdf_variant or pdf.DEFAULT_VARIANT)
    if "docx" in job.formats:
        from docgen.render.docx import render_docx

        render_docx(page)


def warm_up_page(stylesheets: tuple[str, ...]) -> Any:
    """A one-page document touching the fonts and styles real documents use."""
    from datetime import date

    from docgen.render.html import CSS_MARKER, HtmlDocument

    html = (
        '<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>warm-up</title>'
        f'{CSS_MARKER}</head><body data-running-head="warm-up"><main>'
        '<p class="letterhead-name">Warm-up</p><h1>Warm-up</h1><h2>Heading</h2>'
        "<p>Regular, <strong>bold</strong>, <em>italic</em>, <u>underlined</u>, "
        "\u00a7\u00a0228-79C(4).</p><ol><li>one<ol><li>two</li></ol></li></ol>"
        "<ul><li>three</li></ul><table><thead><tr><th>a</th></tr></thead>"
        '<tbody><tr><td>b</td></tr></tbody></table><p class="small">small</p>'
        "</main></body></html>"
    )
    return HtmlDocument(
        kind="warm-up",
        title="warm-up",
        number="warm-up",
        filename="warm-up",
        running_head="warm-up",
        date=date(2000, 1, 1),
        html=html,
        stylesheets=stylesheets,
    )


def init_worker(job: Job) -> None:
    """Worker start: Ctrl-C is the parent's to handle; warm up; freeze what is loaded."""
    import gc

    global _JOB
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _JOB = job
    logger = logging.getLogger("docgen")
    logger.addHandler(_LOG)
    logger.propagate = False
    try:
        warm_up(job)
    except Exception as err:  # only a head start: the cases themselves will show any fault
        print(f"warning: worker warm-up failed ({type(err).__name__}: {err})", file=sys.stderr)
    for message in _LOG.messages:  # e.g. the engine's own (libharfbuzz-subset0 missing)
        print(f"warning: {message}", file=sys.stderr)
    _LOG.messages = []
    # Everything loaded so far lives as long as the worker: keep the collector off it.
    gc.collect()
    gc.freeze()


def render_case(index: int, case: CaseInput, job: Job | None = None) -> Outcome:
    """Validate and render one case in every format, in memory. Never raises for bad data."""
    from docgen import api
    from docgen.cases.loader import read_case_file
    from docgen.documents import get_kind
    from docgen.documents.base import Options, build_document
    from docgen.render.output import safe_name

    job = job or _JOB
    assert job is not None, "render_case runs in a worker started by init_worker"
    outcome = Outcome(index, case.source)
    if case.error is not None:
        outcome.error = case.error
        return outcome
    _LOG.messages = []
    try:
        clock = _Stopwatch()
        data = case.data if case.data is not None else read_case_file(case.path or "")
        doc = build_document(get_kind(job.kind), data, Options(), case.source)
        clock.lap(outcome, "html")  # the standalone HTML's own step is added below
        for fmt in job.formats:
            outcome.blobs[fmt] = api.to_bytes(doc, fmt, job.pdf_variant)
            clock.lap(outcome, fmt)
        outcome.stem = safe_name(doc.filename, fallback=safe_name(case.name, fallback=job.kind))
        outcome.warnings = [*doc.warnings, *_LOG.messages]
    except DocgenError as err:
        outcome.error = _with_source(str(err), case.source)
        outcome.blobs = {}
    except Exception as err:  # a defect, not bad data: still only this case fails
        outcome.error = f"{case.source}: internal error ({type(err).__name__}: {err})"
        outcome.blobs = {}
    return outcome


class _Stopwatch:
    """Wall and CPU seconds per stage (CPU time is what other processes disturb least)."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self, outcome: Outcome, stage: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        outcome.seconds[stage] = outcome.seconds.get(stage, 0.0) + wall - self.wall
        outcome.cpu_seconds[stage] = outcome.cpu_seconds.get(stage, 0.0) + cpu - self.cpu
        self.wall, self.cpu = wall, cpu


def _with_source(message: str, source: str) -> str:
    return message if message.startswith(f"{source}:") else f"{source}: {message}"


# -- the parent ----------------------------------------------------------------------------


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


@dataclass
class Report:
    """What a batch did: files written (the manifest's entries), failures, timings."""

    total: int
    files: list[dict[str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (source, message)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    documents: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    timings: dict[str, list[float]] = field(default_factory=dict)  # per format, per document
    cpu_timings: dict[str, list[float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.documents / self.seconds if self.seconds > 0 else 0.0


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


def manifest(kind: str, report: Report) -> dict[str, Any]:
    """The manifest: files sorted by name, each with SHA-256, kind, format and source."""
    return {
        "kind": kind,
        "files": sorted(report.files, key=lambda entry: entry["file"]),
        "failed": [{"source": s, "error": e} for s, e in report.failures],
        "complete": not report.interrupted,
    }


def write_manifest(out: Path, kind: str, report: Report) -> Path:
    from docgen.render.output import atomic_write

    text = json.dumps(manifest(kind, report), indent=2, sort_keys=True, ensure_ascii=False)
    return atomic_write(out / MANIFEST, (text + "\n").encode("utf-8"))


# -- what a person sees --------------------------------------------------------------------


class Console:
    """A rich progress bar (documents/s, time left) on a terminal; plain lines otherwise."""

    def __init__(self, total: int, stream: Any = None, fancy: bool | None = None):
        self.stream = stream or sys.stderr
        self.total = total
        self.fancy = self.stream.isatty() if fancy is None else fancy
        self.progress: Any = None
        self.task: Any = None

    def __enter__(self) -> Console:
        if self.fancy:
            from rich.console import Console as RichConsole
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("rendering"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]:.1f} docs/s"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=RichConsole(file=self.stream),
                transient=False,
            )
            self.progress.start()
            self.task = self.progress.add_task("batch", total=self.total, rate=0.0)
            self.started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)

    def outcome(self, outcome: Outcome) -> None:
        if outcome.error is not None:
            self.say(f"FAILED {outcome.error}")
        if self.progress is not None:
            done = self.progress.tasks[0].completed + 1
            rate = done / max(time.perf_counter() - self.started, 1e-9)
            self.progress.update(self.task, advance=1, rate=rate)


def summary_rows(report: Report) -> list[tuple[str, str]]:
    return [
        ("written", str(report.documents)),
        ("failed", str(len(report.failures))),
        ("seconds", f"{report.seconds:.2f}"),
        ("docs/s", f"{report.rate:.1f}"),
    ]


def print_summary(report: Report, out: Path, stream: Any = None, fancy: bool = False) -> None:
    """The summary table: written, failed, seconds, docs/s (and where the manifest is)."""
    stream = stream or sys.stdout
    rows = summary_rows(report)
    if fancy:
        from rich.console import Console as RichConsole
        from rich.table import Table

        table = Table(title=f"docgen batch -> {out}")
        for name, _ in rows:
            table.add_column(name, justify="right")
        table.add_row(*(value for _, value in rows))
        RichConsole(file=stream).print(table)
    else:
        widths = [max(len(n), len(v)) for n, v in rows]
        print("  ".join(n.rjust(w) for (n, _), w in zip(rows, widths, strict=True)), file=stream)
        print("  ".join(v.rjust(w) for (_, v), w in zip(rows, widths, strict=True)), file=stream)
    print(f"{len(report.files)} files and {MANIFEST} in {out}", file=stream)
