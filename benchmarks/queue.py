"""Queue benchmark (not a test): prints the figures issue #23 asks for, with the targets.

    .venv/bin/python -m benchmarks.queue [--cases 200] [-f pdf]

N notices of violation (made from the kind's samples, each with its own number) go
through ``docgen batch --queue`` with one and with two ``docgen worker`` processes
(separate processes, as on other machines: their own DOCGEN_HOME and working folder),
and through the local pool with -j 1 and -j 2. Printed: documents per second of each
once under way (first document to last, so the local workers' warm-up inside the batch
does not count against it); the speed-up of two workers over one (target: at least
1.8x); and the queue's overhead per job against the render itself (target: at most 5%), measured two
ways: end to end (one worker against -j 1: the same renders one after the other, so the
difference is the queue's defer, fetch, store and read) and piece by piece (defer per
job in one transaction; a result of this size stored, read back and removed). The
database is a throwaway PostgreSQL server on loopback, started as the tests start
theirs. The machine is shared: the load average is printed with every figure.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.batch import load, make_cases
from tests.helpers import pgserver

KIND = "notice-of-violation"


def wait_workers(url: str, count: int) -> None:
    import psycopg

    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        with psycopg.connect(url) as conn:
            found = conn.execute("SELECT count(*) FROM docgen_queue.procrastinate_workers")
            if found.fetchone()[0] >= count:
                return
        time.sleep(0.2)
    raise SystemExit(f"{count} worker(s) did not start")


def start_workers(url: str, count: int, folder: Path) -> list[subprocess.Popen]:
    """``count`` machines of one worker process each (so each is a machine of its own)."""
    started = []
    for number in range(count):
        home, cwd = folder / f"m{number}-home", folder / f"m{number}-cwd"
        home.mkdir(parents=True)
        cwd.mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DOCGEN_")}
        env.update(DOCGEN_DATABASE_URL=url, DOCGEN_HOME=str(home))
        started.append(
            subprocess.Popen(
                [sys.executable, "-m", "docgen.cli", "worker", "-c", "1"],
                cwd=cwd,
                env=env,
                stderr=subprocess.DEVNULL,
            )
        )
    wait_workers(url, count)
    return started


def batch(cases: Path, out: Path, formats: tuple[str, ...], **how: object) -> tuple[float, object]:
    """Seconds per document once under way (first document to last: the local pool's
    workers warm up inside the batch, the queue's before it), and the report."""
    from docgen import batch as engine

    stamps: list[float] = []
    report = engine.run(
        KIND,
        engine.collect([cases]),
        out,
        formats,
        on_outcome=lambda _: stamps.append(time.perf_counter()),
        **how,
    )
    assert report.complete and not report.failures, report.failures
    return (stamps[-1] - stamps[0]) / (len(stamps) - 1), report


def render_seconds(report: object) -> float:
    """The median seconds a worker spent rendering one case (every format)."""
    per_doc = [sum(values) for values in zip(*report.timings.values(), strict=True)]
    return statistics.median(per_doc)


def pieces(url: str, cases: Path, formats: tuple[str, ...], sample: object) -> dict[str, float]:
    """The queue's own costs per job, one at a time: defer (in one transaction with the
    others), and a result of the size measured stored, read back and removed."""
    from docgen.batch import collect
    from docgen.batch.worker import Job, Outcome
    from docgen.queue.app import Settings
    from docgen.queue.client import defer, job_payload
    from docgen.queue.results import Store
    from docgen.queue.worker import engine_for

    job = Job(KIND, formats, "pdf/ua-1")
    found = collect([cases])
    start = time.perf_counter()
    payloads = [job_payload("bench", case, job) for case in found]
    validate = (time.perf_counter() - start) / len(found)
    start = time.perf_counter()
    defer(url, payloads, "bench-idle")  # a queue no worker serves
    deferred = (time.perf_counter() - start) / len(found)
    engine = engine_for(url)
    store = Store(engine, Settings().store_bytes)
    blobs = {fmt: os.urandom(size) for fmt, size in sample.items()}
    times = []
    for number in range(50):
        outcome = Outcome(0, "bench", stem="bench", blobs=blobs)
        start = time.perf_counter()
        store.store("bench", str(number), outcome)
        (result,) = store.finished("bench")
        store.forget("bench", [result.key])
        times.append(time.perf_counter() - start)
    engine.dispose()
    return {"validate": validate, "defer": deferred, "store+read": statistics.median(times)}


def timeline(url: str, since: float) -> dict[str, float]:
    """From procrastinate's events of the jobs deferred after ``since`` (one worker):
    the median time a job was held (started to finished: the render, and the worker's
    check and store), and the median gap between one job's end and the next one's start
    (the worker's acknowledgement and its fetch)."""
    import psycopg

    query = (
        "SELECT job_id, type::text, extract(epoch FROM at) FROM docgen_queue.procrastinate_events "
        "WHERE type IN ('started', 'succeeded') AND at > to_timestamp(%s) ORDER BY at"
    )
    with psycopg.connect(url) as conn:
        events = conn.execute(query, (since,)).fetchall()
    started = {job: float(at) for job, kind, at in events if kind == "started"}
    ended = {job: float(at) for job, kind, at in events if kind == "succeeded"}
    held = [ended[job] - started[job] for job in ended if job in started]
    order = sorted(ended.items(), key=lambda item: item[1])
    gaps = [
        started[after] - end
        for (_, end), (after, _) in itertools.pairwise(order)
        if after in started
    ]
    return {"held": statistics.median(held), "gap": statistics.median(gaps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("-f", "--formats", default="pdf", help="pdf, docx, html (comma list)")
    args = parser.parse_args()
    formats = tuple(args.formats.split(","))
    if not pgserver.available():
        raise SystemExit(f"PostgreSQL server binaries not found in {pgserver.PG_BIN}")
    from docgen.register import Register

    print(f"{args.cases} notices, formats {','.join(formats)}; cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp, pgserver.postgres() as server:
        folder = Path(tmp)
        url = pgserver.create_database(server, "bench")
        Register.open(url).close()
        os.environ["DOCGEN_DATABASE_URL"] = url
        cases = folder / "cases"
        make_cases(KIND, args.cases, cases)
        walls: dict[str, float] = {}
        reports: dict[str, object] = {}
        for label, jobs in (("local -j 1", 1), ("local -j 2", 2)):
            walls[label], reports[label] = batch(cases, folder / label, formats, jobs=jobs)
            print(f"{label:>12}: {1 / walls[label]:5.2f} docs/s  load {load()}")
        marks: dict[str, float] = {}
        for count in (1, 2):
            label = f"queue x{count}"
            workers = start_workers(url, count, folder / label)
            marks[label] = time.time()
            try:
                walls[label], reports[label] = batch(cases, folder / label, formats, queue="docgen")
            finally:
                for worker in workers:
                    worker.terminate()
                for worker in workers:
                    worker.wait()
            print(f"{label:>12}: {1 / walls[label]:5.2f} docs/s  load {load()}")
        print()
        speedup = walls["queue x1"] / walls["queue x2"]
        verdict = "meets" if speedup >= 1.8 else "MISSES"
        print(f"two workers over one: {speedup:.2f}x (target >= 1.8x: {verdict})")
        render = render_seconds(reports["queue x1"])
        end_to_end = walls["queue x1"] - walls["local -j 1"]
        share = end_to_end / render
        verdict = "meets" if share <= 0.05 else "MISSES"
        print(
            f"render per job (worker, median): {render * 1000:.0f} ms; queue overhead end to "
            f"end: {end_to_end * 1000:+.0f} ms per job = {share:+.1%} (target <= 5%: {verdict})"
        )
        seen = timeline(url, marks["queue x1"])
        own = seen["held"] - render + seen["gap"]
        print(
            f"one worker's jobs (procrastinate's events): held {seen['held'] * 1000:.0f} ms "
            f"(render {render * 1000:.0f} ms, so check + store {(seen['held'] - render) * 1000:.0f}"
            f" ms), gap to the next {seen['gap'] * 1000:.0f} ms: the queue's own "
            f"{own * 1000:.0f} ms per job = {own / render:.1%} of the render"
        )
        sizes = {entry["format"]: 0 for entry in reports["queue x1"].files}
        for entry in reports["queue x1"].files:
            path = folder / "queue x1" / entry["file"]
            sizes[entry["format"]] = max(sizes[entry["format"]], path.stat().st_size)
        parts = pieces(url, cases, formats, sizes)
        own = parts["defer"] + parts["store+read"]
        print(
            f"queue's own work per job: defer {parts['defer'] * 1000:.2f} ms, store + read + "
            f"remove {parts['store+read'] * 1000:.2f} ms = {own / render:.1%} of the render "
            f"(validating here: {parts['validate'] * 1000:.1f} ms, as the local batch's "
            f"workers do)  load {load()}"
        )


if __name__ == "__main__":
    main()
