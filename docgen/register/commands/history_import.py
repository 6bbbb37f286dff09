"""Convictions from before the register, imported from a CSV as one batch and withdrawn
whole (``docgen register import-history``), and the imports listed (``docgen register
imports``); docgen.register.commands.keeping adds both to the ``register`` group.
"""

from __future__ import annotations

from pathlib import Path

import click

from docgen.register.commands.shared import BY, open_register


@click.command("imports")
def imports() -> None:
    """Every history import: its file, who ran it, its rows, and whether it finished."""
    # register.people.import_runs loads sqlalchemy, asyncio (+270 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.people.import_runs import runs

    with open_register(readonly=True) as reg:
        listed = runs(reg)
    for run in listed:
        click.echo(run.line())
    if not listed:
        click.echo("no history imported")


@click.command("import-history")
@click.argument("csv_file", metavar="CSV", required=False, type=click.Path(path_type=Path))
@click.option("--undo", "undo", default=None, metavar="ID", help="withdraw import ID")
@BY
def import_history(csv_file: Path | None, undo: str | None, by: str | None) -> None:
    """Convictions from before the register, one per row, each with its court reference;
    one import is one batch, withdrawn whole with --undo ID."""
    # register.people.imports loads sqlalchemy, pydantic (+480 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.people.imports import import_history as run_import
    from docgen.register.people.imports import undo_import

    if undo is not None and csv_file is None:
        with open_register() as reg:
            gone = undo_import(reg, undo, by=by)
        click.echo(f"import {undo.strip()} withdrawn: {gone} offense(s) removed")
        return
    if csv_file is None or undo is not None:
        raise click.UsageError("give a CSV to import, or --undo ID to withdraw an import")
    with open_register() as reg:
        done = run_import(reg, csv_file, by=by)
    for line in done.lines:
        click.echo(line)
    for line in done.duplicates:
        click.echo(f"duplicate: {line}")
    if done.batch is not None:
        before = f" (and {done.before} before it stopped: finished)" if done.before else ""
        click.echo(
            f"import {done.batch}: {len(done.lines)} row(s) imported{before}, "
            f"{len(done.duplicates)} duplicate(s) left out (withdraw with --undo {done.batch})"
        )
    else:
        click.echo(f"nothing imported: {len(done.duplicates)} duplicate(s) left out")
