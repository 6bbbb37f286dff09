"""The officer's and clerk's commands for the steps after the notice (§ 228-79C(5), (6);
LAW.md § 14), attached to the main ``docgen`` group beside the register's:

    docgen withhold-occupancy NUMBER --premises TEXT [--date D]   the order (C(5))
    docgen release-occupancy ORDER [--date D]                     its release in writing
    docgen require-restoration NUMBER --restore TEXT --restore-by D [--date D]   (C(6))
    docgen state-restoration-cost NOTICE --inspection REPORT --item "WHAT=AMOUNT" ...
    docgen record-lien STATEMENT [--date D]                       the notice of lien
    docgen record-lien-payment LIEN --amount A --paid-on D --paid-by NAME
    docgen release-lien LIEN [--date D]                           once paid in full

A thin shell over docgen.register.after_notice.occupancy, .restoration and .liens: parse,
call, print.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

import click

from docgen.register.commands.shared import (
    ISO,
    WHOSE,
    folder_or_file,
    open_register,
    output_options,
    print_issued,
    recorded_number_said,
)

DATE = click.option("--date", "on", type=ISO, default=None, help="the issue date (default: today)")


def _today(on: date | None) -> date:
    # register.matter.issuing loads sqlalchemy (+300 ms): kept out of `docgen --help`'s start
    from docgen.register.matter.issuing import today

    return on or today()


@click.command("withhold-occupancy")
@click.argument("number")
@click.option("--premises", required=True, help="the building or land whose occupancy is prevented")
@DATE
@output_options
@WHOSE
def withhold_occupancy(
    number: str,
    premises: str,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Issue an order preventing the occupancy of the building or land (§ 228-79C(5)),
    resting on the notice of violation or stop-work order NUMBER; serve it with
    record-service."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg, recorded_number_said():
        issued = reg.withhold_occupancy(
            number, premises, _today(on), by=by, formats=api.formats_from(fmt),
            out=folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    print_issued(issued)


@click.command("release-occupancy")
@click.argument("order")
@DATE
@output_options
@WHOSE
def release_occupancy(
    order: str,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Release in writing the order preventing occupancy ORDER (§ 228-79C(5))."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg, recorded_number_said():
        issued = reg.release_occupancy(
            order, _today(on), by=by, formats=api.formats_from(fmt),
            out=folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    print_issued(issued)


@click.command("require-restoration")
@click.argument("number")
@click.option(
    "--restore", required=True, help="what is to be restored to its undisturbed condition"
)
@click.option(
    "--restore-by",
    "restore_by",
    type=ISO,
    required=True,
    help="the officer's date: the reasonable time after notice",
)
@DATE
@output_options
@WHOSE
def require_restoration(
    number: str,
    restore: str,
    restore_by: date,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Issue the notice requiring restoration of lands (§ 228-79C(6)), resting on the
    notice of violation or stop-work order NUMBER; serve it with record-service."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg, recorded_number_said():
        issued = reg.require_restoration(
            number, restore, restore_by, _today(on), by=by, formats=api.formats_from(fmt),
            out=folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    print_issued(issued)


def _item(text: str) -> tuple[str, Decimal]:
    """ "WHAT=AMOUNT": an item of the corrective action and its cost."""
    what, _, amount = text.rpartition("=")
    try:
        value = Decimal(amount.strip().replace(",", "").replace("$", ""))
    except InvalidOperation:
        value = None
    if not what.strip() or value is None or not value.is_finite():
        raise click.BadParameter(
            f'{text!r}: give each item as WHAT=AMOUNT, e.g. "Seed and mulch=410.50"',
            param_hint="--item",
        )
    return what.strip(), value.quantize(Decimal("0.01"))


@click.command("state-restoration-cost")
@click.argument("notice")
@click.option(
    "--inspection", required=True, help="the inspection report that found restoration not done"
)
@click.option("--item", "items", multiple=True, required=True, help="WHAT=AMOUNT, once per item")
@DATE
@output_options
@WHOSE
def state_restoration_cost(
    notice: str,
    inspection: str,
    items: tuple[str, ...],
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Issue the statement of the cost of the corrective action the municipality took after
    the notice requiring restoration NOTICE (§ 228-79C(6))."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api

    parsed = [_item(i) for i in items]
    with open_register() as reg, recorded_number_said():
        issued = reg.state_restoration_cost(
            notice, inspection, parsed, _today(on), by=by, formats=api.formats_from(fmt),
            out=folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    print_issued(issued)


@click.command("record-lien")
@click.argument("statement")
@DATE
@output_options
@WHOSE
def record_lien(
    statement: str,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Issue the notice of lien for the cost the statement STATEMENT states, for recording
    with the County Clerk (§ 228-79C(6))."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg, recorded_number_said():
        issued = reg.record_lien(
            statement, _today(on), by=by, formats=api.formats_from(fmt),
            out=folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    print_issued(issued)


@click.command("record-lien-payment")
@click.argument("lien")
@click.option("--amount", required=True, help="the amount paid, e.g. 460.50")
@click.option("--paid-on", "paid_on", type=ISO, required=True, help="the day it was paid")
@click.option("--paid-by", "paid_by", required=True, help="who paid it")
@click.option("--by", "by", default=None, help="who records this (default: your user name)")
def record_lien_payment(
    lien: str, amount: str, paid_on: date, paid_by: str, by: str | None
) -> None:
    """Record a payment on the lien LIEN (§ 228-79C(6): a lien until paid)."""
    # render.filters loads babel, num2words (+150 ms): kept out of `docgen --help`'s start
    from docgen.render.filters import money

    try:
        value = Decimal(amount.strip().replace(",", "").replace("$", ""))
    except InvalidOperation:
        hint = f"{amount!r}: not an amount, e.g. 460.50"
        raise click.BadParameter(hint, param_hint="--amount") from None
    with open_register() as reg:
        left = reg.record_lien_payment(lien, value, paid_on, paid_by, by=by)
    click.echo(f"{lien}: payment of {money(value)} recorded; balance {money(left)}")


@click.command("release-lien")
@click.argument("lien")
@DATE
@output_options
@WHOSE
def release_lien(
    lien: str,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Issue the release of the lien LIEN, paid in full, for recording (§ 228-79C(6))."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg, recorded_number_said():
        issued = reg.release_lien(
            lien, _today(on), by=by, formats=api.formats_from(fmt), out=folder_or_file(out),
            force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
    print_issued(issued)


COMMANDS = (
    withhold_occupancy,
    release_occupancy,
    require_restoration,
    state_restoration_cost,
    record_lien,
    record_lien_payment,
    release_lien,
)
