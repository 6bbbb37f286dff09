"""Output paths: file names made from case data are sanitized (no separators, no '..',
no control characters), and nothing is ever written outside the chosen directory."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml
from conftest import SAMPLE_IDS, SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.documents import KINDS
from docgen.errors import OutputExists
from docgen.render.output import safe_name
from tests.helpers.casewalk import leaves, set_in

HOSTILE_NAMES = [
    "../../../../etc/passwd",
    "/etc/cron.d/evil",
    "..\\..\\Windows\\System32\\evil",
    "a/../../b",
    "..",
    ".",
    ".bashrc",
    "~root/x",
    "CON",
    "name\u202egpj.exe",
    "\u200b東\u200b",  # prints, but leaves nothing for a file name
    "ÆØÅ Ελληνικά 東京 Москва",
    "x" * 400,
    "NOV 2026/0019 & <Sons>",
    "%2e%2e%2fetc",
    "file:///etc/passwd",
]
SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def snapshot(root) -> set[str]:
    return {
        os.path.relpath(os.path.join(d, f), root)
        for d, dirs, files in os.walk(root)
        for f in files + dirs
    }


def hostile(kind: str, path, offset: int) -> dict:
    """The sample with its number and every name-like text field set to a path trick."""
    data = read_case_file(path)
    targets = [
        p
        for p, _, k in leaves(KINDS[kind].model, data)
        if k == "text" and p[-1] in ("number", "name", "tax_map", "firm")
    ]
    for index, leaf in enumerate(targets):
        data = set_in(data, leaf, HOSTILE_NAMES[(index + offset) % len(HOSTILE_NAMES)])
    return data


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=300))
def test_safe_name_never_yields_a_path(text):
    name = safe_name(text, fallback="document")
    assert SAFE.match(name), repr(name)
    assert ".." not in name and "/" not in name and "\\" not in name
    assert len(name) <= 80


@pytest.mark.parametrize("trick", HOSTILE_NAMES)
def test_safe_name_of_each_trick(trick):
    name = safe_name(trick, fallback="document")
    assert SAFE.match(name) and ".." not in name, name


@pytest.mark.parametrize("kind,path", SAMPLES, ids=SAMPLE_IDS)
def test_nothing_is_written_outside_the_output_directory(tmp_path, kind, path):
    jail = tmp_path / "jail"
    out = jail / "out"
    out.mkdir(parents=True)
    (tmp_path / "etc").mkdir()
    for offset in range(0, len(HOSTILE_NAMES), 4):
        data = hostile(kind, path, offset)
        result = api.render(kind, data, ("html", "docx"), out, force=True)
        for file in result.files:
            assert file.parent == out and SAFE.match(file.name), file
    assert all("/" not in entry for entry in snapshot(out))  # no sub-folders either
    assert snapshot(jail) == {"out"} | {f"out/{f}" for f in snapshot(out)}
    assert snapshot(tmp_path / "etc") == set()
    assert not [f for f in snapshot(out) if f.endswith(".part")]  # no temp files left


def test_split_parts_are_named_safely(tmp_path):
    kind = "contractor-certification"
    path = next(p for k, p in SAMPLES if k == kind)
    out = tmp_path / "jail" / "out"
    out.mkdir(parents=True)
    data = hostile(kind, path, 0)
    result = api.render(kind, data, ("html",), out, split=True)
    assert len(result.files) >= 2
    for file in result.files:
        assert file.parent == out and SAFE.match(file.name), file
    assert snapshot(tmp_path) == {"jail", "jail/out"} | {f"jail/out/{f}" for f in snapshot(out)}


def test_a_symlink_at_the_output_name_is_replaced_not_followed(tmp_path):
    kind, path = SAMPLES[0]
    out = tmp_path / "out"
    out.mkdir()
    first = api.render(kind, path, ("html",), out).files[0]
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    first.unlink()
    first.symlink_to(victim)
    with pytest.raises(OutputExists):  # the link's file differs: kept without force
        api.render(kind, path, ("html",), out)
    again = api.render(kind, path, ("html",), out, force=True).files[0]
    assert again == first and not again.is_symlink()
    assert victim.read_text() == "untouched"


def test_batch_writes_only_inside_its_directory(tmp_path):
    kind, path = SAMPLES[0]
    cases = []
    for offset in range(3):
        case = tmp_path / "cases" / f"c{offset}.yaml"
        case.parent.mkdir(exist_ok=True)
        case.write_text(yaml.safe_dump(hostile(kind, path, offset)), encoding="utf-8")
        cases.append(str(case))
    jail = tmp_path / "jail"
    jail.mkdir()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "docgen.cli",
            "batch",
            kind,
            *cases,
            "-o",
            str(jail / "out"),
            "-j",
            "1",
            "-f",
            "html",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    written = snapshot(jail)
    assert written and all(entry == "out" or entry.startswith("out/") for entry in written)
    assert snapshot(tmp_path) - {"cases"} - {f"cases/c{n}.yaml" for n in range(3)} == {"jail"} | {
        f"jail/{e}" for e in written
    }
