"""`docgen demo`: every kind rendered for every sample case in fixtures/<kind>/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from docgen import api
from docgen.documents import KINDS
from docgen.errors import DocgenError
from docgen.render.environment import fixtures_dir


def sample_cases() -> list[tuple[str, Path]]:
    """(kind, case file) for every fixture; a fixture folder is named after its kind."""
    root = fixtures_dir()
    return [
        (kind, path)
        for kind in KINDS
        if (root / kind).is_dir()
        for path in sorted((root / kind).iterdir())
        if path.suffix in (".yaml", ".yml", ".json")
    ]


def packet_cases() -> list[Path]:
    """Case files in fixtures/packet/ (``docgen render packet CASE``; not a kind)."""
    folder = fixtures_dir() / "packet"
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml", ".json"))


def run(out: Path, fmt: str = "all", echo: Callable[[str], None] = print) -> int:
    """Render every sample (and each alternative layout of its kind); the failures count."""
    from docgen.documents.base import Options

    formats = api.formats_from(fmt)
    jobs: list[tuple[str, Path, str | None]] = [(k, p, None) for k, p in sample_cases()]
    jobs += [(k, p, layout) for k, p in sample_cases() for layout in KINDS[k].layouts]
    jobs += [("packet", path, None) for path in packet_cases()]
    failures = 0
    for kind, path, layout in jobs:
        (out / kind).mkdir(parents=True, exist_ok=True)
        try:
            # samples, not served documents: a newer docgen's output replaces the last run's
            options = Options(layout=layout)
            result = api.render(kind, path, formats, out / kind, options, force=True)
        except DocgenError as err:
            failures += 1
            echo(f"FAILED {kind} {path.name}: {err}")
            continue
        for warning in result.document.warnings:
            echo(f"warning: {path.name}: {warning}")
        label = f"{kind} ({layout})" if layout else kind
        echo(f"{label:<26} {path.name:<36} -> {', '.join(p.name for p in result.files)}")
    echo(
        f"{len(jobs) - failures} documents rendered into {out}/"
        + (f", {failures} failed" if failures else "")
    )
    return failures
