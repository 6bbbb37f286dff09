"""The render jobs: a document's bytes made outside the write transaction that records it.

Short write transactions (:func:`rendered_outside`): rendering takes seconds, and on
SQLite every other writer (a clerk's autosave, another issue) waits while a write
transaction is open. So the transaction runs up to the render, with the number it would
take and the history it would print, and is rolled back; the document is rendered
outside any transaction; then the transaction runs again and records those bytes only if
it arrives at the same number, history and case (nothing moved meanwhile). If something
did (another process took the number, or issued the same case: then that document is
the answer), it renders again; after ``TRIES`` renders it renders inside the
transaction, where nothing can move. A number is still taken only in the transaction
that records its document: gap-free and never twice.

A :class:`Job` is everything a document's bytes are made from; :func:`rendered_for` gives
the job's document inside the transaction, and :func:`rendered_outside` runs a
transaction so that its document renders outside it.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from docgen import api
from docgen.documents.kind import Correction, Options
from docgen.faults import pause
from docgen.law.pack import Pack
from docgen.register.matter import checks
from docgen.register.rules.copies import copy_format, rendition_format
from docgen.register.rules.parts import part_format, parts

if TYPE_CHECKING:
    from docgen.documents.exhibits import CaseFiles


# The register may issue a notice before it is served: `record-service` then records the
# service and issues the affidavit of service that states the last day to appeal.
ISSUING = Options()


T = TypeVar("T")


TRIES = 3  # renders made outside the write transaction before one is made inside it


@dataclass(frozen=True)
class Made:
    """A document rendered and sealed, with the copies kept with it and its check code."""

    files: dict[str, bytes]
    copies: dict[str, bytes]  # stored format (docgen.register.rules.copies) -> bytes
    document: Any  # the rendered document: its title, file name and warnings
    code: str  # the verification line's code, recorded (hashed) with the document


@dataclass(frozen=True)
class Job:
    """Everything a document's bytes are made from, but the code its verification line
    prints (new with each render): two jobs with one key render the same document."""

    kind: str
    data: dict[str, Any]  # the case with its number and the history it prints
    name: str
    formats: tuple[str, ...]
    pdf_variant: str | None
    copies: bool
    sealing: checks.Sealing
    officer: str | None
    corrects: Correction | None
    number: str
    case_dir: CaseFiles | None = None  # the case file's folder (docgen.documents.exhibits)
    language: str | None = None  # a courtesy rendition in this language, kept with it

    @property
    def key(self) -> str:
        made_of = [
            self.kind,
            self.data,
            self.formats,
            self.pdf_variant,
            self.copies,
            self.officer,
            self.corrects,
            self.number,
            self.language,
        ]
        return json.dumps(made_of, sort_keys=True, default=str, ensure_ascii=False)

    def make(self) -> Made:
        pause("rendering")
        options = replace(ISSUING, corrects=self.corrects, case_dir=self.case_dir)
        options, code = checks.mark_for(self.sealing, options, self.number, self.officer)
        data = copy.deepcopy(self.data)
        if self.copies:
            made = api.copy_renders(
                self.kind, data, self.name, self.formats, options, self.pdf_variant
            )
        else:
            made = [
                api.render_bytes(
                    self.kind, data, self.formats, options, pdf_variant=self.pdf_variant
                )
            ]
        rendered, files = made[0]
        doc = rendered.document
        files = checks.seal(files, self.sealing, self.officer, doc.title)  # signed, then hashed
        copies = {
            copy_format(index, fmt): blob
            for index, (other, blobs) in enumerate(made[1:])
            for fmt, blob in checks.seal(
                blobs, self.sealing, self.officer, other.document.title
            ).items()
        }
        if "pdf" in self.formats:  # each firm's own page, a file of this document
            for index, (_, part) in enumerate(parts(self.kind, self.data)):
                one, blobs = api.render_bytes(
                    self.kind, part, ("pdf",), options, pdf_variant=self.pdf_variant
                )
                sealed = checks.seal(blobs, self.sealing, self.officer, one.document.title)
                copies[part_format(index, "pdf")] = sealed["pdf"]
        if self.language is not None:
            other, blobs = api.render_bytes(
                self.kind,
                copy.deepcopy(self.data),
                self.formats,
                replace(options, language=self.language),
                pdf_variant=self.pdf_variant,
            )
            sealed = checks.seal(blobs, self.sealing, self.officer, other.document.title)
            copies |= {rendition_format(self.language, f): blob for f, blob in sealed.items()}
        return Made(files, copies, doc, code)


def unmarked_docx(job: Job) -> bytes:
    """The job's DOCX as counsel had it to edit: without the verification line and code
    issuing adds (so the redline shows counsel's edits only, never issuing's additions)."""
    options = replace(ISSUING, corrects=job.corrects, case_dir=job.case_dir)
    _, files = api.render_bytes(job.kind, copy.deepcopy(job.data), ("docx",), options)
    return files["docx"]


class Rerender(Exception):  # never a DocgenError: no caller's handler may take it
    """The write transaction stops here (rolled back) so that ``job`` renders outside it."""

    def __init__(self, job: Job):
        super().__init__(job.number)
        self.job = job


@dataclass
class Renders:
    """Documents rendered outside the write transaction, by their job's key."""

    made: dict[str, Made] = field(default_factory=dict)
    inline: bool = False  # the last try: render inside the transaction
    sealings: dict[str, checks.Sealing] = field(default_factory=dict)  # opened once


_RENDERS: ContextVar[Renders | None] = ContextVar("docgen_renders", default=None)


def rendered_outside(work: Callable[[], T]) -> T:
    """``work()``, one write transaction that issues a document, run so that the document
    renders outside it: the transaction stops at its render and is rolled back, the job is
    rendered, and ``work`` runs again to record it (see the module's doc)."""
    if _RENDERS.get() is not None:
        return work()  # already inside (a correction issues through Register.issue)
    renders = Renders()
    token = _RENDERS.set(renders)
    try:
        for attempt in range(TRIES + 1):
            renders.inline = attempt == TRIES
            try:
                return work()
            except Rerender as asked:  # the transaction was rolled back
                job = asked.job
            # Rendered past the except: a render's own error is raised as itself.
            renders.made = {job.key: job.make()}
        raise AssertionError("the last try renders inside the transaction")
    finally:
        _RENDERS.reset(token)


def rendered_for(job: Job) -> Made:
    """The job's document: rendered before, outside the transaction, or now (outside
    :func:`rendered_outside`, or on its last try) ; else the transaction stops."""
    renders = _RENDERS.get()
    if renders is None or renders.inline:
        return job.make()
    made = renders.made.get(job.key)
    if made is None:
        raise Rerender(job)
    return made


def sealing_of(pack: Pack) -> checks.Sealing:
    """The municipality's key, opened once however often the transaction runs."""
    renders = _RENDERS.get()
    if renders is None:
        return checks.prepare(pack)
    if pack.id not in renders.sealings:
        renders.sealings[pack.id] = checks.prepare(pack)
    return renders.sealings[pack.id]
