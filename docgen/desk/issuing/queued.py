"""The desk on the job queue: with ``DOCGEN_DESK_QUEUE`` naming a queue (the register on
PostgreSQL, `docgen worker` running somewhere), Issue defers the issue to a worker and
answers at once with a page saying the document is being rendered; the page asks every
second (htmx) and, when a worker has issued it, goes to the document's page. The job
carries all the desk's own issue would use: the respondent the clerk chose where the match
was a question (asked before queuing), the document a correction supersedes,
counsel's final DOCX (base64), a copy for each person in copies_to, the photos sent from
the phone (base64, bounded: docgen.queue.client.photos_sent, as for a batch's case file;
the worker renders them from a folder of its own, docgen.queue.tasks); nothing the desk
does is quietly done locally instead. A draft is one job however often Issue is pressed
(a lock named after the draft); its state is read through procrastinate's job manager.
Without a queue the desk issues in its own worker processes (docgen.desk.server.renderers)."""

from __future__ import annotations

import base64
import os
from functools import cache
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from docgen.desk.base.web import document_url, guarded, render
from docgen.documents.exhibits import CaseFiles
from docgen.errors import Problem
from docgen.queue.app import Settings, queue_url
from docgen.queue.results import Store
from docgen.render.formats import FORMATS

if TYPE_CHECKING:
    from docgen.register import Issue


def queue_name() -> str | None:
    return os.environ.get("DOCGEN_DESK_QUEUE", "").strip() or None


def _batch(draft: Any) -> str:
    return f"desk-draft-{draft.id}"


@cache
def _store(url: str) -> Any:
    # queue.worker takes 12 ms to import (docgen modules): loaded on first use
    from docgen.queue.worker import engine_for

    return Store(engine_for(url), Settings.from_env().store_bytes)


def _url(request: Request) -> str:
    return queue_url(request.app.state.database_url)


def defer_issue(
    request: Request,
    draft: Any,
    data: dict[str, Any],
    asked: Issue,
    case_dir: CaseFiles | None = None,
    files: dict[str, str] | None = None,
) -> Response:
    """Queue the draft's issue (once), then show the page that waits for it: validated
    here first (CaseInvalid: nothing queued), its photos and its other uploaded ``files``
    ({field: name}: a map exhibit) read from ``case_dir`` into the job (refused past
    ``DOCGEN_QUEUE_PHOTOS_MB``). The job carries the clerk's answer to
    "which respondent is this?" (``asked.respondent``, ``asked.keep_name``), asked by the
    desk before queuing (docgen.desk.drafting.choosing), and the rest of ``asked``."""
    # batch.inputs and others load multiprocessing (+45 ms): loaded on first use
    from docgen.batch.inputs import CaseInput
    from docgen.batch.worker import Job
    from docgen.queue.client import defer, job_payload

    url = _url(request)
    case = CaseInput(f"draft {draft.id}", f"draft-{draft.id}", data=data)
    job = Job(draft.kind, tuple(FORMATS), None, issue=True)
    by = request.scope["visitor"].name
    payload = job_payload(_batch(draft), case, job, by, case_dir, files)
    payload |= {
        "respondent": asked.respondent,
        "keep_name": asked.keep_name,
        "supersedes": asked.supersedes,
        "jurisdiction": asked.jurisdiction,
        "copies": asked.copies,
        "language": asked.language,
    }
    if asked.final is not None:
        payload["final"] = base64.b64encode(asked.final).decode("ascii")
    defer(url, [payload], queue_name() or "", lock=_batch(draft))
    return RedirectResponse(f"/drafts/{draft.id}/issuing", status_code=303)


@guarded(None)  # an attorney's instrument too: own_draft finds only the visitor's own
def issuing(request: Request) -> Response:
    """The draft being issued: its document when a worker has issued it, the register's
    refusal beside the draft's fields, or (still waiting) the rendering page."""
    # desk.drafting.drafts loads starlette, multiprocessing (+68 ms): loaded on first use
    from docgen.desk.drafting import drafts

    draft = drafts.own_draft(request)
    if draft is None:
        return render(request, "missing.html.j2", status=404, what="draft")
    if draft.issued_as:
        where = document_url(request, draft.issued_as, draft.jurisdiction)
        return RedirectResponse(where, status_code=303)
    store = _store(_url(request))
    batch = _batch(draft)
    done = store.finished(batch, limit=1)
    cause = None if done else _given_up(store, batch, _url(request))
    if request.headers.get("HX-Request"):
        if done or cause:  # the whole page goes to the answer (which reads the result)
            return Response(headers={"HX-Redirect": f"/drafts/{draft.id}/issuing"})
        return Response(status_code=204)  # still rendering: the page asks again
    if done:
        (result,) = done
        store.forget(batch)
        if result.number:
            drafts.mark_issued(request, draft, result.number)
            where = document_url(request, result.number, draft.jurisdiction)
            return RedirectResponse(where, status_code=303)
        return drafts.refused(request, draft, [Problem("", result.error or "not issued")])
    if cause:
        store.forget(batch)
        return drafts.refused(request, draft, [Problem("", f"not issued: {cause}")])
    return render(request, "issuing.html.j2", draft=draft)


def _given_up(store: Any, batch: str, url: str) -> str | None:
    """Why the queue gave up on the draft's job, if it did (procrastinate's job manager
    says the state of the latest job holding the draft's lock)."""
    jobs = _queue(url).job_manager.list_jobs(lock=batch)
    state = max(jobs, key=lambda job: job.id or 0).status if jobs else None
    if state not in ("failed", "cancelled", "aborted"):
        return None
    key_causes = store.causes_of(batch)
    return next(iter(key_causes), f"the job {state}")


@cache
def _queue(url: str) -> Any:
    """The procrastinate app on ``url``, opened once per server process."""
    # queue.tasks takes 6 ms to import (docgen modules): loaded on first use
    from docgen.queue.tasks import make_app

    return make_app(url, pool_size=1).open()
