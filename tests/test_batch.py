"""`docgen batch`: inputs (files, folders, CSV rows), isolation, names, manifest, Ctrl-C.

Real worker processes and real engines throughout; no timings asserted.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT, SAMPLE_IDS, SAMPLES
from docx import Document

from docgen import api, batch
from docgen.cases.loader import read_case_file
from docgen.cli import main
from docgen.errors import CaseFileError, DocgenError
from docgen.render.output import safe_name
from tests.helpers.cli import python_process
from tests.helpers.procs import started_with
from tests.helpers.reaping import die_with_this_process

KIND = "penalty-statement"
BASE = ROOT / "fixtures" / KIND / "homer-first-offense.yaml"


def case_data(**changes: Any) -> dict[str, Any]:
    data = read_case_file(BASE)
    data.update(changes)
    return data


def write_yaml(folder: Path, name: str, data: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def flatten(data: Any, prefix: str = "") -> dict[str, str]:
    """The dotted CSV columns of a case (the inverse of batch.unflatten)."""
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = ((str(i), v) for i, v in enumerate(data))
    else:
        return {prefix[:-1]: str(data)}
    out: dict[str, str] = {}
    for key, value in items:
        out.update(flatten(value, f"{prefix}{key}."))
    return out


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    columns = list(dict.fromkeys(c for row in rows for c in row))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(main, ["batch", *args], catch_exceptions=False)


# -- CSV mapping ---------------------------------------------------------------------------


def test_dotted_columns_make_nested_keys_and_lists() -> None:
    cells = [
        ("number", "NV-1"),
        ("recipient.name", "Ann"),
        ("recipient.address.street", "1 Main St"),
        ("recipient.address.zip", "13077"),
        ("remedies.1.measure", "second"),
        ("remedies.0.measure", "first"),
        ("remedies.0.by", "2026-12-01"),
        ("remedies.10.measure", "eleventh"),
        ("copies_to.0.name", ""),  # empty cells are omitted...
        ("site", "  "),  # ...white space included
    ]
    assert batch.unflatten(cells) == {
        "number": "NV-1",
        "recipient": {"name": "Ann", "address": {"street": "1 Main St", "zip": "13077"}},
        "remedies": [
            {"measure": "first", "by": "2026-12-01"},
            {"measure": "second"},
            {"measure": "eleventh"},
        ],
    }


def test_list_of_plain_values() -> None:
    assert batch.unflatten([("tags.1", "b"), ("tags.0", "a")]) == {"tags": ["a", "b"]}


@pytest.mark.parametrize(
    "cells",
    [
        [("site", "x"), ("site.description", "y")],
        [("site.description", "y"), ("site", "x")],
        [("a.0", "x"), ("a.name", "y")],
        [("a..b", "x")],
        [("", "orphan value")],
        [("number", "1"), ("number", "2")],
    ],
    ids=[
        "value-then-group",
        "group-then-value",
        "index-and-name",
        "empty-part",
        "no-name",
        "twice",
    ],
)
def test_conflicting_columns_are_errors(cells: list[tuple[str, str]]) -> None:
    with pytest.raises(CaseFileError):
        batch.unflatten(cells)


def test_csv_rows_become_cases_named_by_file_and_row(tmp_path: Path) -> None:
    path = tmp_path / "sweep.csv"
    path.write_text(
        "\ufeffnumber,recipient.name,site.description\n"
        "A-1,Ann,\n"
        ",,\n"  # a blank row is skipped but still counted
        'A-2,"Bob, Jr.",lot\n'
        "A-3,Cy,x,extra\n",
        encoding="utf-8",
    )
    cases = batch.collect([path])
    assert [c.source for c in cases] == [f"{path}:2", f"{path}:4", f"{path}:5"]
    assert cases[0].data == {"number": "A-1", "recipient": {"name": "Ann"}}
    assert cases[1].data == {
        "number": "A-2",
        "recipient": {"name": "Bob, Jr."},
        "site": {"description": "lot"},
    }
    assert cases[2].data is None and "4 cells but the header names 3" in (cases[2].error or "")
    assert [c.name for c in cases] == ["sweep-2", "sweep-4", "sweep-5"]


def test_folders_give_their_case_files_sorted(tmp_path: Path) -> None:
    for name in ("b.yaml", "a.json", "c.yml", "notes.txt", "d.YAML"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    names = [Path(c.source).name for c in batch.collect([tmp_path])]
    assert names == ["a.json", "b.yaml", "c.yml", "d.YAML"]


def test_missing_input_and_empty_folder_are_errors(tmp_path: Path) -> None:
    with pytest.raises(DocgenError, match="no such file"):
        batch.collect([tmp_path / "nope.yaml"])
    with pytest.raises(DocgenError, match="no case files"):
        batch.collect([tmp_path])


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=SAMPLE_IDS)
def test_every_sample_case_survives_a_csv_row(kind: str, path: Path, tmp_path: Path) -> None:
    """A fixture flattened to dotted columns and read back is the same case (every kind)."""
    data = read_case_file(path)
    csv_path = write_csv(tmp_path / "cases.csv", [flatten(data)])
    (case,) = batch.collect([csv_path])
    assert case.error is None
    expected = api.build(kind, path).standalone()
    assert api.build(kind, case.data or {}).standalone() == expected


# -- names ---------------------------------------------------------------------------------


def test_names_are_unique_in_input_order() -> None:
    namer = api.UniqueStems()
    taken = [namer.take(s) for s in ("NV-1", "NV-1", "nv-1", "NV-1-2", "NV-1", "other")]
    assert taken == ["NV-1", "NV-1-2", "nv-1-3", "NV-1-2-2", "NV-1-4", "other"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("../../etc/passwd", "etc-passwd"),
        ("NV 2026/0007: Pérez & Sons", "NV-2026-0007-Perez-Sons"),
        ("...", "document"),
        ("CON", "CON_"),
        ("nul.2026", "nul_.2026"),
        ("COM1", "COM1_"),
        ("CONSOLE", "CONSOLE"),
        ("a\x00b\nc", "a-b-c"),
    ],
)
def test_file_names_are_sanitized(text: str, expected: str) -> None:
    assert safe_name(text) == expected


# -- whole batches -------------------------------------------------------------------------


def test_one_bad_case_among_ten(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    for i in range(10):
        data = case_data(number=f"PS-2026-{i:04d}")
        if i == 6:
            data["offense"] = {"committed": "2026-02-30"}
        write_yaml(cases, f"case-{i:02d}.yaml", data)
    out = tmp_path / "out"
    result = run_cli(KIND, str(cases), "-o", str(out), "-j", "2", "-f", "pdf,html")
    assert result.exit_code == 1, result.output
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 9 * 2 + 1  # nine cases, two formats each, the manifest
    assert not any("PS-2026-0006" in name for name in written)
    assert not [p for p in out.iterdir() if p.name.startswith(".") or p.suffix == ".part"]
    assert f"FAILED {cases / 'case-06.yaml'}: " in result.output
    assert "Offense, committed: " in result.output and "not a real calendar date" in result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["failed"][0]["source"] == str(cases / "case-06.yaml")
    assert len(manifest["files"]) == 18
    assert "written" in result.output and "docs/s" in result.output


def test_batch_output_equals_single_renders_and_manifest_is_stable(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    write_yaml(cases, "a.yaml", case_data())
    write_yaml(cases, "b.yaml", case_data())  # same number: same stem, so "-2"
    write_yaml(cases, "c.yaml", case_data(number="../../PS 7"))
    runs = []
    for n in (1, 2):
        out = tmp_path / f"out{n}"
        result = run_cli(KIND, str(cases), "-o", str(out), "-j", str(n))
        assert result.exit_code == 0, result.output
        runs.append(out)
    first, second = runs
    assert (first / "manifest.json").read_bytes() == (second / "manifest.json").read_bytes()
    manifest = json.loads((first / "manifest.json").read_text(encoding="utf-8"))
    files = manifest["files"]
    assert [f["file"] for f in files] == sorted(f["file"] for f in files)
    stems = {f["file"].rsplit(".", 1)[0]: f["source"] for f in files}
    assert stems == {
        "PS-2026-0011-penalty-statement": str(cases / "a.yaml"),
        "PS-2026-0011-penalty-statement-2": str(cases / "b.yaml"),
        "PS-7-penalty-statement": str(cases / "c.yaml"),
    }
    for entry in files:
        data = (first / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert entry["kind"] == KIND and entry["format"] == entry["file"].rsplit(".", 1)[1]
    single = api.build(KIND, BASE)
    for fmt in ("pdf", "docx", "html"):
        made = (first / f"PS-2026-0011-penalty-statement.{fmt}").read_bytes()
        assert made == api.to_bytes(single, fmt), f"batch {fmt} differs from a single render"


def test_csv_batch_reports_rows(tmp_path: Path) -> None:
    good = flatten(case_data())
    bad = {**good, "recipient.role": "tenant"}
    path = write_csv(tmp_path / "sweep.csv", [good, bad, {**good, "number": "PS-9"}])
    out = tmp_path / "out"
    result = run_cli(KIND, str(path), "-o", str(out), "-f", "html", "-j", "1")
    assert result.exit_code == 1
    assert f"FAILED {path}:3: " in result.output and "Recipient, role: " in result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(f["source"] for f in manifest["files"]) == [f"{path}:2", f"{path}:4"]


def test_usage_errors(tmp_path: Path) -> None:
    assert run_cli(KIND, str(BASE)).exit_code == 2  # -o is required
    assert run_cli(KIND, str(BASE), "-o", str(tmp_path), "-j", "0").exit_code == 2
    result = run_cli("no-such-kind", str(BASE), "-o", str(tmp_path))
    assert result.exit_code == 1 and "unknown document kind" in result.output
    result = run_cli(KIND, str(tmp_path / "missing.yaml"), "-o", str(tmp_path))
    assert result.exit_code == 1 and "no such file" in result.output
    result = run_cli(KIND, str(BASE), "-o", str(tmp_path), "--pdf-variant", "pdf/x")
    assert result.exit_code == 1 and "unknown PDF variant" in result.output


def ctrl_c_when(command: list[str], ready: Callable[[], bool], env: dict[str, str]) -> str:
    """``docgen COMMAND`` started as a terminal starts it (SIGINT at its default, a process
    group of its own), given Ctrl-C once ``ready()``: its standard error, once it ended
    with the status of an interrupt."""
    proc = subprocess.Popen(
        started_with([sys.executable, "-m", "docgen.cli", *command], default=(signal.SIGINT,)),
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal would make it
    )
    watcher = die_with_this_process(proc.pid)  # out of reach of a kill of the run's group
    try:
        deadline = time.monotonic() + 120
        while not ready():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, f"never ready: {ready.__doc__}"
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole group
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        watcher.wait(60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    return stderr


def test_ctrl_c_leaves_no_partial_files(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    for i in range(120):
        write_yaml(cases, f"case-{i:03d}.yaml", case_data(number=f"PS-{i:04d}"))
    out = tmp_path / "out"

    def written() -> bool:
        """a document written"""
        return out.is_dir() and any(p.suffix == ".pdf" for p in out.iterdir())

    command = ["batch", KIND, str(cases), "-o", str(out), "-j", "2", "-f", "pdf"]
    assert "interrupted" in ctrl_c_when(command, written, {})
    left = sorted(p.name for p in out.iterdir())
    assert not [n for n in left if n.startswith(".") or n.endswith(".part")], left
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["complete"] is False
    assert sorted(f["file"] for f in manifest["files"]) == sorted(
        n for n in left if n != "manifest.json"
    )
    assert 0 < len(manifest["files"]) < 120
    for entry in manifest["files"]:
        assert hashlib.sha256((out / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]


def test_ctrl_c_with_the_files_staged_leaves_none_of_them(tmp_path: Path) -> None:
    """Ctrl-C lands between any two steps of a write. Here every file of the document is
    in its temporary beside its target, none renamed (docgen.faults' ``staged``): none is
    left, no document either, and the message says so. Found when a batch interrupted on a
    busy machine left ``.PS-0001-penalty-statement.pdf.docgen-….part`` behind."""
    case = write_yaml(tmp_path / "cases", "case.yaml", case_data())
    out, pause = tmp_path / "out", tmp_path / "pause"
    # A compiled-template cache that is not private is not used (docgen.render.compiled),
    # so the first write staged is the document's, whatever this machine's cache holds.
    shared = tmp_path / "shared-cache"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    env = {
        "DOCGEN_PAUSE_AT": "staged",
        "DOCGEN_PAUSE_FILE": str(pause),
        "DOCGEN_CACHE": str(shared),
    }

    def staged() -> bool:
        """the document's three files staged, as three temporaries"""
        return Path(f"{pause}.reached").exists() and len(list(out.glob(".*.part"))) == 3

    command = ["render", KIND, str(case), "-o", f"{out}/", "-f", "pdf,docx,html"]
    stderr = ctrl_c_when(command, staged, env)
    assert "interrupted; no partial files were left" in stderr
    assert sorted(p.name for p in out.iterdir()) == []


# -- escaping in DOCX ----------------------------------------------------------------------


def _paragraphs(docx_bytes: bytes) -> list[str]:
    return [p.text for p in Document(io.BytesIO(docx_bytes)).paragraphs]


def test_markup_in_names_keeps_every_docx_paragraph() -> None:
    hostile = "Borrower & Sons <Ltd>"
    plain_case = case_data(number="PS-1")
    plain_case["recipient"] = {**plain_case["recipient"], "name": "Borrower and Sons Ltd"}
    hostile_case = case_data(number="PS-1 & <2>")
    hostile_case["recipient"] = {**hostile_case["recipient"], "name": hostile}
    plain = api.to_bytes(api.build(KIND, plain_case), "docx")
    marked = api.to_bytes(api.build(KIND, hostile_case), "docx")
    assert len(_paragraphs(marked)) == len(_paragraphs(plain))
    assert hostile in "\n".join(_paragraphs(marked))
    header = Document(io.BytesIO(marked)).sections[0].header
    assert "PS-1 & <2>" in " ".join(p.text for p in header.paragraphs)


def test_no_docx_template_renders_without_autoescape() -> None:
    """Every docxtpl render in docgen passes autoescape=True (on the same line)."""
    offenders = []
    for path in (ROOT / "docgen").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "docxtpl" not in text:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if ".render(" in line and "autoescape=True" not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, offenders


def test_engine_warnings_at_worker_start_reach_the_user() -> None:
    """A warning logged while a worker warms up (e.g. libharfbuzz-subset0 missing) is shown."""
    code = (
        "import logging\nfrom docgen import warm\nfrom docgen.batch import worker\n"
        "warn = lambda *args: logging.getLogger('docgen.pdf').warning('no subsetter')\n"
        "warm.warm_up = warn\n"
        "worker.init_worker(worker.Job('penalty-statement', ('html',)))\n"
    )
    done = python_process(code)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "warning: no subsetter\n"
