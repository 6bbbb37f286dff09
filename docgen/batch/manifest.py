"""What a batch did: the report (files written, failures, timings) and manifest.json.

The manifest is rewritten as ``complete: false`` before the first case is rendered, so a
batch killed outright never leaves last run's manifest standing for this run's files.
Each file's entry carries the SHA-256 of the case it came from (``case_sha256``): a
later ``--resume`` renders again only the cases whose files are missing or changed, or
whose case changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.batch.inputs import MANIFEST, CaseInput
from docgen.errors import OutputError


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
    timings: dict[str, list[float]] = field(default_factory=dict)  # per format, per document
    cpu_timings: dict[str, list[float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.documents / self.seconds if self.seconds > 0 else 0.0

    @property
    def complete(self) -> bool:
        return not self.interrupted and self.stopped is None


def manifest(kind: str, report: Report, finished: bool = True) -> dict[str, Any]:
    """The manifest: files sorted by name, each with SHA-256, kind, format, source and the
    case's SHA-256; the failures; and, when writing stopped, the cases not written."""
    out: dict[str, Any] = {
        "kind": kind,
        "files": sorted(report.files, key=lambda entry: entry["file"]),
        "failed": [{"source": s, "error": e} for s, e in report.failures],
        "complete": finished and report.complete,
    }
    if report.stopped is not None:
        out["not_written"] = [{"source": s, "cause": report.stopped} for s in report.not_written]
    return out


def write_manifest(out: Path, kind: str, report: Report, finished: bool = True) -> Path:
    """Write the manifest; if even that fails (a full disk), remove the old one, so that no
    manifest describes files this run may have replaced, and raise the OutputError."""
    from docgen.render.output import atomic_write

    data = manifest(kind, report, finished)
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
    try:
        return atomic_write(out / MANIFEST, (text + "\n").encode("utf-8"))
    except OutputError:
        (out / MANIFEST).unlink(missing_ok=True)
        raise


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
        return {}
    if not isinstance(old, dict) or old.get("kind") != kind:
        return {}
    entries: dict[str, list[dict[str, str]]] = {}
    for entry in old.get("files", []):
        if (
            isinstance(entry, dict)
            and {"file", "sha256", "source", "format"} <= entry.keys()
            and Path(str(entry["file"])).name == entry["file"]  # a name in ``out``, no path
        ):
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
