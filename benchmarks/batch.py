"""Batch benchmark (not a test): prints the figures issue #6 asks for, with the targets.

    .venv/bin/python benchmarks/batch.py [--cases 200] [--memory-docs 1000]

For N notices of violation (penalty statements until that kind exists) made from the
kind's fixtures, it measures: the median ms per document for HTML, PDF and DOCX inside
docgen's batch workers; the same final HTML through bare WeasyPrint in a naive loop
(a fresh process; new HTML() + write_pdf() each time, default options, no shared font
configuration or CSS, stylesheet inlined) and the ratio; throughput at -j 1 and -j 2
and the parallel efficiency; memory growth per document over 1,000 PDFs in a warmed-up
worker; the start-up time of `docgen --help` and `docgen check`, and the time of one
`docgen render` to PDF (the engine loaded cold); and determinism (every fixture of every
kind in every format, rendered in two processes; and the two batches).
Figures taken while other work runs on the machine are noisy: the load is printed.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCGEN = Path(sys.executable).with_name("docgen")


def pick_kind() -> str:
    from docgen.documents import KINDS

    return "notice-of-violation" if "notice-of-violation" in KINDS else "penalty-statement"


def make_cases(kind: str, count: int, folder: Path) -> list[Path]:
    """``count`` case files cycling through the kind's fixtures, each with its own number."""
    from docgen.cases.loader import read_case_file
    from docgen.demo import sample_cases

    fixtures = [read_case_file(path) for k, path in sample_cases() if k == kind]
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        data = dict(fixtures[i % len(fixtures)])
        data["number"] = f"{data['number']}-{i:04d}"
        path = folder / f"case-{i:04d}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
        paths.append(path)
    return paths


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run_batch(kind: str, folder: Path, out: Path, jobs: int) -> tuple[object, float]:
    """One batch in all formats; the report and the steady rate (after the first document)."""
    from docgen import batch

    stamps: list[float] = []
    report = batch.run(
        kind,
        batch.collect([folder]),
        out,
        ("html", "pdf", "docx"),
        jobs,
        on_outcome=lambda _: stamps.append(time.perf_counter()),
    )
    steady = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 else 0.0
    return report, steady


# -- the parts run in fresh processes ------------------------------------------------------


def naive_loop(html_dir: Path, tagged: bool = False) -> dict[str, float]:
    """Bare WeasyPrint, as a first script would: new objects for every document.

    ``tagged``: with the options docgen writes by default (PDF/UA-1, tagged), so the ratio
    compares like with like; untagged is WeasyPrint's default, the issue's baseline.
    """
    import weasyprint

    options = {"pdf_variant": "pdf/ua-1", "pdf_tags": True} if tagged else {}
    pages = [p.read_text("utf-8") for p in sorted(html_dir.glob("*.html"))]
    weasyprint.HTML(string=pages[0]).write_pdf(**options)  # import and first page, not counted
    gc.collect()
    before = rss_mb()
    times, cpu = [], []
    for text in pages:
        start, start_cpu = time.perf_counter(), time.process_time()
        weasyprint.HTML(string=text).write_pdf(**options)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    gc.collect()
    return {
        "median": median(times),
        "cpu": median(cpu),
        "growth_mb": rss_mb() - before,
        "docs": len(pages),
    }


def memory_run(kind: str, folder: Path, docs: int) -> dict[str, float]:
    """A warmed-up worker renders ``docs`` PDFs; RSS before and after (after 50 to settle)."""
    from docgen import api
    from docgen.batch import worker

    worker.init_worker(worker.Job(kind, ("pdf",)))
    built = [api.build(kind, path) for path in sorted(folder.glob("*.yaml"))]
    for doc in built[:50]:
        api.to_bytes(doc, "pdf")
    gc.collect()
    before = rss_mb()
    start = time.perf_counter()
    for i in range(docs):
        api.to_bytes(built[i % len(built)], "pdf")
    seconds = time.perf_counter() - start
    gc.collect()
    return {"growth_mb": rss_mb() - before, "docs": docs, "before_mb": before, "seconds": seconds}


def fixture_hashes() -> dict[str, str]:
    from docgen import api
    from docgen.demo import sample_cases

    out = {}
    for kind, path in sample_cases():
        try:
            doc = api.build(kind, path)
            blobs = {fmt: api.to_bytes(doc, fmt) for fmt in api.FORMATS}
        except Exception as err:  # a fixture another change has broken: counted, not hashed
            blobs = {fmt: f"error: {type(err).__name__}: {err}".encode() for fmt in api.FORMATS}
        for fmt, blob in blobs.items():
            digest = "error" if blob.startswith(b"error: ") else hashlib.sha256(blob).hexdigest()
            out[f"{kind}/{path.name}/{fmt}"] = digest
    return out


def start_child(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, "--child", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> dict:
    stdout, stderr = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, proc.args))} failed:\n{stderr[-3000:]}")
    return json.loads(stdout.strip().splitlines()[-1])


def child(*args: str) -> dict:
    return finish(start_child(*args))


def wall(command: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return median(times)


# -- the report ----------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "meets target" if ok else "MISSES target"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--memory-docs", type=int, default=1000)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        part, *rest = args.child
        if part == "naive":
            print(json.dumps(naive_loop(Path(rest[0]), tagged=rest[1:] == ["tagged"])))
        elif part == "memory":
            print(json.dumps(memory_run(rest[0], Path(rest[1]), int(rest[2]))))
        elif part == "hashes":
            print(json.dumps(fixture_hashes()))
        return

    began = time.perf_counter()
    kind = pick_kind()
    print(f"docgen batch benchmark: {args.cases} x {kind}, {os.cpu_count()} cores")
    print(f"load average at start: {load()} (other work on the machine makes timings noisy)")
    with tempfile.TemporaryDirectory(prefix="docgen-bench-") as tmp:
        work = Path(tmp)
        folder = work / "cases"
        make_cases(kind, args.cases, folder)

        one, steady_one = run_batch(kind, folder, work / "j1", 1)
        two, steady_two = run_batch(kind, folder, work / "j2", 2)
        for report in (one, two):
            assert not report.failures, report.failures  # type: ignore[attr-defined]

        timings, cpu = one.timings, one.cpu_timings  # type: ignore[attr-defined]
        html_ms, pdf_ms, docx_ms = (median(timings[f]) for f in ("html", "pdf", "docx"))
        html_cpu, pdf_cpu, docx_cpu = (median(cpu[f]) for f in ("html", "pdf", "docx"))
        naive = child("naive", str(work / "j1"))
        naive_tagged = child("naive", str(work / "j1"), "tagged")
        fixture = str(ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml")
        help_s = wall([str(DOCGEN), "--help"])
        check_s = wall([str(DOCGEN), "check", "penalty-statement", fixture])
        render_s = wall(
            [str(DOCGEN), "render", "penalty-statement", fixture, "-f", "pdf", "-o", "-"]
        )
        # No timings from here on: memory and hashes share the two cores.
        memory_proc = start_child("memory", kind, str(folder), str(args.memory_docs))
        first, second = child("hashes"), child("hashes")
        memory = finish(memory_proc)
        same_fixtures = sum(first[k] == second.get(k) != "error" for k in first)
        broken = sum(first[k] == "error" or second.get(k) == "error" for k in first)
        m1 = json.loads((work / "j1" / "manifest.json").read_text("utf-8"))
        m2 = json.loads((work / "j2" / "manifest.json").read_text("utf-8"))
        same_batch = sum(a == b for a, b in zip(m1["files"], m2["files"], strict=True))

    ratio, ratio_cpu = pdf_ms / naive["median"], pdf_cpu / naive["cpu"]
    rate_one, rate_two = one.rate, two.rate  # type: ignore[attr-defined]
    speedup = rate_two / rate_one
    steady_speedup = steady_two / steady_one
    growth = memory["growth_mb"] / memory["docs"]
    naive_growth = naive["growth_mb"] / naive["docs"]
    docx_ratio, docx_ratio_cpu = docx_ms / pdf_ms, docx_cpu / pdf_cpu

    print()
    print(f"per document, median, in docgen's batch (-j 1, {args.cases} documents):")
    print("                                           wall       CPU")
    print(f"  HTML (validate + template + standalone)  {ms(html_ms):>9}  {ms(html_cpu):>9}")
    print(f"  PDF                                      {ms(pdf_ms):>9}  {ms(pdf_cpu):>9}")
    print(f"  DOCX                                     {ms(docx_ms):>9}  {ms(docx_cpu):>9}")
    print(
        f"bare WeasyPrint, naive loop, same HTML     {ms(naive['median']):>9}  "
        f"{ms(naive['cpu']):>9}"
    )
    print(
        f"  docgen PDF / naive                       {ratio:8.2f}x  {ratio_cpu:8.2f}x   "
        f"(target <= 0.80: {verdict(ratio <= 0.8)} on wall time)"
    )
    tagged_ratio = pdf_ms / naive_tagged["median"]
    tagged_ratio_cpu = pdf_cpu / naive_tagged["cpu"]
    print(
        f"bare WeasyPrint, naive, PDF/UA as docgen  {ms(naive_tagged['median']):>9}  "
        f"{ms(naive_tagged['cpu']):>9}"
    )
    print(
        f"  docgen PDF / naive PDF/UA (like for like) {tagged_ratio:7.2f}x  "
        f"{tagged_ratio_cpu:8.2f}x   (target <= 0.80: {verdict(tagged_ratio <= 0.8)} on wall time)"
    )
    print(
        f"  DOCX / PDF                               {docx_ratio:8.2f}x  {docx_ratio_cpu:8.2f}x   "
        f"(target <= 0.35: {verdict(docx_ratio <= 0.35)} on wall time)"
    )
    print("throughput, all three formats per document, wall time including worker start-up:")
    print(f"  -j 1  {rate_one:6.1f} docs/s  ({one.seconds:.1f} s)")  # type: ignore[attr-defined]
    print(f"  -j 2  {rate_two:6.1f} docs/s  ({two.seconds:.1f} s)")  # type: ignore[attr-defined]
    print(
        f"  speed-up {speedup:.2f}x, parallel efficiency {speedup / 2:.0%}   "
        f"(target >= 1.75x: {verdict(speedup >= 1.75)})"
    )
    print(
        f"  steady state (after the first document): -j 1 {steady_one:.1f}, -j 2 "
        f"{steady_two:.1f} docs/s, {steady_speedup:.2f}x"
    )
    print(f"memory over {memory['docs']} PDFs in one warmed-up worker:")
    print(
        f"  {memory['before_mb']:.1f} MB -> +{memory['growth_mb']:.2f} MB, "
        f"{growth:.4f} MB/document   (target <= 0.02: {verdict(growth <= 0.02)})"
    )
    print(
        f"  naive loop for comparison: {naive_growth:.4f} MB/document over "
        f"{naive['docs']} documents"
    )
    print("start-up (median of 7 runs):")
    print(f"  docgen --help   {help_s:.3f} s   (target <= 0.3: {verdict(help_s <= 0.3)})")
    print(f"  docgen check    {check_s:.3f} s   (target <= 0.3: {verdict(check_s <= 0.3)})")
    print(
        f"  docgen render   {render_s:.3f} s   (one PDF: the engine loaded and warmed; no target)"
    )
    print("determinism:")
    print(
        f"  every fixture x format, two processes: {same_fixtures}/{len(first)} identical"
        + (f" ({broken} did not render)" if broken else "")
    )
    print(f"  the -j 1 and -j 2 batches: {same_batch}/{len(m1['files'])} files identical")
    print(f"load average at end: {load()}; benchmark took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
