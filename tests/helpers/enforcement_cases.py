"""Helpers for the enforcement tests: fixture cases as data, text read back for searching."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from click.testing import CliRunner
from conftest import ROOT

from docgen.cli import main

NOTICES = sorted((ROOT / "fixtures" / "notice-of-violation").glob("*.yaml"))
ORDERS = sorted((ROOT / "fixtures" / "stop-work-order").glob("*.yaml"))
PACKETS = sorted((ROOT / "fixtures" / "packet").glob("*.yaml"))


def case_data(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def squash(text: str) -> str:
    """Text with all white space removed, so line wrapping in PDF and DOCX does not matter."""
    return re.sub(r"[\s\u00a0\u00ad]+", "", text)


def cli(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def write_yaml(tmp_path: Path, data: dict, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path
