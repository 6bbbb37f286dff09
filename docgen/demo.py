"""`docgen demo`: every kind rendered for every sample case in fixtures/<kind>/."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from docgen import api
from docgen.documents import BUNDLES, KINDS
from docgen.documents.kind import Options
from docgen.errors import DocgenError
from docgen.render.environment import fixtures_dir


def _fixtures(names: Iterable[str]) -> list[tuple[str, Path]]:
    root = fixtures_dir()
    return [
        (name, path)
        for name in names
        if (root / name).is_dir()
        for path in sorted((root / name).iterdir())
        if path.suffix in (".yaml", ".yml", ".json")
    ]


def sample_cases() -> list[tuple[str, Path]]:
    """(kind, case file) for every fixture; a fixture folder is named after its kind."""
    return _fixtures(KINDS)


def bundle_cases() -> list[tuple[str, Path]]:
    """(bundle, case file) for the bundles' fixtures (fixtures/packet/)."""
    return _fixtures(BUNDLES)


def run(out: Path, fmt: str = "all", echo: Callable[[str], None] = print) -> int:
    """Render every sample (and each alternative layout of its kind); the failures count."""
    formats = api.formats_from(fmt)
    jobs: list[tuple[str, Path, str | None]] = [(k, p, None) for k, p in sample_cases()]
    jobs += [(k, p, layout) for k, p in sample_cases() for layout in KINDS[k].layouts]
    jobs += [(name, path, None) for name, path in bundle_cases()]
    failures = 0
    for kind, path, layout in jobs:
        (out / kind).mkdir(parents=True, exist_ok=True)
        try:
            # samples, not served documents: a newer docgen's output replaces the last run's
            options = Options(layout=layout)
            with api.said_in_words(kind):  # each field named as the desk's form names it
                result = api.render(kind, path, formats, out / kind, options, force=True)
        except DocgenError as err:
            failures += 1
            echo(f"FAILED {kind} {path.name}: {err}")
            continue
        for warning in api.warnings_in_words(kind, result.document.warnings):
            echo(f"warning: {path.name}: {warning}")
        label = f"{kind} ({layout})" if layout else kind
        echo(f"{label:<26} {path.name:<36} -> {', '.join(p.name for p in result.files)}")
    echo(
        f"{len(jobs) - failures} documents rendered into {out}/"
        + (f", {failures} failed" if failures else "")
    )
    # register.commands.demo loads sqlalchemy, asyncio, ssl (+310 ms): loaded on first use
    from docgen.register.commands.demo import issue_samples

    return failures + issue_samples(out, sample_cases(), formats, echo)
