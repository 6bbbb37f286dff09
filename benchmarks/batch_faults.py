"""Batch robustness benchmark (not a test): the parent's memory and the cost of --resume.

    .venv/bin/python benchmarks/batch_faults.py [--memory-docs 1000] [--resume-cases 200]

1. Memory: a batch of ``--memory-docs`` documents (PDF and HTML, -j 2) in a fresh process;
   the parent's resident memory after the first 100 documents, at the end, and its peak,
   beside the bytes it wrote. The parent keeps no rendered bytes once written, so its
   memory must not grow with the output.
2. --resume: a full batch of ``--resume-cases`` cases in all three formats, then one case
   file changed and ``--resume`` run (three times, a different case each time); the time
   of a resume as a ratio to the full batch (the target: a small fraction; it re-renders
   one case and re-reads every other case and file to check its hash).
Timings taken while other work runs on the machine are noisy: the load is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from batch import load, make_cases, pick_kind, rss_mb  # noqa: E402  (the sibling benchmark)


def memory_child(kind: str, folder: Path, out: Path) -> dict[str, float]:
    from docgen import batch

    marks: dict[str, float] = {}

    def heard(_: object) -> None:
        marks["count"] = marks.get("count", 0) + 1
        if marks["count"] == 100:
            marks["after_100_mb"] = rss_mb()

    start = time.perf_counter()
    report = batch.run(kind, batch.collect([folder]), out, ("pdf", "html"), 2, on_outcome=heard)
    assert not report.failures, report.failures[:3]
    written = sum(p.stat().st_size for p in out.iterdir())
    return {
        "docs": report.documents,
        "seconds": time.perf_counter() - start,
        "after_100_mb": marks["after_100_mb"],
        "end_mb": rss_mb(),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "written_mb": written / 2**20,
    }


def timed_batch(kind: str, folder: Path, out: Path, resume: bool) -> tuple[float, int]:
    from docgen import batch

    start = time.perf_counter()
    report = batch.run(
        kind, batch.collect([folder]), out, ("pdf", "docx", "html"), 2, resume=resume
    )
    assert not report.failures, report.failures[:3]
    return time.perf_counter() - start, report.documents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory-docs", type=int, default=1000)
    parser.add_argument("--resume-cases", type=int, default=200)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, folder, out = args.child
        print(json.dumps(memory_child(kind, Path(folder), Path(out))))
        return

    began = time.perf_counter()
    kind = pick_kind()
    print(f"docgen batch robustness benchmark: {kind}, {os.cpu_count()} cores")
    print(f"load average at start: {load()}")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as tmp:
        work = Path(tmp)
        make_cases(kind, args.memory_docs, work / "many")
        run = subprocess.run(
            [sys.executable, __file__, "--child", kind, str(work / "many"), str(work / "out")],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise SystemExit(run.stderr[-3000:])
        memory = json.loads(run.stdout.strip().splitlines()[-1])

        folder = work / "resume"
        cases = make_cases(kind, args.resume_cases, folder)
        full, _ = timed_batch(kind, folder, work / "r", resume=False)
        resumes, rendered = [], []
        for case in cases[: 3 * 37 : 37]:
            case.write_text(case.read_text("utf-8") + "# changed\n", "utf-8")
            seconds, documents = timed_batch(kind, folder, work / "r", resume=True)
            resumes.append(seconds)
            rendered.append(documents)

    growth = memory["end_mb"] - memory["after_100_mb"]
    print()
    print(f"parent process memory, batch of {memory['docs']} documents (PDF + HTML, -j 2):")
    after, end, peak = memory["after_100_mb"], memory["end_mb"], memory["peak_mb"]
    print(f"  after 100 documents {after:.1f} MB, at the end {end:.1f} MB, peak {peak:.1f} MB")
    print(
        f"  growth {growth:+.1f} MB over {memory['docs'] - 100} documents while writing "
        f"{memory['written_mb']:.0f} MB"
    )
    print(f"  ({memory['seconds']:.0f} s)   target: growth well below the output size")
    resume = statistics.median(resumes)
    print(f"--resume after one of {args.resume_cases} case files changed (all formats, -j 2):")
    print(f"  full batch {full:.1f} s; resume, median of {len(resumes)}: {resume:.2f} s")
    print(f"  documents rendered by each resume: {rendered}")
    print(f"  resume / full batch: {resume / full:.3f}")
    print(f"load average at end: {load()}; benchmark took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
