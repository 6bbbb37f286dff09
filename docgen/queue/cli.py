"""`docgen worker`: a thin shell over docgen.queue.worker."""

from __future__ import annotations

import click


@click.command()
@click.option(
    "-c",
    "--concurrency",
    type=click.IntRange(min=1),
    default=None,
    help="worker processes [one per core]",
)
@click.option("--queue", "queue", default="docgen", show_default=True, help="the queue to serve")
@click.option("--status", is_flag=True, help="show the queue's health and exit")
def worker(concurrency: int | None, queue: str, status: bool) -> None:
    """Render queued jobs on this machine until stopped (SIGTERM or Ctrl-C: the jobs in
    hand finish first). Needs the register on PostgreSQL (DOCGEN_DATABASE_URL)."""
    # queue.worker and queue.app load sqlalchemy (+140 ms): kept out of `docgen --help`'s start
    from docgen.queue import worker as engine
    from docgen.queue.app import Settings

    if status:
        found = engine.status()
        for line in engine.status_lines(found, Settings.from_env().stalled_after):
            click.echo(line)
        return
    engine.run(concurrency, queue, say=lambda line: click.echo(line, err=True))
