"""Batch inputs: files; every .yaml/.yml/.json in a directory, sorted (a batch's own
manifest.json is never a case); one case per CSV row, dotted column names mapping into
nested keys."""

from __future__ import annotations

import csv
import errno
import io
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.cases.loader import not_a_file, read_regular
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
    warning: str | None = None  # rendered, but reported (a file name that is not UTF-8)


def shown(path: Path) -> tuple[str, str | None]:
    """How reports and the manifest name ``path``, and a warning if its name is not UTF-8
    text (its undecodable bytes shown as \\xNN escapes: the file is still read by its
    real name)."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogateescape")
        printable = raw.decode("utf-8", "backslashreplace")
        return printable, (
            "the file's name is not UTF-8 text (shown here with \\x escapes); it was "
            "read, but rename it so that reports and the manifest name it exactly"
        )
    return text, None


def collect(inputs: Iterable[str | Path]) -> list[CaseInput]:
    """Every case named by ``inputs``, in order. A missing path is a DocgenError (nothing
    runs); a device, FIFO, socket or looping link, named or in a folder (with a case
    file's suffix), is a case that fails saying what it is: never read, never left out
    without a word."""
    cases: list[CaseInput] = []
    for item in inputs:
        path = Path(item)
        what = _kind_of(path)
        if what == "a directory":
            found = sorted(
                p
                for p in path.iterdir()
                if p.suffix.lower() in CASE_SUFFIXES and p.name != MANIFEST and not p.is_dir()
            )
            if not found:
                raise DocgenError(f"{path}: no case files (.yaml, .yml, .json) in this directory")
            cases += [_file_input(p) for p in found]
        elif what == "missing":
            raise DocgenError(f"{path}: no such file or directory")
        elif what is None and path.suffix.lower() == ".csv":
            cases += csv_cases(path)
        else:
            cases.append(_file_input(path))
    return cases


def _kind_of(path: Path) -> str | None:
    """None for a regular file, "missing", or what else is there ("a FIFO (named pipe)")."""
    try:
        return not_a_file(os.stat(path).st_mode)
    except FileNotFoundError:
        return "missing" if not path.is_symlink() else "a link to nothing"
    except OSError as err:
        return "a symbolic link that loops" if err.errno == errno.ELOOP else err.strerror


def _file_input(path: Path) -> CaseInput:
    what = _kind_of(path)
    source, warning = shown(path)
    if what is None:
        return CaseInput(source, path.stem, path=str(path), warning=warning)
    return CaseInput(
        source,
        path.stem,
        error=f"{source}: skipped: is {what}, not a file; only regular files are read",
    )


def csv_cases(path: Path) -> list[CaseInput]:
    """One case per data row; the header row is row 1, so the first case is ``file.csv:2``."""
    named, warning = shown(path)
    try:
        text = read_regular(path, MAX_CSV_BYTES).decode("utf-8-sig")
    except UnicodeDecodeError:
        return [CaseInput(named, path.stem, error=f"{named}: not UTF-8 text")]
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as err:
        return [CaseInput(named, path.stem, error=f"{named}: not a valid CSV file: {err}")]
    if not rows or not any(cell.strip() for cell in rows[0]):
        return [CaseInput(named, path.stem, error=f"{named}: no header row")]
    header = [cell.strip() for cell in rows[0]]
    if len(header) == 1:
        for mark, name in ((";", "semicolons (;)"), ("\t", "tabs")):
            if mark in header[0]:
                return [
                    CaseInput(
                        named,
                        path.stem,
                        error=f"{named}: the header is separated by {name}, not commas; save "
                        'the sheet as CSV with commas ("CSV UTF-8 (comma delimited)")',
                    )
                ]
    cases: list[CaseInput] = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line is not a case
        source, name = f"{named}:{number}", f"{path.stem}-{number}"
        try:
            if len(row) > len(header):
                raise CaseFileError(f"{len(row)} cells but the header names {len(header)} columns")
            data = unflatten(zip(header, row, strict=False))
            cases.append(CaseInput(source, name, data=data, warning=None if cases else warning))
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
    case = _lists(root, "")
    if not isinstance(case, dict):
        raise CaseFileError("every column is named by a number: name each column for its field")
    return case


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
