"""The procrastinate app and what a job does: render the case stored in the job (never a
file on the worker's disk) and store the result, once.

The files a case names travel in its job too (a desk draft's photos and map exhibit, or
the photos beside a case file; ``photos``: the case's name of each file, its bytes in
base64; at most ``Settings.photos_bytes``, docgen.queue.client.photos_sent): the worker
writes them into a private temporary folder of its own under names it makes (a number and
the type read from the first bytes), renders from there through the case's names as keys
(docgen.documents.exhibits.SentFiles: no name from the job is ever a path here), checks
each file by its content as the desk's renderers do (a PDF exhibit bounded before it is
drawn), removes the folder, and drops the files from the job once its result is stored.

A job whose result is already stored (an earlier try stored it, then the worker died
before the queue heard) does nothing. A case that cannot be rendered is a result too, its
error: the job succeeds and is never retried. Only a fault of the machine raises (the
database gone, the store full), so that procrastinate retries the job with backoff.
"""

from __future__ import annotations

import base64
import binascii
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from docgen.errors import DocgenError
from docgen.queue.app import SCHEMA, Settings, connection_options, conninfo
from docgen.queue.results import StoreFull

RENDER = "docgen.render"
ISSUE = "docgen.issue"


def make_app(url: str, settings: Settings | None = None, pool_size: int = 2) -> Any:
    """The procrastinate app on ``url`` with docgen's tasks (not yet opened)."""
    # psycopg, procrastinate, attr take 110 ms to import: loaded on first use
    from procrastinate import App, PsycopgConnector

    connector = PsycopgConnector(
        conninfo=conninfo(url),
        kwargs=connection_options(),
        min_size=1,
        max_size=pool_size,
    )
    app = App(connector=connector)
    register_tasks(app, settings or Settings.from_env())
    return app


def register_tasks(app: Any, settings: Settings) -> None:
    # psycopg, procrastinate, attr take 110 ms to import: loaded on first use
    from procrastinate import RetryStrategy

    # procrastinate counts retries, docgen counts tries (the first one too)
    retry = (
        RetryStrategy(max_attempts=settings.attempts - 1, exponential_wait=settings.backoff)
        if settings.attempts > 1
        else False
    )
    app.task(name=RENDER, pass_context=True, retry=retry)(render_job)
    app.task(name=ISSUE, pass_context=True, retry=retry)(issue_job)


def render_job(context: Any, **job: Any) -> str:
    return _run(context, job, render_stored)


def issue_job(context: Any, **job: Any) -> str:
    return _run(context, job, issue_stored)


def _run(context: Any, job: dict[str, Any], make: Any) -> str:
    store = context.additional_context["store"]
    batch, key = job["batch"], job["key"]
    if store.done(batch, key):
        return "stored before"
    try:
        outcome = make(job, context.additional_context)
        store.store(batch, key, outcome)
    except Exception as err:
        with suppress(Exception):  # the database is gone: the job's retries will say so
            store.note_cause(batch, key, machine_cause(err))
        raise
    if PHOTOS in job:
        _drop_photos(store, context.job.id)
    return "failed: the case" if outcome.error else "stored"


PHOTOS = "photos"  # the job's files sent with its case: {the case's name: base64}
# by the first bytes (photos; a map exhibit may be a PDF); anything else is refused
SUFFIXES = {"jpeg": "jpg", "png": "png", "pdf": "pdf"}


def _drop_photos(store: Any, job_id: int) -> None:
    """The photos out of a job whose result is stored (a retry finds it stored before and
    needs none): the queue's table does not keep them. The database gone: they stay."""
    with suppress(DBAPIError), store.engine.begin() as conn:
        conn.execute(
            text(f"UPDATE {SCHEMA}.procrastinate_jobs SET args = args - :k WHERE id = :id"),
            {"k": PHOTOS, "id": job_id},
        )


@contextmanager
def sent_files(job: dict[str, Any]) -> Iterator[Any]:
    """The photos the job carries, in a private temporary folder of this worker's (a
    SentFiles, removed on leaving), or None when it carries none. DocgenError: the job's
    photos are not names and base64 text."""
    # documents.exhibits loads pydantic, yaml, annotated_types (+160 ms): loaded on first use
    from docgen.documents.exhibits import SentFiles, file_kind

    sent = job.get(PHOTOS)
    if not sent:
        yield None
        return
    if not isinstance(sent, dict) or not all(
        isinstance(n, str) and isinstance(d, str) for n, d in sent.items()
    ):
        raise DocgenError(f"{PHOTOS}: the job's photos are not names with their bytes")
    with tempfile.TemporaryDirectory(prefix="docgen-photos-") as folder:  # mode 0700
        names = []
        for number, (name, encoded) in enumerate(sent.items(), start=1):
            try:
                data = base64.b64decode(encoded, validate=True)
            except binascii.Error:
                raise DocgenError(f"{PHOTOS}: {name!r} was not sent as base64") from None
            kind = file_kind(data[:8])
            own = f"{number}.{SUFFIXES.get(kind or '', 'bin')}"  # its own name
            (Path(folder) / own).write_bytes(data)
            names.append((name, own))
        yield SentFiles(Path(folder), tuple(names))


def stored_case(job: dict[str, Any]) -> dict[str, Any]:
    """The case the job carries, parsed as the local batch parses a file or a CSV row."""
    # cases.loader loads yaml (+14 ms): loaded on first use
    from docgen.cases.loader import parse_case_text

    case = job["case"]
    return (
        parse_case_text(case["text"], job["source"]) if "text" in case else json.loads(case["json"])
    )


def render_stored(job: dict[str, Any], context: dict[str, Any] | None = None) -> Any:
    """The job's case rendered as the local batch renders it: same parse, same name."""
    # batch.inputs and batch.worker load yaml, multiprocessing (+20 ms): loaded on first use
    from docgen.batch.inputs import CaseInput
    from docgen.batch.worker import Job, Outcome, render_case, with_source

    source = job["source"]
    options = Job(
        job["kind"],
        tuple(job["formats"]),
        job["pdf_variant"],
        layout=job["layout"],
        review=job["review"],
    )
    try:
        data = stored_case(job)
        with sent_files(job) as photos:
            return render_case(0, CaseInput(source, job["name"], data=data), options, photos)
    except DocgenError as err:
        return Outcome(0, source, error=with_source(str(err), source))


def issue_stored(job: dict[str, Any], context: dict[str, Any]) -> Any:
    """The job's case issued into the register, as `docgen issue` issues it (respondent
    matched; a near match is the case's error, for a clerk to decide, never a guess).
    A register that cannot be reached raises: the machine's fault, retried."""
    # api and batch.worker load pydantic, yaml, multiprocessing (+180 ms), and docgen.register
    # the register's rules: loaded on first use
    from docgen.api import said_in_words, warnings_in_words
    from docgen.batch.worker import Outcome, with_source
    from docgen.register import Issue

    source = job["source"]
    outcome = Outcome(0, source)
    try:
        final = job.get("final")  # counsel's final DOCX, from the desk (base64)
        with sent_files(job) as photos, said_in_words(job["kind"]):
            issued = context["register"]().issue(
                job["kind"],
                stored_case(job),
                Issue(
                    respondent=job.get("respondent"),
                    keep_name=bool(job.get("keep_name")),
                    supersedes=job.get("supersedes"),
                    jurisdiction=job.get("jurisdiction"),  # whose number it corrects
                    final=base64.b64decode(final) if final else None,
                    copies=bool(job.get("copies")),
                    language=job.get("language"),
                ),
                formats=job["formats"],
                by=job["by"],
                pdf_variant=job["pdf_variant"],
                case_dir=photos,
            )
    except DocgenError as err:
        if isinstance(err.__context__, DBAPIError):
            raise  # the database failed, not the case
        outcome.error = with_source(str(err), source)
        return outcome
    outcome.blobs = dict(issued.files)
    outcome.stem, outcome.number = issued.stem, issued.number
    outcome.warnings = warnings_in_words(job["kind"], issued.warnings)
    return outcome


def machine_cause(err: BaseException) -> str:
    """One line naming a fault of the machine."""
    if isinstance(err, StoreFull):
        return str(err)
    message = str(getattr(err, "orig", err)).strip().splitlines()
    detail = message[0] if message else type(err).__name__
    return f"the database failed ({detail})"
