"""What a job does: render the case stored in the job (never a file on the worker's disk)
and store the result, once.

A job whose result is already stored (an earlier try stored it, then the worker died
before the queue heard) does nothing. A case that cannot be rendered is a result too, its
error: the job succeeds and is never retried. Only a fault of the machine raises (the
database gone, the store full), so that procrastinate retries the job with backoff.
"""

from __future__ import annotations

import json
from contextlib import suppress
from typing import Any

from docgen.queue.app import Settings

RENDER = "docgen.render"


def register_tasks(app: Any, settings: Settings) -> None:
    from procrastinate import RetryStrategy

    # procrastinate counts retries, docgen counts tries (the first one too)
    retry = (
        RetryStrategy(max_attempts=settings.attempts - 1, exponential_wait=settings.backoff)
        if settings.attempts > 1
        else False
    )
    app.task(name=RENDER, pass_context=True, retry=retry)(render_job)


def render_job(context: Any, **job: Any) -> str:
    store = context.additional_context["store"]
    batch, key = job["batch"], job["key"]
    if store.done(batch, key):
        return "stored before"
    outcome = render_stored(job)
    try:
        store.store(batch, key, outcome)
    except Exception as err:
        cause = machine_cause(err)
        with suppress(Exception):  # the database is gone: the job's retries will say so
            store.note_cause(batch, key, cause)
        raise
    return "failed: the case" if outcome.error else "stored"


def render_stored(job: dict[str, Any]) -> Any:
    """The job's case rendered as the local batch renders it: same parse, same name."""
    from docgen.batch.inputs import CaseInput
    from docgen.batch.worker import Job, Outcome, render_case, with_source
    from docgen.cases.loader import parse_case_text
    from docgen.errors import DocgenError

    source, case = job["source"], job["case"]
    options = Job(
        job["kind"],
        tuple(job["formats"]),
        job["pdf_variant"],
        layout=job["layout"],
        review=job["review"],
    )
    try:
        data = parse_case_text(case["text"], source) if "text" in case else json.loads(case["json"])
    except DocgenError as err:
        return Outcome(0, source, error=with_source(str(err), source))
    return render_case(0, CaseInput(source, job["name"], data=data), options)


def machine_cause(err: BaseException) -> str:
    """One line naming a fault of the machine."""
    from docgen.queue.results import StoreFull

    if isinstance(err, StoreFull):
        return str(err)
    message = str(getattr(err, "orig", err)).strip().splitlines()
    detail = message[0] if message else type(err).__name__
    return f"the database failed while storing the result ({detail})"
