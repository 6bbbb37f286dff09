"""`docgen worker`: render jobs from the queue on this machine, one process per core.

Rendering is CPU-bound, so a worker is a process, never an async task: each runs one
procrastinate worker with one job at a time. Each is forked warm from a fork server that
loaded the engines and warmed up every kind once (every kind's templates, the fonts, one
page of each format: docgen.preload, as for the desk's renderers), so a worker started,
or restarted after one died, does not load everything again. The parent watches them: it
restarts one that dies, gives the jobs of workers that stopped answering (no heartbeat for
three intervals, on any machine) to others or fails them once their attempts are used
up, and removes results no client came back for. SIGTERM (or Ctrl-C) stops the workers
gracefully: the job in hand finishes and is stored, no new one is taken. A worker that
loses the database keeps trying to reconnect, waiting longer each time (up to 30 s); the
parent says once that the connection was lost and once that it is back (``outage``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError, OperationalError

from docgen.queue.app import SCHEMA, QueueError, Settings, connection_options, queue_url
from docgen.queue.outage import Outage, cause_of, connection_error, quiet_worker_logging
from docgen.queue.results import Store
from docgen.queue.tasks import make_app
from docgen.render import PRELOAD
from docgen.render.formats import FORMATS
from docgen.render.processes import Start

RECOVERY_LOCK = 4242078  # one recoverer at a time, across machines
# What the workers' fork server loads: the engines warmed up on every kind, and this
# module (each worker's start), about 4 s of the processor once instead of in every
# worker. The register is loaded by a worker's first issue job, as it was: loaded here
# too, it made one worker take its first job later than a spawned one (4.6 s against 4.2).
LOADED = (*PRELOAD, __name__)


def engine_for(url: str) -> Engine:
    """An engine whose connections find procrastinate's tables (and functions' tables)."""
    # register.storage.db loads sqlalchemy (+140 ms): loaded on first use
    from docgen.register.storage.db import driver_url

    return create_engine(
        driver_url(url),
        connect_args={"connect_timeout": 10, **connection_options()},
        pool_pre_ping=True,
    )


def check_installed(engine: Engine) -> None:
    """The queue's schema is there (``docgen register upgrade`` installs it)."""
    with engine.connect() as conn:
        found = conn.execute(text(f"SELECT to_regclass('{SCHEMA}.procrastinate_jobs')")).scalar()
    if found is None:
        raise QueueError(
            "the queue is not installed in this register; run `docgen register upgrade` "
            "(it installs the queue's tables on PostgreSQL)"
        )


def run(
    concurrency: int | None = None,
    queue: str = "docgen",
    url: str | None = None,
    say: Callable[[str], None] = print,
) -> None:
    """Start ``concurrency`` worker processes (default: one per core) and watch them until
    SIGTERM, SIGINT or SIGHUP; then stop them gracefully and return."""
    # batch.guard loads the batch and pydantic, yaml (+170 ms); register.storage.db loads
    # sqlalchemy (+140 ms): loaded on first use
    from docgen.batch.guard import handled
    from docgen.register.storage.db import guarded

    url = queue_url(url)
    settings = Settings.from_env()
    engine = engine_for(url)
    with guarded(url):
        check_installed(engine)
    count = concurrency or os.cpu_count() or 1
    stopping = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        handled(sig, on_signal)  # one ignored as the worker started (nohup) stays ignored
    context = Start(LOADED).context()

    def start(number: int) -> Any:
        process = context.Process(
            target=serve,
            args=(url, queue, settings, os.getpid(), f"{os.uname().nodename}:{number}"),
            name=f"docgen-worker-{number}",
        )
        process.start()
        return process

    store = Store(engine, settings.store_bytes)
    processes = [start(number) for number in range(count)]
    say(f"{count} worker process(es) on queue {queue!r}; SIGTERM or Ctrl-C stops them")
    outage = Outage(say)
    try:
        while not stopping.wait(min(settings.heartbeat, 5.0)):
            try:
                for line in recover_stalled(engine, settings, store):
                    say(line)
                store.prune()
                outage.answered()
            except OperationalError as err:
                outage.failed(err)
            except DBAPIError as err:
                say(f"could not look for stalled jobs: {cause_of(err)}")
            for number, process in enumerate(processes):
                if not process.is_alive() and not stopping.is_set():
                    say(f"worker {number} ended (exit code {process.exitcode}); starting another")
                    processes[number] = start(number)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: the job in hand finishes first
        for process in processes:
            process.join()
        engine.dispose()
    say("workers stopped")


def serve(url: str, queue: str, settings: Settings, parent: int, name: str) -> None:
    """One worker process: warm up, then take jobs until SIGTERM."""
    # batch.guard and others load pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.batch.guard import die_with_parent
    from docgen.batch.worker import Job, prepare_process
    from docgen.documents import the_kind

    die_with_parent(parent)
    quiet_worker_logging(name)
    # Warmed on the kind a matter opens with (the notice of violation, the most issued).
    warm = the_kind(opens_matter=True)
    prepare_process(Job(warm, tuple(FORMATS), "pdf/ua-1"), every_kind=True)
    asyncio.run(_serve(url, queue, settings, name))


async def _serve(url: str, queue: str, settings: Settings, name: str) -> None:
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    running: list[asyncio.Task[Any]] = []

    def stop() -> None:
        stopping.set()
        for task in running:
            task.cancel()  # procrastinate then lets the job in hand finish

    loop.add_signal_handler(signal.SIGTERM, stop)
    engine = engine_for(url)
    store = Store(engine, settings.store_bytes)
    register: list[Any] = []

    def opened() -> Any:  # the register, opened on the first issue job
        if not register:
            # register.store loads sqlalchemy, pydantic, cryptography (+450 ms): loaded on first use
            from docgen.register import Register

            register.append(Register.open(url, migrate=False))
        return register[0]

    pause = 1.0
    while not stopping.is_set():
        app = make_app(url, settings)
        try:
            async with app.open_async():
                task = asyncio.create_task(
                    app.run_worker_async(
                        queues=[queue],
                        name=name,
                        concurrency=1,
                        install_signal_handlers=False,
                        update_heartbeat_interval=settings.heartbeat,
                        stalled_worker_timeout=settings.stalled_after,
                        additional_context={"store": store, "register": opened},
                    )
                )
                running[:] = [task]
                await task
            pause = 1.0
        except asyncio.CancelledError:
            break
        except Exception as err:
            if connection_error(err) is None:  # a lost database is the parent's to report
                print(f"worker {name}: {cause_of(err)}; reconnecting", file=sys.stderr)
        finally:
            running.clear()
        if not stopping.is_set():
            try:
                await asyncio.wait_for(stopping.wait(), pause)
            except TimeoutError:
                pause = min(pause * 2, 30.0)
    engine.dispose()


_STALLED = f"""
SELECT j.id, j.attempts, j.args FROM {SCHEMA}.procrastinate_jobs j
  LEFT JOIN {SCHEMA}.procrastinate_workers w ON w.id = j.worker_id
 WHERE j.status = 'doing'
   AND (w.id IS NULL OR w.last_heartbeat < now() - make_interval(secs => :silent))
"""


def recover_stalled(engine: Engine, settings: Settings, store: Any) -> list[str]:
    """Jobs of workers that stopped answering: tried again after the backoff, or failed
    with their cause once their attempts are used up. Locked row by row, so a job a
    healthy worker has since taken is never touched."""
    said = []
    with engine.begin() as conn:
        if not conn.execute(
            text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": RECOVERY_LOCK}
        ).scalar():
            return []
        rows = conn.execute(
            text(_STALLED + " FOR UPDATE OF j SKIP LOCKED"), {"silent": settings.stalled_after}
        ).all()
        for job_id, attempts, args in rows:
            cause = (
                f"the worker rendering it stopped answering (no heartbeat for "
                f"{settings.stalled_after:g} s), on try {attempts + 1} of {settings.attempts}"
            )
            if attempts + 1 >= settings.attempts:
                conn.execute(
                    text(f"SELECT {SCHEMA}.procrastinate_finish_job_v1(:id, 'failed', false)"),
                    {"id": job_id},
                )
                said.append(f"job {job_id} failed: {cause}")
            else:
                wait = settings.backoff ** (attempts + 1) if settings.backoff else 0
                conn.execute(
                    text(
                        f"SELECT {SCHEMA}.procrastinate_retry_job_v2(:id, "
                        "now() + make_interval(secs => :wait), NULL, NULL, NULL)"
                    ),
                    {"id": job_id, "wait": wait},
                )
                said.append(f"job {job_id} given to another worker: {cause}")
            if isinstance(args, dict) and "batch" in args:
                conn.execute(
                    text(
                        f"INSERT INTO {SCHEMA}.results (batch, key, cause) VALUES (:b, :k, :c) "
                        "ON CONFLICT (batch, key) DO UPDATE SET cause = excluded.cause"
                    ),
                    {"b": args["batch"], "k": args["key"], "c": cause},
                )
    return said


@dataclass
class Status:
    """The queue's health: jobs by state (per queue), workers and the result store."""

    jobs: dict[str, dict[str, int]] = field(default_factory=dict)  # queue -> state -> count
    stalled: int = 0
    workers: list[tuple[int, float, str]] = field(default_factory=list)  # id, silent s, job
    store_bytes: int = 0
    store_limit: int = 0


def status(url: str | None = None) -> Status:
    # register.storage.db loads sqlalchemy (+140 ms): loaded on first use
    from docgen.register.storage.db import guarded

    url = queue_url(url)
    settings = Settings.from_env()
    engine = engine_for(url)
    found = Status(store_limit=settings.store_bytes)
    try:
        with guarded(url):
            check_installed(engine)
            with engine.connect() as conn:
                for queue, state, count in conn.execute(
                    text(
                        f"SELECT queue_name, status::text, count(*) FROM "
                        f"{SCHEMA}.procrastinate_jobs GROUP BY 1, 2 ORDER BY 1, 2"
                    )
                ):
                    found.jobs.setdefault(queue, {})[state] = count
                found.stalled = len(
                    conn.execute(text(_STALLED), {"silent": settings.stalled_after}).all()
                )
                found.workers = [
                    (worker, float(silent), job or "")
                    for worker, silent, job in conn.execute(
                        text(
                            "SELECT w.id, extract(epoch FROM now() - w.last_heartbeat), "
                            "string_agg(j.id::text || ' ' || coalesce(j.args->>'source', ''), "
                            f"', ') FROM {SCHEMA}.procrastinate_workers w LEFT JOIN "
                            f"{SCHEMA}.procrastinate_jobs j ON j.worker_id = w.id AND "
                            "j.status = 'doing' GROUP BY w.id ORDER BY w.id"
                        )
                    )
                ]
                found.store_bytes = int(
                    conn.execute(
                        text(f"SELECT coalesce(sum(size), 0) FROM {SCHEMA}.result_files")
                    ).scalar_one()
                )
    finally:
        engine.dispose()
    return found


def status_lines(found: Status, stalled_after: float) -> list[str]:
    states = ("todo", "doing", "succeeded", "failed", "cancelled", "aborted")
    names = {"todo": "waiting", "doing": "running"}
    lines = []
    for queue, counts in sorted(found.jobs.items()):
        shown = ", ".join(f"{counts.get(s, 0)} {names.get(s, s)}" for s in states if s in counts)
        lines.append(f"queue {queue}: {shown}")
    if not found.jobs:
        lines.append("no jobs")
    # one rule for the count and the list: a worker silent over ``stalled_after`` is stalled
    stalled = [worker for worker, silent, _ in found.workers if silent > stalled_after]
    lines.append(
        f"stalled (worker silent over {stalled_after:g} s): {len(stalled)} worker(s), "
        f"{found.stalled} job(s) to give to another worker"
    )
    lines.append(f"workers: {len(found.workers)}")
    for worker, silent, job in found.workers:
        state = "stalled" if worker in stalled else "alive"
        doing = f", rendering job {job}" if job else ", idle"
        lines.append(f"  worker {worker}: {state}, last heartbeat {silent:.1f} s ago{doing}")
    lines.append(
        f"result store: {found.store_bytes / 2**20:.1f} MB of {found.store_limit / 2**20:g} MB"
    )
    return lines
