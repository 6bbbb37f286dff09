"""Same case in, same bytes out: every fixture of every kind, every format, every process.

Every sample case (docgen.demo.sample_cases, so a new kind is covered as soon as its
fixtures exist) is rendered in every format twice: in the run's test processes (the
session's renders, warm, after whatever rendered before them) and in a fresh interpreter, in reverse
order under a hash seed of its own, reporting SHA-256s. A document rendered cold and one
rendered after others (warm caches, font configuration, ids) must agree. The batch tests
check that a worker's output equals these bytes too.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, SAMPLE_IDS, SAMPLES

PROBE = """
import hashlib, json
from docgen import api
from docgen.demo import sample_cases
cases = sample_cases()[::-1]
out = {}
for kind, path in cases:
    key = f"{kind}/{path.stem}"
    try:
        doc = api.build(kind, path)
        out[key] = {f: hashlib.sha256(api.to_bytes(doc, f)).hexdigest() for f in api.FORMATS}
    except Exception as err:
        out[key] = {"error": f"{type(err).__name__}: {err}"}
print(json.dumps(out))
"""


def _run(seed: str) -> dict[str, dict[str, str]]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def two_runs(renders) -> tuple[dict, dict]:
    here = {}
    for kind, path in SAMPLES:
        done = renders.get(kind, path)
        here[f"{kind}/{path.stem}"] = {
            fmt: hashlib.sha256(
                done[fmt].encode("utf-8") if fmt == "html" else done[fmt]
            ).hexdigest()
            for fmt in ("pdf", "docx", "html")
        }
    return here, _run("2")


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=SAMPLE_IDS)
@pytest.mark.parametrize("fmt", ["pdf", "docx", "html"])
def test_same_bytes_in_separate_processes(
    two_runs: tuple[dict, dict], kind: str, path, fmt: str
) -> None:
    first, second = two_runs
    key = f"{kind}/{path.stem}"
    assert "error" not in second[key], second[key]  # the fresh interpreter's failure
    assert first[key][fmt] == second[key][fmt], f"{key}.{fmt} differs between two processes"


def test_same_bytes_in_this_process() -> None:
    """Rendering again in this process, after another document, gives the bytes of its
    first render here (the session's renders may come from another test process)."""
    from docgen import api

    (kind, path), (other, other_path) = SAMPLES[0], SAMPLES[-1]
    first = api.build(kind, path)
    made = {fmt: api.to_bytes(first, fmt) for fmt in ("pdf", "docx")}
    api.to_bytes(api.build(other, other_path), "pdf")
    again = api.build(kind, path)
    for fmt in ("pdf", "docx"):
        assert api.to_bytes(again, fmt) == made[fmt]
    assert again.standalone() == first.standalone()
