"""The register itself, from the command line (``docgen register ...``):

    docgen register upgrade | backup FILE | check | restore BACKUP
    docgen register account-numbers [--used-through NUMBER ... | --none-since | --list]
    docgen register imports | import-history CSV [--undo ID]

Its schema migrated, a consistent copy taken while it is in use, its files and database
checked, a backup restored and the numbers used since accounted for; the history
imported from before it is docgen.register.commands.history_import's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from docgen.register.commands.history_import import import_history, imports
from docgen.register.commands.shared import BY, WHOSE, open_register


@click.group()
def register() -> None:
    """The register itself: migrations, backups, history from before it."""


@register.command()
def upgrade() -> None:
    """Migrate the register to the newest schema."""
    # register.store and register.storage.db load sqlalchemy (+580 ms):
    # kept out of `docgen --help`'s start
    from docgen.register import Register
    from docgen.register.storage.db import safe_url

    with Register.open(migrate=False) as reg:
        before, after = reg.upgrade()
        where = safe_url(reg.url)
    if before == after:
        click.echo(f"{where}: already at revision {after}")
    else:
        click.echo(f"{where}: migrated from {before or 'empty'} to revision {after}")


@register.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(file: Path) -> None:
    """Write a consistent copy of the register to FILE, while it is in use."""
    # register.keeping.maintenance loads sqlalchemy, pydantic (+420 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.keeping.maintenance import backup as make_backup

    with open_register() as reg:
        click.echo(str(make_backup(reg, file)))


@register.command("check")
def check_register() -> None:
    """Check every stored file against its SHA-256 and the database's own integrity, and
    report imports that stopped unfinished."""
    # register.people.import_runs and others load sqlalchemy (+420 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.keeping.maintenance import check
    from docgen.register.people.import_runs import stopped

    with open_register(readonly=True) as reg:
        found = check(reg)
        halted = stopped(reg)
    for line in found.lines():
        click.echo(line)
    for run in halted:
        click.echo(run.line())
    if not found.sound or halted:
        sys.exit(1)


@register.command("restore")
@click.argument("backup", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="restore over a register that has issued documents")
@BY
def restore_register(backup: Path, force: bool, by: str | None) -> None:
    """Put the register back as BACKUP holds it; it issues nothing until the numbers used
    after the backup are accounted for (docgen register account-numbers)."""
    # register.storage.audit and others load sqlalchemy (+420 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.keeping.restores import restore
    from docgen.register.storage.audit import actor
    from docgen.register.storage.db import default_url, safe_url

    url = default_url()
    done = restore(url, backup, force, actor(by))
    if done.kept is not None:
        click.echo(f"the register it replaced is kept as {done.kept}")
    click.echo(f"{safe_url(url)}: restored from {done.backup}")
    click.echo(
        "nothing is issued until the numbers used after the backup are accounted for in "
        "every series (docgen register account-numbers --list names them): "
        "docgen register account-numbers --used-through NUMBER ... (or --none-since)"
    )


@register.command("account-numbers")
@click.option(
    "--used-through",
    "used_through",
    multiple=True,
    metavar="NUMBER",
    help="the highest number of a series used after the backup (repeat, one per series)",
)
@click.option(
    "--others-unused",
    is_flag=True,
    help="with --used-through: no number of any series not named was used after the backup",
)
@click.option("--none-since", is_flag=True, help="nothing was issued after the backup was taken")
@click.option(
    "--list",
    "listing",
    is_flag=True,
    help="list every series to account for, with the backup's last number of each",
)
@WHOSE
@BY
def account_numbers(
    used_through: tuple[str, ...], others_unused: bool, none_since: bool, listing: bool,
    jurisdiction: str | None, by: str | None
) -> None:  # fmt: skip
    """After a restore: say which numbers were used after the backup, in every series the
    register numbers (--list names them), so none is given twice; each series named starts
    above its number and the gap is recorded with its reason."""
    # register.storage.audit and others load sqlalchemy (+420 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.keeping.restores import account, series_of
    from docgen.register.storage.audit import actor

    if listing:
        with open_register(readonly=True) as reg:
            listed = series_of(reg)
        for series in listed:
            click.echo(series.said())
        return
    with open_register() as reg:
        gaps = account(reg, list(used_through), none_since, actor(by), jurisdiction, others_unused)
    for gap in gaps:
        click.echo(f"gap recorded: {gap.said()} (issued after the backup)")
    click.echo("the register issues again")


for command in (imports, import_history):
    register.add_command(command)
