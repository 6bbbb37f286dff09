"""Queue benchmark (not a test): prints the figures issue #23 asks for, with the targets.

    .venv/bin/python -m benchmarks.queue [--cases 200] [-f pdf] [--rounds 3]

N notices of violation (made from the kind's samples, each with its own number) go
through ``docgen batch --queue`` with one and with two ``docgen worker`` processes
(separate processes, as on other machines: their own DOCGEN_HOME and working folder),
``--rounds`` times each, one after the other, and through the local pool with -j 1 and
-j 2. Printed: documents per second of each once under way (first document to last, so
the local workers' warm-up inside the batch does not count against it); for each queue
run, its jobs' span (procrastinate's events: the first job started to the last finished)
and the CPU per job of the workers, this client and PostgreSQL; the speed-up of two
workers over one, from the median spans (target: at least 1.8x: on two cores shared
with other work, a round where the machine was busy shows as a slower span, and the CPU
per job says whether the queue or the machine took the time); and the queue's overhead
per job against the render itself (target: at most 5%), measured two
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


def timeline(url: str, since: float, until: float) -> dict[str, float]:
    """From procrastinate's events of the jobs of one run (between ``since`` and
    ``until``): the median time a job was held (started to finished: the render, and the
    worker's check and store), the median gap between one job's end and the next one's
    start on the same worker (its acknowledgement and its fetch), and the run's span (the
    first job started to the last finished: the workers' time, whenever the client read
    the results)."""
    import psycopg

    query = (
        "SELECT e.job_id, e.type::text, extract(epoch FROM e.at), j.worker_id "
        "FROM docgen_queue.procrastinate_events e "
        "JOIN docgen_queue.procrastinate_jobs j ON j.id = e.job_id "
        "WHERE e.type IN ('started', 'succeeded') AND e.at > to_timestamp(%s) "
        "AND e.at < to_timestamp(%s) ORDER BY e.at"
    )
    with psycopg.connect(url) as conn:
        events = conn.execute(query, (since, until)).fetchall()
    started = {job: float(at) for job, kind, at, _ in events if kind == "started"}
    ended = {job: float(at) for job, kind, at, _ in events if kind == "succeeded"}
    worker = {job: who for job, _, _, who in events}
    held = [ended[job] - started[job] for job in ended if job in started]
    gaps = []
    for who in set(worker.values()):
        order = sorted((at, job) for job, at in ended.items() if worker[job] == who)
        gaps += [
            started[after] - end
            for (end, _), (_, after) in itertools.pairwise(order)
            if after in started
        ]
    return {
        "held": statistics.median(held),
        "gap": statistics.median(gaps) if gaps else float("nan"),
        "span": max(ended.values()) - min(started.values()),
    }


def cpu_of(pid: int, reaped: bool = False) -> float:
    """The CPU seconds process ``pid`` has used (user and system, from /proc); with
    ``reaped``, those of its children that ended and were waited for too."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(f) for f in fields[11 : 15 if reaped else 13])
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """The CPU seconds of process ``pid`` and its children, living or ended (a `docgen
    worker` and its worker process; PostgreSQL's postmaster and its backends)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return cpu_of(pid, reaped=True) + sum(tree_cpu(int(child)) for child in children)


def postgres_cpu(server: str) -> float:
    """The CPU seconds of the benchmark's PostgreSQL server (its postmaster's tree)."""
    postmaster = pgserver.socket_folder(server) / "data" / "postmaster.pid"
    return tree_cpu(int(postmaster.read_text().split()[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("-f", "--formats", default="pdf", help="pdf, docx, html (comma list)")
    parser.add_argument("--rounds", type=int, default=3, help="one and two workers, each round")
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
        spans: dict[str, list[float]] = {"queue x1": [], "queue x2": []}
        seen: dict[str, dict[str, float]] = {}
        for round_, count in itertools.product(range(args.rounds), (1, 2)):
            label = f"queue x{count}"
            out = folder / f"{label} {round_}"
            workers = start_workers(url, count, out)
            before = [tree_cpu(w.pid) for w in workers], os.times(), postgres_cpu(server)
            since = time.time()
            try:
                walls[label], reports[label] = batch(cases, out, formats, queue="docgen")
            finally:
                after = [tree_cpu(w.pid) for w in workers], os.times(), postgres_cpu(server)
                for worker in workers:
                    worker.terminate()
                for worker in workers:
                    worker.wait()
            seen[label] = timeline(url, since, time.time())
            spans[label].append(seen[label]["span"])
            # CPU per job: the workers' (rendering), this client's (validating, deferring,
            # reading results, writing files) and PostgreSQL's
            client = sum(after[1][:2]) - sum(before[1][:2])
            worked = sum(after[0]) - sum(before[0])
            print(
                f"{label:>12}: {1 / walls[label]:5.2f} docs/s; jobs' span "
                f"{seen[label]['span']:.2f} s; CPU per job: workers "
                f"{worked / args.cases * 1000:.0f} ms, client "
                f"{client / args.cases * 1000:.0f} ms, PostgreSQL "
                f"{(after[2] - before[2]) / args.cases * 1000:.0f} ms  load {load()}"
            )
        print()
        # the jobs' span (workers' time from the first job started to the last finished),
        # median of the rounds: the client's reading of results does not enter it
        speedup = statistics.median(spans["queue x1"]) / statistics.median(spans["queue x2"])
        verdict = "meets" if speedup >= 1.8 else "MISSES"
        print(
            f"two workers over one: {speedup:.2f}x (median of {args.rounds} rounds' spans; "
            f"target >= 1.8x: {verdict})  load {load()}"
        )
        render = render_seconds(reports["queue x1"])
        end_to_end = walls["queue x1"] - walls["local -j 1"]
        share = end_to_end / render
        verdict = "meets" if share <= 0.05 else "MISSES"
        print(
            f"render per job (worker, median): {render * 1000:.0f} ms; queue overhead end to "
            f"end: {end_to_end * 1000:+.0f} ms per job = {share:+.1%} (target <= 5%: {verdict})"
        )
        one = seen["queue x1"]  # the last round's: its report's renders
        own = one["held"] - render + one["gap"]
        print(
            f"one worker's jobs (procrastinate's events): held {one['held'] * 1000:.0f} ms "
            f"(render {render * 1000:.0f} ms, so check + store {(one['held'] - render) * 1000:.0f}"
            f" ms), gap to the next {one['gap'] * 1000:.0f} ms: the queue's own "
            f"{own * 1000:.0f} ms per job = {own / render:.1%} of the render"
        )
        sizes = {entry["format"]: 0 for entry in reports["queue x1"].files}
        for entry in reports["queue x1"].files:
            path = folder / f"queue x1 {args.rounds - 1}" / entry["file"]
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
