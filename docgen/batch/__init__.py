"""`docgen batch`: many cases of one kind, rendered in worker processes, written safely.

Stages: inputs are expanded into cases (files; every .yaml/.yml/.json in a directory,
sorted; one case per CSV row, dotted column names mapping into nested keys); worker
processes, warmed up once (templates, stylesheet, fonts, one page of each format),
validate and render each case in memory; the parent writes each case's files
atomically, in input order, under a sanitized name unique within the batch (``-2``,
``-3`` on collision), then writes ``manifest.json``. One bad case never stops the
others; Ctrl-C stops the workers and leaves no partial file.
"""

from docgen.batch.console import Console, print_summary
from docgen.batch.inputs import CaseInput, collect, unflatten
from docgen.batch.manifest import MANIFEST, Report, manifest
from docgen.batch.pool import run
from docgen.batch.worker import Job, Outcome

__all__ = [
    "MANIFEST",
    "CaseInput",
    "Console",
    "Job",
    "Outcome",
    "Report",
    "collect",
    "manifest",
    "print_summary",
    "run",
    "unflatten",
]
