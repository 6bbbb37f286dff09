"""`docgen batch --queue`: every case validated here, one job per good case deferred in
one transaction, then each result read back from the database as workers store it.

A bad case fails at once, as in the local batch, and is never sent. A job carries the
case's text (or a CSV row's cells), so what is rendered is what was read here, whatever
happens to the file afterwards; it carries the photos its case names too (read
from the case file's folder, at most ``DOCGEN_QUEUE_PHOTOS_MB``: :func:`photos_sent`),
since a worker on another machine sees no file beside the case. Results come back as the
local pool's Outcomes, so the batch writes them the same way: same names, same bytes,
same manifest. If the database goes away, the client waits for it (up to ``patience``
seconds). When the batch ends, or is interrupted, its jobs still waiting are cancelled,
those a worker holds are let finish (up to ``patience``), and its results are removed.

Issuing (``--issue``), the register is the truth: a job the queue gave up on whose
document the register holds (its result could not be stored: a full result store) is
that number, recorded, its files not written (``Outcome.unwritten``), never a failure;
and a batch cut short asks the register what its cases were recorded as
(:func:`numbers_recorded`), so that its report and manifest say what the register holds.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import time
import uuid
from collections.abc import Generator, Iterable, Iterator
from typing import Any

from sqlalchemy import Engine, bindparam, text
from sqlalchemy.exc import DBAPIError, OperationalError

from docgen.batch.inputs import CaseInput
from docgen.batch.worker import Job, Outcome, with_source
from docgen.cases.inspection import INSPECT as WHY  # photos taken at the inspection
from docgen.cases.inspection import PHOTOS as FIELD
from docgen.cases.loader import parse_case_text, read_case_text
from docgen.documents import get_kind
from docgen.documents.exhibits import CaseFiles
from docgen.documents.pipeline import check_case
from docgen.errors import CaseInvalid, DocgenError, Problem
from docgen.law.packs import load_pack
from docgen.law.provisions import cited_problems
from docgen.queue.app import DEFAULT_QUEUE, SCHEMA, QueueError, Settings, queue_url
from docgen.queue.results import Result, Store
from docgen.queue.tasks import ISSUE, PHOTOS, RENDER, make_app
from docgen.queue.worker import check_installed, engine_for

FINAL_FAILURES = ("failed", "cancelled", "aborted")


def job_payload(
    batch: str,
    case: CaseInput,
    job: Job,
    by: str | None = None,
    case_dir: CaseFiles | None = None,
    files: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The job for one case, validated here: its key, options, the case itself and the
    photos it names, which the job carries (:func:`photos_sent`); to issue it, who
    issues. Raises DocgenError for a case that cannot be read or is
    invalid. ``case_dir``: where the files it names are read here (a desk draft's folder;
    a case file's own folder when none is given); ``files``: its other files by field (a
    desk draft's uploaded map exhibit), carried with the photos."""
    # api loads pydantic (+11 ms): loaded on first use
    from docgen.api import case_dir_of, load, said_in_words

    if case.error is not None:
        raise DocgenError(case.error)
    if case.path is not None:
        stored = {"text": read_case_text(case.path)}
        data = parse_case_text(stored["text"], case.source)
        case_dir = case_dir or case_dir_of(case.path)
    else:
        stored = {"json": json.dumps(case.data, ensure_ascii=False)}
        data, _ = load(case.data or {}, case.source)
    with said_in_words(job.kind):  # each field named as the desk's form names it
        if job.issue:  # as the register validates it: its number still to come, not served
            # register.matter.issuing loads sqlalchemy, cryptography, lxml (+270 ms):
            # loaded on first use
            from docgen.register.matter.issuing import facts

            facts(get_kind(job.kind), data, case.source, case_dir)
        else:  # a bundle: built whole
            check_case(get_kind(job.kind), data, job.options(case_dir), case.source)
        photos, problems = photos_sent(data, case_dir, files)
        if problems:  # nothing is queued for this case (its jurisdiction checked above)
            pack = load_pack(data["jurisdiction"])
            raise CaseInvalid(cited_problems(problems, pack), case.source)
    options = [job.kind, list(job.formats), job.pdf_variant, job.layout, job.review, job.issue]
    digest = hashlib.sha256(json.dumps(stored, sort_keys=True).encode()).hexdigest()
    key = hashlib.sha256(json.dumps([*options, case.source, digest]).encode()).hexdigest()
    payload = {
        "batch": batch,
        "key": key,
        "kind": job.kind,
        "formats": list(job.formats),
        "pdf_variant": job.pdf_variant,
        "source": case.source,
        "name": case.name,
        "case": stored,
    }
    if photos:
        payload[PHOTOS] = photos
    if job.issue:
        # register.storage.audit and others load sqlalchemy, cryptography (+270 ms):
        # loaded on first use
        from docgen.register.matter.issuing import asked_hash
        from docgen.register.storage.audit import actor

        # what the register records the document under (docgen.register.matter.issuing)
        asked = asked_hash(job.kind, json.loads(stored["json"]) if "json" in stored else data)
        return {**payload, "by": actor(by), "asked": asked}
    return {**payload, "layout": job.layout, "review": job.review}


def photos_sent(
    data: dict[str, Any], case_dir: CaseFiles | None, files: dict[str, str] | None = None
) -> tuple[dict[str, str], list[Problem]]:
    """The photos the case names, and its other ``files`` ({field: the name the case gives:
    a desk draft's map exhibit, docgen.desk.drafting.uploads}), as its job carries them ({the case's
    name: base64}), read from the case's folder as its renderers read them (confined to
    it: a desk draft's folder, or the case file's); or the problems: a file that cannot be
    read, or more bytes together than a job may carry (``DOCGEN_QUEUE_PHOTOS_MB``: they
    are stored in the job itself, docgen.queue.tasks.sent_files)."""
    # documents.exhibits and documents.photos load pydantic (+6 ms): loaded on first use
    from docgen.documents import exhibits, photos

    rows = data.get(FIELD) if case_dir is not None else None
    wanted = [
        (f"{FIELD}[{index}].file", row.get("file"), photos.MAX_BYTES, "a photo")
        for index, row in enumerate(rows if isinstance(rows, list) else [])
        if isinstance(row, dict)
    ]
    wanted += [
        (path, name, exhibits.MAX_BYTES, "a map exhibit") for path, name in (files or {}).items()
    ]
    sent: dict[str, bytes] = {}
    problems = []
    for path, name, most, what in wanted:
        if not isinstance(name, str) or not name or name in sent:
            continue  # no file named: the register says so, as for an issue made here
        try:
            sent[name], _ = exhibits.read_case_file(name, case_dir, most, what)
        except exhibits.ExhibitError as err:
            problems.append(Problem(path, str(err), WHY if what == "a photo" else ""))
    limit = Settings.from_env().photos_bytes
    total = sum(map(len, sent.values()))
    if total > limit:
        why = (
            f"the files sent with this case are {total / 2**20:.2f} MB together; a job for "
            f"the queue's workers carries at most {limit / 2**20:g} MB of files "
            "(DOCGEN_QUEUE_PHOTOS_MB): remove files the document does not need, or ask for "
            "the limit to be raised"
        )
        # beside the photos, or the case's only file field when it takes no photos
        where = FIELD if isinstance(rows, list) or not files else next(iter(files))
        problems.append(Problem(where, why, WHY if where == FIELD else ""))
    encoded = {name: base64.b64encode(blob).decode("ascii") for name, blob in sent.items()}
    return ({} if problems else encoded), problems


def defer(
    url: str, payloads: list[dict[str, Any]], queue: str, lock: str | None = None
) -> dict[int, str]:
    """One job per payload (to issue, those carrying ``by``), all in one transaction:
    {job id: key}. ``lock``: no two jobs holding it wait or run at once (a job already
    waiting under it is the one: nothing is added)."""
    # psycopg, procrastinate, attr take 110 ms to import: loaded on first use
    from procrastinate.exceptions import AlreadyEnqueued

    if not payloads:
        return {}
    task = ISSUE if "by" in payloads[0] else RENDER
    app = make_app(url, pool_size=1)
    options: dict[str, Any] = {"lock": lock, "queueing_lock": lock} if lock else {}
    with app.open():
        try:
            ids = app.tasks[task].configure(queue=queue, **options).batch_defer(*payloads)
        except AlreadyEnqueued:
            return {}
    return dict(zip(ids, (p["key"] for p in payloads), strict=True))


def outcomes(
    todo: Iterable[tuple[int, CaseInput]],
    job: Job,
    queue: str = DEFAULT_QUEUE,
    url: str | None = None,
    poll: float = 0.2,
    patience: float = 300.0,
    by: str | None = None,
    asked: dict[str, str] | None = None,
) -> Generator[Outcome, None, None]:
    """Every case's Outcome (in completion order), rendered by workers through the queue.
    ``asked`` (issuing): filled with each case's request hash by its source, for
    :func:`numbers_recorded`."""
    url = queue_url(url)
    engine = engine_for(url)
    try:
        check_installed(engine)
        store = Store(engine, Settings.from_env().store_bytes)
        batch = uuid.uuid4().hex
        waiting: dict[str, list[tuple[int, CaseInput]]] = {}
        payloads = []
        for index, case in todo:
            try:
                payload = job_payload(batch, case, job, by)
            except DocgenError as err:
                yield Outcome(index, case.source, error=with_source(str(err), case.source))
                continue
            if payload["key"] not in waiting:
                payloads.append(payload)
            waiting.setdefault(payload["key"], []).append((index, case))
            if asked is not None and "asked" in payload:
                asked[case.source] = payload["asked"]
        jobs = defer(url, payloads, queue)
        hashes = {p["key"]: p["asked"] for p in payloads if "asked" in p}
        try:
            yield from _collect(engine, url, store, batch, jobs, waiting, poll, patience, hashes)
        finally:
            _abandon(engine, store, batch, jobs, patience)
    finally:
        engine.dispose()


def _collect(
    engine: Engine,
    url: str,
    store: Store,
    batch: str,
    jobs: dict[int, str],
    waiting: dict[str, list[tuple[int, CaseInput]]],
    poll: float,
    patience: float,
    hashes: dict[str, str],
) -> Iterator[Outcome]:
    unreachable_since: float | None = None
    while waiting:
        try:
            results = store.finished(batch)
            failed = [] if results else _failed(engine, store, batch, jobs, waiting)
            recorded = _recorded(url, [hashes[key] for key, _ in failed if key in hashes])
            unreachable_since = None
        except (OperationalError, DBAPIError) as err:
            now = time.monotonic()
            unreachable_since = unreachable_since or now
            if now - unreachable_since > patience:
                raise QueueError(
                    f"the queue's database has not answered for {patience:g} s "
                    f"({str(getattr(err, 'orig', err)).strip().splitlines()[0]}); the jobs "
                    "stay queued: run the batch again with --resume"
                ) from None
            time.sleep(1.0)
            continue
        for result in results:
            for index, case in waiting.pop(result.key, []):
                yield _outcome(index, case, result)
        # Housekeeping: a database gone meanwhile leaves them to be read again next round
        # (nothing waits on them any more) and removed with the batch at its end.
        with contextlib.suppress(OperationalError, DBAPIError):
            store.forget(batch, [result.key for result in results])
        for key, cause in failed:
            number = recorded.get(hashes.get(key, ""))
            for index, case in waiting.pop(key, []):
                if number is not None:  # issued, its result lost: the register holds it
                    yield Outcome(index, case.source, number=number, unwritten=cause)
                else:
                    yield Outcome(index, case.source, error=f"{case.source}: not rendered: {cause}")
        if not results and not failed:
            time.sleep(poll)


def _outcome(index: int, case: CaseInput, result: Result) -> Outcome:
    return Outcome(
        index,
        case.source,
        stem=result.stem,
        blobs=dict(result.blobs),
        seconds=result.seconds,
        cpu_seconds=result.cpu_seconds,
        warnings=list(result.warnings),
        error=result.error,
        number=result.number,
    )


def _failed(
    engine: Engine,
    store: Store,
    batch: str,
    jobs: dict[int, str],
    waiting: dict[str, list[tuple[int, CaseInput]]],
) -> list[tuple[str, str]]:
    """Jobs the queue gave up on, with no result stored: (key, cause)."""
    open_ids = [job_id for job_id, key in jobs.items() if key in waiting]
    if not open_ids:
        return []
    query = text(
        f"SELECT id, status::text, attempts FROM {SCHEMA}.procrastinate_jobs "
        "WHERE id IN :ids AND status::text IN :final"
    ).bindparams(bindparam("ids", expanding=True), bindparam("final", expanding=True))
    with engine.connect() as conn:
        rows = conn.execute(query, {"ids": open_ids, "final": list(FINAL_FAILURES)}).all()
    keys = [jobs[job_id] for job_id, _, _ in rows if not store.done(batch, jobs[job_id])]
    causes = store.causes(batch, keys)
    failed = []
    for job_id, state, attempts in rows:
        key = jobs[job_id]
        if key not in keys:
            continue  # its result is stored after all: read on the next round
        cause = causes.get(key, "the worker gave no cause (see its log)")
        tries = f"after {attempts} tries" if state == "failed" else f"job {state}"
        failed.append((key, f"{cause} ({tries}; job {job_id})"))
    return failed


def _recorded(url: str, hashes: list[str]) -> dict[str, str]:
    """The register's numbers for these requests (docgen.register.matter.issuing.asked_hash)."""
    if not hashes:
        return {}
    # register.storage.db and others load sqlalchemy, cryptography, lxml (+270 ms):
    # loaded on first use
    from docgen.register.matter.issuing import numbers_asked
    from docgen.register.storage.db import make_engine, read_session

    engine = make_engine(url, readonly=True)
    try:
        with read_session(engine) as session:
            return numbers_asked(session, hashes)
    finally:
        engine.dispose()


def numbers_recorded(asked: dict[str, str], url: str | None = None) -> dict[str, str]:
    """What the register holds for a batch's cases: {source: number} of those recorded
    (``asked``: each case's request hash by its source, as :func:`outcomes` filled it)."""
    found = _recorded(queue_url(url), sorted(set(asked.values())))
    return {source: found[h] for source, h in asked.items() if h in found}


def _abandon(
    engine: Engine, store: Store, batch: str, jobs: dict[int, str], patience: float
) -> None:
    """The batch is over: its jobs still waiting are cancelled, those a worker holds are
    let finish (up to ``patience`` seconds: what they record is then known, for the
    report), and its results are removed."""
    try:
        if jobs:
            query = text(
                f"SELECT {SCHEMA}.procrastinate_cancel_job_v1(id, false, false) "
                f"FROM {SCHEMA}.procrastinate_jobs WHERE id IN :ids AND status = 'todo'"
            ).bindparams(bindparam("ids", expanding=True))
            with engine.begin() as conn:
                conn.execute(query, {"ids": list(jobs)})
            _settle(engine, list(jobs), patience)
        store.forget(batch)
    except (OperationalError, DBAPIError):
        pass  # the database is gone: the workers' pruning removes the results later


def _settle(engine: Engine, ids: list[int], patience: float, poll: float = 0.2) -> None:
    """Wait while a worker still holds one of ``ids`` (at most ``patience`` seconds)."""
    query = text(
        f"SELECT count(*) FROM {SCHEMA}.procrastinate_jobs WHERE id IN :ids AND status = 'doing'"
    ).bindparams(bindparam("ids", expanding=True))
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        with engine.connect() as conn:
            if not conn.execute(query, {"ids": ids}).scalar():
                return
        time.sleep(poll)
