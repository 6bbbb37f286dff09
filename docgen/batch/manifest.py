"""What a batch did: the report (files written, failures, timings) and manifest.json.

The manifest is rewritten as ``complete: false`` before the first case is rendered, so a
batch killed outright never leaves last run's manifest standing for this run's files.
Each file's entry carries the SHA-256 of the case it came from (``case_sha256``): a
later ``--resume`` renders again only the cases whose files are missing or changed, or
whose case changed.

While a batch runs, each case's entries are appended to ``manifest.journal`` as soon as
its files are written: one line per case, in one ``write`` (a kill leaves whole lines),
so the cost per case stays constant however long the batch. The finished manifest takes
them all and the journal is removed; after a kill, ``--resume`` reads the journal with
the manifest, renders only what is missing, and a corrected case replaces its own files.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.batch.inputs import MANIFEST as MANIFEST  # the name its importers read here
from docgen.batch.inputs import CaseInput
from docgen.errors import OutputError
from docgen.render.output import atomic_write

JOURNAL = "manifest.journal"  # the entries of the cases written so far, while a batch runs


@dataclass
class Report:
    """What a batch did: files written (the manifest's entries), failures, timings."""

    total: int
    files: list[dict[str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (source, message)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    documents: int = 0
    resumed: int = 0  # cases whose files a --resume found whole and kept
    seconds: float = 0.0
    interrupted: bool = False
    stopped: str | None = None  # why writing stopped (disk full...), if it did
    not_written: list[str] = field(default_factory=list)  # sources never written, if stopped
    # issued cases the register holds whose files were not written: (source, number, cause)
    recorded: list[tuple[str, str, str]] = field(default_factory=list)
    timings: dict[str, list[float]] = field(default_factory=dict)  # per format, per document
    cpu_timings: dict[str, list[float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.documents / self.seconds if self.seconds > 0 else 0.0

    @property
    def complete(self) -> bool:
        return not self.interrupted and self.stopped is None and not self.recorded

    def recorded_lines(self) -> list[str]:
        """Each issued case whose files were not written, as the register holds it."""
        return [
            f"{source}: recorded as {number}; files not written: {cause}; `--resume` writes them"
            for source, number, cause in self.recorded
        ]


def manifest(
    kind: str, report: Report, finished: bool = True, digests: dict[str, str] | None = None
) -> dict[str, Any]:
    """The manifest: files sorted by name, each with SHA-256, kind, format, source and the
    case's SHA-256; the failures; the cases issued whose files were not written (with
    their numbers); and, when writing stopped, the cases not written."""
    digests = digests or {}
    out: dict[str, Any] = {
        "kind": kind,
        "files": sorted(report.files, key=lambda entry: entry["file"]),
        "failed": [{"source": s, "error": e} for s, e in report.failures],
        "complete": finished and report.complete,
    }
    if report.recorded:
        out["recorded"] = [
            {"source": s, "number": n, "cause": c, "case_sha256": digests.get(s, "")}
            for s, n, c in report.recorded
        ]
    if report.stopped is not None:
        out["not_written"] = [{"source": s, "cause": report.stopped} for s in report.not_written]
    return out


def write_manifest(
    out: Path,
    kind: str,
    report: Report,
    finished: bool = True,
    digests: dict[str, str] | None = None,
) -> Path:
    """Write the manifest; if even that fails (a full disk), remove the old one, so that no
    manifest describes files this run may have replaced, and raise the OutputError.
    ``digests``: each case's SHA-256 by source (for the cases recorded, not written)."""
    data = manifest(kind, report, finished, digests)
    if not finished:
        data["journal"] = JOURNAL  # where the entries of this run's cases are, meanwhile
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    try:
        return atomic_write(out / MANIFEST, (text + "\n").encode("utf-8"))
    except OutputError:
        (out / MANIFEST).unlink(missing_ok=True)
        raise


class Journal:
    """``manifest.journal``: a line of JSON per case, appended as each case's files are
    written (see the module docstring)."""

    def __init__(self, out: Path, kind: str):
        self.path, self.kind = out / JOURNAL, kind
        self.fd: int | None = None

    def begin(self, kept: list[dict[str, str]]) -> None:
        """A new journal holding ``kept`` (the cases a resumed batch keeps), then open."""
        atomic_write(self.path, self._line(kept) if kept else b"")
        try:
            self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as err:
            raise OutputError(f"{self.path}: cannot write: {err.strerror}") from None

    def add(self, entries: list[dict[str, str]]) -> None:
        if self.fd is None:
            return
        line = self._line(entries)
        try:
            if os.write(self.fd, line) != len(line):
                raise OSError(28, "No space left on device")
        except OSError as err:
            raise OutputError(f"{self.path}: cannot write: {err.strerror}") from None

    def end(self, finished: bool) -> None:
        """Close it; once the finished manifest holds every entry, remove it."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if finished:
            self.path.unlink(missing_ok=True)

    def _line(self, entries: list[dict[str, str]]) -> bytes:
        text = json.dumps({"kind": self.kind, "files": entries}, sort_keys=True)
        return (text + "\n").encode("ascii")


def _journaled(out: Path, kind: str) -> list[Any]:
    """The entries of the cases a run wrote before it was stopped (whole lines only)."""
    try:
        lines = (out / JOURNAL).read_bytes().splitlines()
    except OSError:
        return []
    entries: list[Any] = []
    for line in lines:
        try:
            case = json.loads(line)
        except ValueError:
            continue  # a line cut short
        if isinstance(case, dict) and case.get("kind") == kind:
            entries += case.get("files") or []
    return entries


def case_digest(case: CaseInput) -> str:
    """SHA-256 of what the case says: the file's bytes, or the CSV row's cells."""
    if case.path is not None:
        try:
            return hashlib.sha256(Path(case.path).read_bytes()).hexdigest()
        except OSError:
            return ""  # unreadable: never matches, so the case is rendered (and fails) again
    text = json.dumps(case.data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def previous_entries(out: Path, kind: str) -> dict[str, list[dict[str, str]]]:
    """Last run's file entries by source, from ``out``'s manifest (none if unreadable)."""
    try:
        old = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    listed = old.get("files", []) if isinstance(old, dict) and old.get("kind") == kind else []
    entries: dict[str, list[dict[str, str]]] = {}
    seen: set[str] = set()
    for entry in [*listed, *_journaled(out, kind)]:
        if (
            isinstance(entry, dict)
            and {"file", "sha256", "source", "format"} <= entry.keys()
            and Path(str(entry["file"])).name == entry["file"]  # a name in ``out``, no path
            and entry["file"] not in seen
        ):
            seen.add(entry["file"])
            entries.setdefault(str(entry["source"]), []).append(entry)
    return entries


def still_whole(
    out: Path, entries: list[dict[str, str]], formats: tuple[str, ...], digest: str
) -> bool:
    """Whether last run's files of one case can stand: the same case, every format asked
    for present, each file on disk with the SHA-256 the manifest recorded."""
    if not digest or any(entry.get("case_sha256") != digest for entry in entries):
        return False
    by_format = {entry["format"]: entry for entry in entries}
    if set(by_format) != set(formats):
        return False
    return len(own_files(out, entries)) == len(entries)


def own_files(out: Path, entries: list[dict[str, str]]) -> set[str]:
    """Last run's files of a case that a resumed batch may replace when the case changed:
    those still holding the bytes the manifest recorded (nobody else's work since)."""
    own = set()
    for entry in entries:
        try:
            data = (out / entry["file"]).read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() == entry["sha256"]:
            own.add(entry["file"])
    return own


def previous_numbers(out: Path, kind: str) -> dict[str, tuple[str, str]]:
    """The numbers last run's cases were issued as, by source: (number, the case's SHA-256
    then), from the manifest's files and its cases recorded but not written, and the
    journal's."""
    try:
        old = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    listed: list[Any] = []
    if isinstance(old, dict) and old.get("kind") == kind:
        listed = [*(old.get("files") or []), *(old.get("recorded") or [])]
    numbers: dict[str, tuple[str, str]] = {}
    for entry in [*listed, *_journaled(out, kind)]:
        if isinstance(entry, dict) and entry.get("number") and entry.get("source"):
            numbers[str(entry["source"])] = (str(entry["number"]), str(entry.get("case_sha256")))
    return numbers
