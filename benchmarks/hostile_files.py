"""Hostile files benchmark (not a test): the time and peak memory of refusing a 1 MB zip
bomb as counsel's final and a ~190-byte PDF bomb as a map exhibit, and of issuing a real
final (draft, redline, PDF/A through LibreOffice), each in a fresh process.

    .venv/bin/python benchmarks/hostile_files.py [--code DIR]

``--code DIR``: a checkout whose docgen package is measured instead (to compare with an
earlier commit: `git archive COMMIT docgen templates | tar -x -C DIR`). A process's peak is
its own resident set or that of the helpers it waited for (LibreOffice, the redline
engine), the larger; a run past 300 s or 4 GB of address space is stopped and said so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "fixtures" / "maintenance-easement" / "homer-llc-two-signers.yaml"

# Each runs in a child process, timed from after docgen is imported and the register opened;
# PAYLOAD is the file's path, HOME a scratch folder, reg the register.
MEASURED = {
    "refuse a 1 MB zip bomb as the final": """
try:
    final = Issue(final=open(PAYLOAD, "rb").read())
    reg.issue("maintenance-easement", CASE, final, formats=("docx",))
    said = "accepted"
except Exception as err:
    said = "refused: " + str(err)[:90]
""",
    "refuse a ~190-byte PDF bomb as the exhibit": """
data = yaml.safe_load(open(CASE, encoding="utf-8"))
del data["easement"]["metes_and_bounds"]
shutil.copy(PAYLOAD, f"{HOME}/map.pdf")
data["easement"]["exhibit"] = "map.pdf"
case = f"{HOME}/case.yaml"
yaml.safe_dump(data, open(case, "w", encoding="utf-8"))
try:
    api.check("maintenance-easement", case)
    said = "accepted"
except Exception as err:
    said = "refused: " + str(err)[-90:]
""",
    "issue a real final (redline and PDF/A)": """
issued = reg.issue("maintenance-easement", CASE, Issue(final=open(PAYLOAD, "rb").read()))
said = "issued " + issued.number + " with " + ", ".join(sorted(issued.hashes))
""",
}
CHILD = """
import resource, sys, time
sys.path.insert(0, {code!r})
CASE, PAYLOAD, HOME = {case!r}, {payload!r}, {home!r}
import shutil, yaml  # the register opened and docgen imported before the clock starts
from docgen import api
from docgen.register import Issue, Register
reg = Register.open(f"sqlite:///{{HOME}}/db.sqlite")
started = time.perf_counter()
{body}
took = time.perf_counter() - started
usage = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
peak = max(resource.getrusage(w).ru_maxrss for w in usage)
print(__import__("json").dumps({{"seconds": took, "peak_mb": peak / 1024, "said": said}}))
"""


def payloads(folder: Path) -> dict[str, Path]:
    sys.path.insert(0, str(ROOT))
    from tests.helpers import hostile

    files = {
        "refuse a 1 MB zip bomb as the final": hostile.document_bomb(1024),
        "refuse a ~190-byte PDF bomb as the exhibit": hostile.pdf_page_bomb(),
    }

    def edit(document):
        p = hostile.paragraph(document, hostile.OBSTRUCTION)
        p.runs[-1].text = p.runs[-1].text.replace("fence", "shed, fence")

    files["issue a real final (redline and PDF/A)"] = hostile.edited(edit)
    paths = {}
    for what, blob in files.items():
        paths[what] = folder / f"{len(paths)}.bin"
        paths[what].write_bytes(blob)
    return paths


def measure(code: Path, what: str, payload: Path) -> dict:
    with tempfile.TemporaryDirectory() as home:
        child = CHILD.format(
            code=str(code), case=str(CASE), payload=str(payload), home=home, body=MEASURED[what]
        )
        limit = ["prlimit", f"--as={4 * 1024**3}", "--"]
        started = time.perf_counter()
        try:
            run = subprocess.run(
                [*limit, sys.executable, "-c", child],
                capture_output=True,
                text=True,
                timeout=300,
                cwd=home,
                env={**os.environ, "PYTHONPATH": str(code)},
            )
        except subprocess.TimeoutExpired:
            return {"seconds": 300, "peak_mb": float("nan"), "said": "stopped after 300 s"}
        if run.returncode != 0:
            tail = run.stderr.strip().splitlines()[-1:] or ["?"]
            return {
                "seconds": time.perf_counter() - started,
                "peak_mb": float("nan"),
                "said": f"failed (exit {run.returncode}): {tail[0][:90]}",
            }
        return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout measured")
    args = parser.parse_args()
    print(f"code: {args.code}  load: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        for what, payload in payloads(Path(folder)).items():
            size = payload.stat().st_size
            got = measure(args.code.resolve(), what, payload)
            print(
                f"{what:<45} {size:>9,} B  {got['seconds']:7.2f} s  {got['peak_mb']:7.0f} MB  "
                f"{got['said']}"
            )


if __name__ == "__main__":
    main()
