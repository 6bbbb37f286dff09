"""What a person sees of a batch: progress while it runs, a summary table after."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from docgen.batch.manifest import MANIFEST, Report
from docgen.batch.worker import Outcome


class Console:
    """A rich progress bar (documents/s, time left) on a terminal; plain lines otherwise."""

    def __init__(self, total: int, stream: Any = None, fancy: bool | None = None):
        self.stream = stream or sys.stderr
        self.total = total
        self.fancy = self.stream.isatty() if fancy is None else fancy
        self.progress: Any = None
        self.task: Any = None

    def __enter__(self) -> Console:
        if self.fancy:
            # rich takes 29 ms to import: loaded on first use
            from rich.console import Console as RichConsole
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.progress = Progress(
                TextColumn("rendering"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]:.1f} docs/s"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=RichConsole(file=self.stream),
                transient=False,
            )
            self.progress.start()
            self.task = self.progress.add_task("batch", total=self.total, rate=0.0)
            self.started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)

    def outcome(self, outcome: Outcome) -> None:
        if outcome.unwritten is not None:
            self.say(
                f"RECORDED {outcome.source} as {outcome.number}; files not written: "
                f"{outcome.unwritten}; `--resume` writes them"
            )
        elif outcome.error is not None:
            self.say(f"FAILED {outcome.error}")
        if self.progress is not None:
            done = self.progress.tasks[0].completed + 1
            rate = done / max(time.perf_counter() - self.started, 1e-9)
            self.progress.update(self.task, advance=1, rate=rate)


def summary_rows(report: Report) -> list[tuple[str, str]]:
    return [
        ("written", str(report.documents)),
        *([("kept", str(report.resumed))] if report.resumed else []),
        *([("recorded, not written", str(len(report.recorded)))] if report.recorded else []),
        ("failed", str(len(report.failures))),
        ("seconds", f"{report.seconds:.2f}"),
        ("docs/s", f"{report.rate:.1f}"),
    ]


def print_summary(report: Report, out: Path, stream: Any = None, fancy: bool = False) -> None:
    """The summary table: written, failed, seconds, docs/s (and where the manifest is)."""
    stream = stream or sys.stdout
    rows = summary_rows(report)
    if fancy:
        # rich takes 25 ms to import: loaded on first use
        from rich.console import Console as RichConsole
        from rich.table import Table

        table = Table(title=f"docgen batch -> {out}")
        for name, _ in rows:
            table.add_column(name, justify="right")
        table.add_row(*(value for _, value in rows))
        RichConsole(file=stream).print(table)
    else:
        widths = [max(len(n), len(v)) for n, v in rows]
        print("  ".join(n.rjust(w) for (n, _), w in zip(rows, widths, strict=True)), file=stream)
        print("  ".join(v.rjust(w) for (_, v), w in zip(rows, widths, strict=True)), file=stream)
    if (out / MANIFEST).is_file():
        print(f"{len(report.files)} files and {MANIFEST} in {out}", file=stream)
    else:  # a full disk: the manifest could not be written (the warning says why)
        print(f"{len(report.files)} files in {out}; no {MANIFEST} (not written)", file=stream)
