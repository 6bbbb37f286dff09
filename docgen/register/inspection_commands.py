"""The officer's commands for inspections (§ 228-79A(1); LAW.md § 11), attached to the main
``docgen`` group beside the register's:

    docgen record-inspection CASE [-o PATH] [-f F]       the inspection report, numbered
    docgen notify-deficiency INSPECTION [--date D] [--copies] [-o PATH]
    docgen approve-work NOTICE --reinspection INSPECTION --date D [-o PATH]
    docgen halts [--site S] [--json]                     the A(1) halt per site

A thin shell over docgen.register.inspections: parse, call, print.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from pathlib import Path

import click

from docgen import api
from docgen.register.cli import (
    BY,
    ISO,
    WHOSE,
    _copies_option,
    _folder_or_file,
    _open,
    _print_issued,
    _recorded_number_said,
)
from docgen.register.inspections import (
    approve_work,
    halts,
    notify_deficiency,
    record_inspection_case,
)

OUT = click.option(
    "-o", "--out", default=None, help="a file, or a directory (existing, or ending in /)"
)
FORMAT = click.option(
    "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
)
FORCE = click.option(
    "--force", is_flag=True, help="replace a different file already at the output path"
)


@click.command("record-inspection")
@click.argument("case", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@OUT
@FORMAT
@FORCE
@BY
def record_inspection(case: Path, out, fmt, force, by) -> None:
    """Record an inspection (a finding of nothing too) and issue its numbered report."""
    with _open() as reg, _recorded_number_said():
        issued = record_inspection_case(
            reg, case, formats=api.formats_from(fmt), out=_folder_or_file(out), by=by, force=force
        )
    _print_issued(issued)


@click.command("notify-deficiency")
@click.argument("inspection")
@click.option("--date", "on", type=ISO, default=None, help="the issue date (default: today)")
@OUT
@FORMAT
@FORCE
@BY
@_copies_option
@WHOSE
def notify(inspection, on, out, fmt, force, by, copies, jurisdiction) -> None:
    """Issue the notice of deficiency of INSPECTION's deficiencies (§ 228-79A(1))."""
    with _open() as reg, _recorded_number_said():
        issued = notify_deficiency(
            reg,
            inspection,
            on,
            jurisdiction=jurisdiction,
            formats=api.formats_from(fmt),
            out=_folder_or_file(out),
            by=by,
            force=force,
            copies=copies,
        )
    _print_issued(issued)


@click.command("approve-work")
@click.argument("notice")
@click.option("--reinspection", required=True, help="the reinspection's report number")
@click.option("--date", "on", type=ISO, required=True, help="the day the work is approved")
@OUT
@FORMAT
@FORCE
@BY
@WHOSE
def approve(notice, reinspection, on: date, out, fmt, force, by, jurisdiction) -> None:
    """Approve the corrected work of NOTICE found on a reinspection (§ 228-79A(1))."""
    with _open() as reg, _recorded_number_said():
        issued = approve_work(
            reg,
            notice,
            reinspection,
            on,
            jurisdiction=jurisdiction,
            formats=api.formats_from(fmt),
            out=_folder_or_file(out),
            by=by,
            force=force,
        )
    _print_issued(issued)


@click.command("halts")
@click.option("--site", default=None, help="only sites whose address or description has this")
@click.option("--json", "as_json", is_flag=True, help="one JSON array")
def halts_command(site, as_json) -> None:
    """Per site, whether the halt of § 228-79A(1) is in effect or lifted."""
    with _open(readonly=True) as reg:
        found = halts(reg, site)
    if as_json:
        click.echo(json.dumps([asdict(h) | {"status": h.status} for h in found], default=str))
        return
    for h in found:
        click.echo(f"{h.site}: {h.notice}: {h.status}")


COMMANDS = (record_inspection, notify, approve, halts_command)
