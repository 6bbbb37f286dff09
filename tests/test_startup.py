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


# A fresh interpreter renders a PDF with every program it starts recorded: WeasyPrint's
# libraries are opened by their sonames, never searched for with ldconfig, gcc and ld.
# ``FAIL_UNSEARCHED`` makes every library refuse to open until it is searched for, as on a
# system that names its libraries otherwise: the import is tried again, searching.
ENGINE_PROBE = """
import json, subprocess, sys
FAIL_UNSEARCHED = sys.argv[1] == "otherwise"
started = []
real_init = subprocess.Popen.__init__
def recorded(self, args, *rest, **options):
    started.append(str(args[0] if isinstance(args, (list, tuple)) else args).split("/")[-1])
    real_init(self, args, *rest, **options)
subprocess.Popen.__init__ = recorded
import _cffi_backend, ctypes.util
from docgen.render import pdf
real_load = _cffi_backend.load_library
def load(name, *flags):
    if FAIL_UNSEARCHED and ctypes.util.find_library is pdf._not_searched:
        raise OSError(f"cannot open {name}")
    return real_load(name, *flags)
_cffi_backend.load_library = load
from docgen import api
data = api.to_bytes(api.build("penalty-statement", FIXTURE), "pdf")
from weasyprint.text import ffi
print(json.dumps({"pdf": data[:5].decode(), "started": sorted(set(started)),
                  "subset": ffi.harfbuzz_subset is not None,
                  "search restored": ctypes.util.find_library is not pdf._not_searched}))
""".replace("FIXTURE", repr(FIXTURE))


def engine_loaded(system: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", ENGINE_PROBE, system],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_pdf_engine_opens_its_libraries_without_searching() -> None:
    loaded = engine_loaded("debian")
    assert loaded["pdf"] == "%PDF-" and loaded["subset"] and loaded["search restored"]
    assert not {"ldconfig", "gcc", "cc", "ld"} & set(loaded["started"]), loaded["started"]


def test_a_system_naming_its_libraries_otherwise_has_them_searched_for() -> None:
    loaded = engine_loaded("otherwise")
    assert loaded["pdf"] == "%PDF-" and loaded["subset"] and loaded["search restored"]
    assert "ldconfig" in loaded["started"], loaded["started"]
