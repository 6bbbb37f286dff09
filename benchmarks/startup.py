"""Start-up benchmark (not a test): what a process spends before its first document, with
the compiled templates' folder empty (a first start) and filled (every start after it,
docgen.render.compiled).

    .venv/bin/python -m benchmarks.startup [--rounds 5]

Three fresh processes, each run ``--rounds`` times per state, their processor time
(user + system, the process and its children) summed over the run:
- the warm-up of a rendering process on every kind in PDF and DOCX (docgen.warm, as the
  desk's fork server and each queue worker do it);
- ``docgen render`` of the first-offense sample notice in every format;
- the desk's pages: every template of templates/desk, public and certify compiled.

The median of each is printed, beside the ratio filled / empty (target: the warm-up at
most 0.8 of a first start's; about 1.1 s of each is loading the engines and Python, which
no cache saves). Figures taken while other work runs are noisy: the load is
printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_WARM_UP_RATIO = 0.8
SAMPLE = ROOT / "fixtures" / "notice-of-violation" / "homer-first-offense.yaml"

WARM_UP = "from docgen.warm import warm_up; warm_up(None, ('pdf', 'docx'))"
PAGES = (
    "from docgen.desk.base.web import pages\n"
    "env = pages()\n"
    "for name in env.list_templates(filter_func=lambda t: t.endswith('.j2') and "
    "t.startswith(('desk/', 'public/', 'certify/'))):\n"
    "    env.get_template(name)\n"
)


def processor_seconds(args: list[str], env: dict[str, str]) -> float:
    """The processor time of ``args`` run to its end (it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, env=env, check=True, capture_output=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(name: str, args: list[str], rounds: int, folder: Path) -> tuple[float, float]:
    """Median processor seconds of ``args`` with the cache folder empty, then filled."""
    env = {**os.environ, "DOCGEN_CACHE": str(folder)}
    empty, filled = [], []
    for _ in range(rounds):
        shutil.rmtree(folder, ignore_errors=True)
        empty.append(processor_seconds(args, env))
        filled.append(processor_seconds(args, env))
    first, later = statistics.median(empty), statistics.median(filled)
    print(f"{name:<34} {first:6.2f} s {later:6.2f} s   {later / first:5.2f}")
    return first, later


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    python = sys.executable
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {rounds} rounds")
    print(f"{'processor time, median':<34} {'empty':>8} {'filled':>8}   ratio")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "cache"
        out = Path(scratch) / "out"
        warm = measure("warm-up, every kind (PDF, DOCX)", [python, "-c", WARM_UP], rounds, folder)
        render = [python, "-m", "docgen.cli", "render", "notice-of-violation", str(SAMPLE)]
        measure("docgen render, one notice", [*render, "-o", f"{out}/", "--force"], rounds, folder)
        measure("the desk's pages compiled", [python, "-c", PAGES], rounds, folder)
    ratio = warm[1] / warm[0]
    met = "met" if ratio <= TARGET_WARM_UP_RATIO else "NOT met"
    print(f"warm-up from the filled folder: {ratio:.2f} of a first start's ", end="")
    print(f"(target at most {TARGET_WARM_UP_RATIO}: {met})")
    return 0 if ratio <= TARGET_WARM_UP_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
