"""What a batch did: the report (files written, failures, timings) and manifest.json."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"


@dataclass
class Report:
    """What a batch did: files written (the manifest's entries), failures, timings."""

    total: int
    files: list[dict[str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (source, message)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    documents: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    timings: dict[str, list[float]] = field(default_factory=dict)  # per format, per document
    cpu_timings: dict[str, list[float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.documents / self.seconds if self.seconds > 0 else 0.0


def manifest(kind: str, report: Report) -> dict[str, Any]:
    """The manifest: files sorted by name, each with SHA-256, kind, format and source."""
    return {
        "kind": kind,
        "files": sorted(report.files, key=lambda entry: entry["file"]),
        "failed": [{"source": s, "error": e} for s, e in report.failures],
        "complete": not report.interrupted,
    }


def write_manifest(out: Path, kind: str, report: Report) -> Path:
    from docgen.render.output import atomic_write

    text = json.dumps(manifest(kind, report), indent=2, sort_keys=True, ensure_ascii=False)
    return atomic_write(out / MANIFEST, (text + "\n").encode("utf-8"))
