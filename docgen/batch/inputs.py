"""Batch inputs: files; every .yaml/.yml/.json in a directory, sorted (a batch's own
manifest.json is never a case); one case per CSV row, dotted column names mapping into
nested keys."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.errors import CaseFileError, DocgenError

CASE_SUFFIXES = (".yaml", ".yml", ".json")
MAX_CSV_BYTES = 50 * 1024 * 1024
MANIFEST = "manifest.json"  # what a batch writes beside its files (see manifest.py)


@dataclass(frozen=True)
class CaseInput:
    """One case to render: a file to read in the worker, or data from a CSV row."""

    source: str  # what a person reads in a report: "cases/a.yaml" or "sweep.csv:3"
    name: str  # the fallback file name stem: the file's stem, or "sweep-3"
    path: str | None = None
    data: dict[str, Any] | None = None
    error: str | None = None  # the case could not even be read (reported, not rendered)


def collect(inputs: Iterable[str | Path]) -> list[CaseInput]:
    """Every case named by ``inputs``, in order. A missing path is a DocgenError (nothing runs)."""
    cases: list[CaseInput] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            found = sorted(
                p
                for p in path.iterdir()
                if p.is_file() and p.suffix.lower() in CASE_SUFFIXES and p.name != MANIFEST
            )
            if not found:
                raise DocgenError(f"{path}: no case files (.yaml, .yml, .json) in this directory")
            cases += [CaseInput(str(p), p.stem, path=str(p)) for p in found]
        elif path.suffix.lower() == ".csv" and path.is_file():
            cases += csv_cases(path)
        elif path.is_file():
            cases.append(CaseInput(str(path), path.stem, path=str(path)))
        else:
            raise DocgenError(f"{path}: no such file or directory")
    return cases


def csv_cases(path: Path) -> list[CaseInput]:
    """One case per data row; the header row is row 1, so the first case is ``file.csv:2``."""
    try:
        if path.stat().st_size > MAX_CSV_BYTES:
            raise CaseFileError(f"{path}: over the {MAX_CSV_BYTES // 2**20} MB limit for a CSV")
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        return [CaseInput(str(path), path.stem, error=f"{path}: not UTF-8 text")]
    except OSError as err:
        raise CaseFileError(f"{path}: cannot read: {err.strerror}") from None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as err:
        return [CaseInput(str(path), path.stem, error=f"{path}: not a valid CSV file: {err}")]
    if not rows or not any(cell.strip() for cell in rows[0]):
        return [CaseInput(str(path), path.stem, error=f"{path}: no header row")]
    header = [cell.strip() for cell in rows[0]]
    if len(header) == 1:
        for mark, name in ((";", "semicolons (;)"), ("\t", "tabs")):
            if mark in header[0]:
                return [
                    CaseInput(
                        str(path),
                        path.stem,
                        error=f"{path}: the header is separated by {name}, not commas; save "
                        'the sheet as CSV with commas ("CSV UTF-8 (comma delimited)")',
                    )
                ]
    cases = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line is not a case
        source, name = f"{path}:{number}", f"{path.stem}-{number}"
        try:
            if len(row) > len(header):
                raise CaseFileError(f"{len(row)} cells but the header names {len(header)} columns")
            cases.append(CaseInput(source, name, data=unflatten(zip(header, row, strict=False))))
        except CaseFileError as err:
            cases.append(CaseInput(source, name, error=f"{source}: {err}"))
    return cases


_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")  # ASCII: "²".isdigit() is true


def unflatten(cells: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """``recipient.address.street`` -> nested keys; ``remedies.0.measure`` -> a list item.

    Empty cells are omitted (the key is absent, as in a case file without it). A list is
    made of the indexes present, in numeric order.
    """
    root: dict[str, Any] = {}
    for column, raw in cells:
        value = raw.strip()
        if not value:
            continue
        if not column:
            raise CaseFileError(f"a value {value[:40]!r} under a column with no name")
        parts = column.split(".")
        if any(not part for part in parts):
            raise CaseFileError(f"column {column!r}: empty part in the dotted name")
        for part in parts:
            if not _PART.fullmatch(part):
                raise CaseFileError(
                    f"column {column!r}: {part!r} is neither a key (letters, digits, _) "
                    "nor a list index (0, 1, 2...)"
                )
        node = root
        for i, part in enumerate(parts[:-1]):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                where = ".".join(parts[: i + 1])
                raise CaseFileError(f"column {column!r}: {where!r} already holds a value")
            node = child
        if parts[-1] in node:
            raise CaseFileError(f"column {column!r}: given twice, or also as a group of columns")
        node[parts[-1]] = value
    return _lists(root, "")


def _lists(node: Any, path: str) -> Any:
    """Mappings whose keys are all numbers become lists, in numeric order."""
    if not isinstance(node, dict):
        return node
    items = {key: _lists(value, f"{path}{key}.") for key, value in node.items()}
    numeric = [key.isascii() and key.isdigit() for key in items]
    if items and all(numeric):
        return [items[key] for key in sorted(items, key=int)]
    if any(numeric):
        mixed = ", ".join(sorted(items))
        raise CaseFileError(f"columns {path}*: mix list indexes and names ({mixed})")
    return items
