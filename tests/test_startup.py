"""Lazy engines: the commands that only read or describe cases never load a renderer.

Each command runs in a fresh interpreter (a subprocess), which then lists the heavy
modules it ended up importing. No timings are asserted here (benchmarks/batch.py
measures start-up); only what was imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

HEAVY = ("weasyprint", "pydyf", "docx", "docxtpl", "lxml", "babel", "jinja2", "rich")
PROBE = """
import json, sys
from docgen.cli import main
code = 0
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "loaded": sorted(m for m in HEAVY if m in sys.modules)}))
""".replace("HEAVY", repr(HEAVY))


def loaded_by(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


FIXTURE = "fixtures/penalty-statement/homer-first-offense.yaml"


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("check", "penalty-statement", FIXTURE),
        ("check", "penalty-statement", "no-such-case.yaml"),
        ("schema", "penalty-statement"),
        ("batch", "--help"),
    ],
    ids=["help", "check", "check-missing-file", "schema", "batch-help"],
)
def test_no_engine_is_imported(args: tuple[str, ...]) -> None:
    result = loaded_by(*args)
    assert result["loaded"] == [], f"docgen {' '.join(args)} imported {result['loaded']}"


def test_help_imports_no_case_models() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom docgen.cli import main\ntry: main(['--help'])\n"
            "except SystemExit: pass\nprint('pydantic' in sys.modules, 'yaml' in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip().splitlines()[-1] == "False False"


def test_render_html_loads_no_pdf_or_docx_engine() -> None:
    code = (
        "import sys\nfrom docgen import api\n"
        f"api.build('penalty-statement', {FIXTURE!r}).standalone()\n"
        "print(sorted(m for m in ('weasyprint', 'docx', 'docxtpl') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
