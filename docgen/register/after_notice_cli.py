"""The officer's and clerk's commands for the steps after the notice (§ 228-79C(5), (6);
LAW.md § 14), attached to the main ``docgen`` group beside the register's:

    docgen withhold-occupancy NUMBER --premises TEXT [--date D]   the order (C(5))
    docgen release-occupancy ORDER [--date D]                     its release in writing

A thin shell over docgen.register.occupancy: parse, call, print.
"""

from __future__ import annotations

from datetime import date

import click

from docgen.register.cli import (
    ISO,
    WHOSE,
    _folder_or_file,
    _open,
    _print_issued,
    _recorded_number_said,
    output_options,
)

DATE = click.option("--date", "on", type=ISO, default=None, help="the issue date (default: today)")


def _today(on: date | None) -> date:
    from docgen.register.issuing import today

    return on or today()


@click.command("withhold-occupancy")
@click.argument("number")
@click.option("--premises", required=True, help="the building or land whose occupancy is prevented")
@DATE
@output_options
@WHOSE
def withhold_occupancy(number, premises, on, out, fmt, force, by, jurisdiction) -> None:
    """Issue an order preventing the occupancy of the building or land (§ 228-79C(5)),
    resting on the notice of violation or stop-work order NUMBER; serve it with
    record-service."""
    from docgen import api

    with _open() as reg, _recorded_number_said():
        issued = reg.withhold_occupancy(
            number, premises, _today(on), by=by, formats=api.formats_from(fmt),
            out=_folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    _print_issued(issued)


@click.command("release-occupancy")
@click.argument("order")
@DATE
@output_options
@WHOSE
def release_occupancy(order, on, out, fmt, force, by, jurisdiction) -> None:
    """Release in writing the order preventing occupancy ORDER (§ 228-79C(5))."""
    from docgen import api

    with _open() as reg, _recorded_number_said():
        issued = reg.release_occupancy(
            order, _today(on), by=by, formats=api.formats_from(fmt),
            out=_folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    _print_issued(issued)


COMMANDS = (withhold_occupancy, release_occupancy)
