"""Same case in, same bytes out: every fixture of every kind, every format, every process.

Two fresh interpreters render every sample case (docgen.demo.sample_cases, so a new
kind is covered as soon as its fixtures exist) in every format and report SHA-256s.
The second runs the cases in reverse order under another hash seed, so a document
rendered cold and one rendered after others (warm caches, font configuration, ids)
must agree. The batch tests check that a worker's output equals these bytes too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, SAMPLE_IDS, SAMPLES

PROBE = """
import hashlib, json, sys
from docgen import api
from docgen.demo import sample_cases
cases = sample_cases()
if sys.argv[1] == "reverse":
    cases = cases[::-1]
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


def _run(order: str, seed: str) -> dict[str, dict[str, str]]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, order],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def two_runs() -> tuple[dict, dict]:
    return _run("forward", "1"), _run("reverse", "2")


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=SAMPLE_IDS)
@pytest.mark.parametrize("fmt", ["pdf", "docx", "html"])
def test_same_bytes_in_separate_processes(
    two_runs: tuple[dict, dict], kind: str, path, fmt: str
) -> None:
    first, second = two_runs
    key = f"{kind}/{path.stem}"
    assert "error" not in first[key], first[key]
    assert first[key][fmt] == second[key][fmt], f"{key}.{fmt} differs between two processes"


def test_same_bytes_in_this_process(renders) -> None:
    """Rendering again in a warm process gives the bytes of the first render."""
    from docgen import api

    kind, path = SAMPLES[0]
    first = renders.get(kind, path)
    doc = api.build(kind, path)
    for fmt in ("pdf", "docx"):
        assert api.to_bytes(doc, fmt) == first[fmt]
    assert doc.standalone() == first["html"]
