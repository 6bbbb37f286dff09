"""The commands for appeals (§ 228-79C(1)(f); LAW.md § 14) and extensions of a date
(LAW.md § 11), attached to the main ``docgen`` group beside the register's:

    docgen appeal record NUMBER --received D --received-by NAME [--filed-by NAME] [--date D]
    docgen appeal hearing NUMBER --hearing D --time T [--place P] [--date D]
    docgen appeal decide NUMBER --outcome affirmed|modified|reversed --reason R ... --date D
                         --signed-by NAME --title TITLE [--modification TEXT]
                         [--remedy N=DATE ...]
    docgen extend NUMBER --item N --until D --granted-by NAME --reason R [--date D]

A thin shell over docgen.register.after_notice.appeals and
docgen.register.matter.extensions: parse, call, print.
"""

from __future__ import annotations

from datetime import date

import click

from docgen.register.commands.shared import (
    ISO,
    WHOSE,
    folder_or_file,
    open_register,
    output_options,
    print_issued,
)


@click.group()
def appeal() -> None:
    """Appeals of a notice of violation (§ 228-79C(1)(f)): received, heard, decided."""


@appeal.command("record")
@click.argument("number")
@click.option("--received", type=ISO, required=True, help="the day the notice of appeal came in")
@click.option("--received-by", "received_by", required=True, help="who received it")
@click.option("--filed-by", "filed_by", default=None, help="who filed it (default: the landowner)")
@click.option("--date", "on", type=ISO, default=None, help="the acknowledgment's date (today)")
@output_options
@WHOSE
def record(
    number: str,
    received: date,
    received_by: str,
    filed_by: str | None,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Record the written notice of appeal of the notice of violation NUMBER, on time or late
    counted from its service, and issue the acknowledgment."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register.after_notice.appeals import timing_of

    with open_register() as reg:
        issued = reg.record_appeal(
            number, received, received_by=received_by, filed_by=filed_by, on=on, by=by,
            formats=api.formats_from(fmt), out=folder_or_file(out), force=force,
            jurisdiction=jurisdiction,
        )  # fmt: skip
        when = timing_of(reg.document(issued.number).case)
    click.echo(
        f"{number}: appeal received {received.isoformat()}, filed "
        f"{'on time' if when.on_time else 'late'} (last day {when.last_day.isoformat()})"
    )
    print_issued(issued)


@appeal.command("hearing")
@click.argument("number")
@click.option("--hearing", "day", type=ISO, required=True, help="the day of the hearing")
@click.option("--time", "time", required=True, help="the time it begins, e.g. 7:00 p.m.")
@click.option("--place", default=None, help="where (default: the municipality's setting)")
@click.option("--signed-by", "signed_by", default=None, help="who gives the notice")
@click.option("--date", "on", type=ISO, default=None, help="the notice's date (today)")
@output_options
@WHOSE
def hearing(
    number: str,
    day: date,
    time: str,
    place: str | None,
    signed_by: str | None,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Issue the notice of the hearing of the appeal of NUMBER."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg:
        issued = reg.schedule_hearing(
            number, day, time, place=place, signed_by=signed_by, on=on, by=by,
            formats=api.formats_from(fmt), out=folder_or_file(out), force=force,
            jurisdiction=jurisdiction,
        )  # fmt: skip
    click.echo(f"{number}: appeal to be heard {day.isoformat()} at {time}")
    print_issued(issued)


def _remedies(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> dict[int, date]:
    """``--remedy N=DATE``, repeated: remedial measure N of the notice, now due DATE."""
    out: dict[int, date] = {}
    for typed in value:
        n, _, day = typed.partition("=")
        try:
            measure, due = int(n), date.fromisoformat(day.strip())
        except ValueError:
            raise click.BadParameter(
                f"{typed!r}: give the measure's number and its new date, e.g. 2=2026-12-18"
            ) from None
        if measure in out:
            raise click.BadParameter(f"{typed!r}: remedial measure {measure} given twice")
        out[measure] = due
    return out


@appeal.command("decide")
@click.argument("number")
@click.option("--outcome", type=click.Choice(("affirmed", "modified", "reversed")), required=True)
@click.option("--reason", "reasons", multiple=True, required=True, help="a reason (repeat)")
@click.option("--modification", default=None, help="how it is modified (outcome modified)")
@click.option(
    "--remedy",
    "remedies",
    multiple=True,
    callback=_remedies,
    metavar="N=DATE",
    help="remedial measure N now due DATE, as decided (outcome modified; repeat)",
)
@click.option("--date", "on", type=ISO, required=True, help="the day it was decided")
@click.option("--signed-by", "signed_by", required=True, help="who signs the decision")
@click.option("--title", required=True, help="their title, e.g. Chair, Zoning Board of Appeals")
@output_options
@WHOSE
def decide(
    number: str,
    outcome: str,
    reasons: tuple[str, ...],
    modification: str | None,
    remedies: dict[int, date],
    on: date,
    signed_by: str,
    title: str,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Record the decision on the appeal of NUMBER and issue it."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg:
        issued = reg.decide_appeal(
            number, outcome, list(reasons), modification=modification, remedies=remedies,
            on=on, signed_by=signed_by, title=title, by=by, formats=api.formats_from(fmt),
            out=folder_or_file(out), force=force, jurisdiction=jurisdiction,
        )  # fmt: skip
        decided = reg.document(issued.number).case.get("remedies") or []
    click.echo(f"{number}: {outcome} on appeal, {on.isoformat()}")
    for r in decided:
        click.echo(f"{number}, remedial measure {r['number']}: due {r['now']} (was {r['was']})")
    print_issued(issued)


@click.command()
@click.argument("number")
@click.option(
    "--item", type=int, required=True, help="the deficiency's or remedial measure's number"
)
@click.option("--until", type=ISO, required=True, help="the later date granted")
@click.option("--granted-by", "granted_by", required=True, help="the officer who granted it")
@click.option("--reason", required=True, help="why it was granted")
@click.option("--date", "on", type=ISO, default=None, help="the day it was granted (today)")
@output_options
@WHOSE
def extend(
    number: str,
    item: int,
    until: date,
    granted_by: str,
    reason: str,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Grant a later date for a corrective action (notice of deficiency) or a remedial
    measure (notice of violation) of NUMBER, and issue the letter to the person it binds."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg:
        issued = reg.extend(
            number, item, until, granted_by=granted_by, reason=reason, on=on, by=by,
            formats=api.formats_from(fmt), out=folder_or_file(out), force=force,
            jurisdiction=jurisdiction,
        )  # fmt: skip
        was = reg.document(issued.number).case["item"]["was"]
    click.echo(f"{number}, item {item}: due {until.isoformat()} (was {was})")
    print_issued(issued)


COMMANDS = (appeal, extend)
