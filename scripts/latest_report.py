"""The report of `make test-latest` (scripts/test-latest.sh): which installed versions differ
from requirements.lock, which newer releases a bound in pyproject.toml holds back, and what
the suite made of them (its closing line, each failure and each other package's warning).

    python scripts/latest_report.py requirements.lock PYTEST_LOG PYTEST_STATUS
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.metadata import distributions
from pathlib import Path

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(lock: Path) -> dict[str, str]:
    return {canonical(n): v for n, v in PIN.findall(lock.read_text(encoding="utf-8"))}


def installed() -> dict[str, str]:
    return {canonical(d.metadata["Name"]): d.version for d in distributions()}


def held_back() -> list[dict[str, str]]:
    """Newer releases than installed: what a bound in pyproject.toml (or a dependency's own)
    keeps out."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "list", "--outdated", "--format", "json",
         "--disable-pip-version-check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    try:
        return [row for row in json.loads(done.stdout) if canonical(row["name"]) != "docgen"]
    except json.JSONDecodeError:
        return []


def main(lock: Path, log: Path, status: int) -> None:
    pins, now = locked(lock), installed()
    print("make test-latest: the suite on the newest releases pyproject.toml allows")
    newer = [(n, pins[n], now[n]) for n in sorted(pins) if n in now and now[n] != pins[n]]
    print(f"\nversions that differ from requirements.lock: {len(newer)}")
    for name, old, new in newer:
        print(f"  {name}: {old} (locked) -> {new}")
    added = sorted(set(now) - set(pins) - {"docgen", "pip", "setuptools", "wheel"})
    if added:
        print(f"new dependencies the lock does not have: {', '.join(added)}")
    bound = held_back()
    print(f"\nnewer releases held back by a bound: {len(bound)}")
    for row in bound:
        print(f"  {row['name']}: {row['version']} installed, {row['latest_version']} released")
    text = log.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    closing = next((ln.strip("= ") for ln in reversed(lines) if " in " in ln and "s" in ln), "")
    print(f"\nthe suite: {closing or 'no closing line (see ' + str(log) + ')'}")
    failures = [ln for ln in lines if ln.startswith(("FAILED ", "ERROR "))]
    for ln in failures:
        print(f"  {ln}")
    warning = re.compile(r"\b\w*(?:Deprecation|Future)Warning: .+")
    warned = sorted({m.group(0) for m in warning.finditer(text)})
    if warned:
        print(f"\nother packages' warnings: {len(warned)}")
        for w in warned[:40]:
            print(f"  {w}")
    verdict = "passes" if status == 0 else "FAILS"
    print(f"\nverdict: the suite {verdict} on the newest releases (pytest exit {status});")
    print(f"the whole output: {log}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
