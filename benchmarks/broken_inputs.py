"""Broken-input timing (not a test): how long `docgen render` takes to refuse each broken
case file of tests/helpers/broken_cases.py, against the issue's two-second target.

    .venv/bin/python -m benchmarks.broken_inputs

Each case runs as a fresh `docgen render KIND CASE -o DIR/` process (wall time, start-up
included), so the figure is what a clerk waits. A 4.9 MB valid-but-useless YAML file
(just under the size limit) is timed too. The machine's load is printed: figures taken
while other work runs are noisy.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.helpers.broken_cases import Broken, broken_cases, write

ROOT = Path(__file__).resolve().parent.parent

TARGET_S = 2.0


def refuse(tmp: Path, case: Broken) -> tuple[float, int, str]:
    path = write(tmp, case)
    out = tmp / f"out-{path.stem}"
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "docgen.cli", "render", case.kind, str(path), "-o", f"{out}/"],
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    first = (run.stderr.strip().splitlines() or [""])[0]
    return elapsed, run.returncode, first


def main() -> None:
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    cases = broken_cases()
    near_limit = "# just under the limit\n" + "- filler line of a list\n" * 200_000
    cases.append(
        Broken(
            "4.9 MB list (under the limit)", "penalty-statement", near_limit.encode(), "found list"
        )
    )
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            elapsed, code, message = refuse(Path(tmp), case)
            worst = max(worst, elapsed)
            ok = "ok " if code == 1 and elapsed <= TARGET_S else "SLOW" if code == 1 else "EXIT"
            print(f"{ok} {elapsed:5.2f} s  exit {code}  {case.name:<34} {message[-70:]}")
    print(f"{len(cases)} broken files; slowest {worst:.2f} s (target {TARGET_S:.0f} s each)")


if __name__ == "__main__":
    main()
