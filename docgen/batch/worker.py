"""Batch workers: warmed up once (templates, stylesheet, fonts, one page of each format:
docgen.warm), then each validates and renders its cases in memory, never raising for bad
data."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

from docgen.batch.guard import die_with_parent
from docgen.batch.inputs import CaseInput
from docgen.errors import DocgenError
from docgen.render.output import safe_name
from docgen.warm import Heard, head_start


@dataclass(frozen=True)
class Job:
    """What every case of a batch shares; each worker receives it once."""

    kind: str
    formats: tuple[str, ...]
    pdf_variant: str | None = None
    layout: str | None = None
    review: bool = False
    issue: bool = False  # issued into the register (numbered, recorded), not only rendered
    batch_pid: int = field(default_factory=os.getpid)  # the workers end when it ends

    def options(self, case_dir: Any = None) -> Any:
        """The kind's options; ``case_dir``: where the files the case names are read (a
        queued job's sent photos, docgen.queue.tasks; None: the case file's folder)."""
        # documents.kind loads pydantic, annotated_types (+150 ms): loaded on first use
        from docgen.documents.kind import Options

        return Options(layout=self.layout, review=self.review, case_dir=case_dir)


@dataclass
class Outcome:
    """A worker's answer for one case: every format in memory, or the error."""

    index: int
    source: str
    stem: str = ""
    blobs: dict[str, bytes] = field(default_factory=dict)
    # `--review` on a recorded instrument: the review file, per format, beside the document
    review_blobs: dict[str, bytes] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)  # html (validate+build), pdf, docx
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    number: str | None = None  # the register's number, for a case issued (--issue)
    # issued and recorded as ``number``, but its files never came back: why (--resume
    # writes them: the register gives the same document again)
    unwritten: str | None = None


_JOB: Job | None = None
_LOG = Heard()


def init_worker(job: Job) -> None:
    """Worker start: signals are the parent's to handle, and the worker ends with it; warm
    up; freeze what is loaded."""
    global _JOB
    die_with_parent(job.batch_pid)
    _JOB = job
    prepare_process(job)


def prepare_process(job: Job, every_kind: bool = False) -> None:
    """Warm up (docgen.warm.head_start), then collect docgen's log warnings per case."""
    head_start(None if every_kind else [job.kind], job.formats, job.pdf_variant)
    logger = logging.getLogger("docgen")
    logger.addHandler(_LOG)
    logger.propagate = False


def render_case(
    index: int, case: CaseInput, job: Job | None = None, case_dir: Any = None
) -> Outcome:
    """Validate and render one case in every format, in memory. Never raises for bad data.
    ``case_dir``: where the files the case names are (default: the case file's folder)."""
    # api loads pydantic, annotated_types, typing_inspection (+160 ms): loaded on first use
    from docgen import api

    job = job or _JOB
    assert job is not None, "render_case runs in a worker started by init_worker"
    outcome = Outcome(index, case.source)
    if case.error is not None:
        outcome.error = case.error
        return outcome
    _LOG.messages = []
    try:
        clock = _Stopwatch()
        # "html" is validation and the template; the standalone HTML's step is its own lap
        with api.said_in_words(job.kind):  # each field named as the desk's form names it
            done, outcome.blobs = api.render_bytes(
                job.kind,
                case.data if case.data is not None else case.path or "",
                job.formats,
                job.options(case_dir),
                job.pdf_variant,
                lap=lambda stage: clock.lap(outcome, stage),
                name=case.source,
            )
        doc = done.document
        if done.review is not None:
            outcome.review_blobs = {
                fmt: api.to_bytes(done.review, fmt, job.pdf_variant) for fmt in job.formats
            }
        outcome.stem = safe_name(doc.filename, fallback=safe_name(case.name, fallback=job.kind))
        outcome.warnings = [*api.warnings_in_words(job.kind, doc.warnings), *_LOG.messages]
    except DocgenError as err:
        outcome.error = with_source(str(err), case.source)
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


def with_source(message: str, source: str) -> str:
    return message if message.startswith(f"{source}:") else f"{source}: {message}"
