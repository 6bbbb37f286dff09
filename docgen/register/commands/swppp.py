"""`docgen swppp`: a site's SWPPP, its review item by item, and the approval or return
letter (LAW.md § 15; § 228-77D(4), § 228-78B(1), (2); § 301-71A, B): a thin layer over
docgen.register.plans.swppp and docgen.register.plans.swppp_letters."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import click

from docgen.register.commands.shared import BY, ISO, day_typed, open_register, print_issued

FINDING_HELP = (
    'ID=present, ID=missing[:"what is missing"], ID=inadequate:"the reviewer\'s words" or '
    "ID=not-applicable (only for an item the law requires where it applies); repeat for "
    "each item"
)


@click.group()
def swppp() -> None:
    """The SWPPP reviewed against the law's list, approved or returned in writing."""


def _plan_options(fn: Any) -> Any:
    for option in reversed(
        (
            click.option("--revision", required=True, help="the plan's revision (or its date)"),
            click.option(
                "--dated", callback=day_typed, default=None, help="the date the plan bears"
            ),
            click.option("--received", callback=day_typed, default=None, help="default: today"),
            click.option("--permit", default=None, help="SPDES permit or NOI identifier"),
            click.option("--applicant", default=None, help="to whom the letters go"),
            BY,
        )
    ):
        fn = option(fn)
    return fn


def _today(site_id: int, reg: Any) -> date:
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.sites.invitations import site, today_in

    return today_in(site(reg.engine, site_id).jurisdiction)


@swppp.command("add")
@click.argument("site", type=int)
@click.option("--title", required=True, help="the SWPPP's title")
@click.option("--preparer", required=True, help="who prepared it")
@click.option("--qualification", required=True, help="the preparer's qualification")
@_plan_options
def add(
    site: int,
    title: str,
    preparer: str,
    qualification: str,
    revision: str,
    dated: date | None,
    received: date | None,
    permit: str | None,
    applicant: str | None,
    by: str | None,
) -> None:
    """Record the SWPPP received for SITE (a site's id, `docgen certify site`)."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.plans.swppp import add_plan
    from docgen.register.storage.audit import actor

    with open_register() as reg:
        plan = add_plan(
            reg.engine,
            site,
            title=title,
            revision=revision,
            preparer=preparer,
            qualification=qualification,
            received=received or _today(site, reg),
            dated=dated,
            permit=permit,
            applicant=applicant,
            by=actor(by),
        )
    click.echo(f"plan {plan.id}: {plan.label}")


@swppp.command("amend")
@click.argument("plan", type=int)
@click.option(
    "--changes",
    required=True,
    help="the ids of the items the amendment changes, comma-separated (`docgen swppp items`)",
)
@click.option("--title", default=None, help="default: as the revision amended")
@click.option("--preparer", default=None, help="default: as the revision amended")
@click.option("--qualification", default=None, help="default: as the revision amended")
@_plan_options
def amend(
    plan: int,
    changes: str,
    title: str | None,
    preparer: str | None,
    qualification: str | None,
    revision: str,
    dated: date | None,
    received: date | None,
    permit: str | None,
    applicant: str | None,
    by: str | None,
) -> None:
    """Record an amended revision of PLAN: it is reviewed against the items it changes."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.plans.swppp import add_plan
    from docgen.register.plans.swppp import plan as plan_of
    from docgen.register.storage.audit import actor

    with open_register() as reg:
        old = plan_of(reg.engine, plan)
        new = add_plan(
            reg.engine,
            old.site_id,
            title=title,
            revision=revision,
            preparer=preparer,
            qualification=qualification,
            received=received or _today(old.site_id, reg),
            dated=dated,
            permit=permit,
            applicant=applicant,
            amends=plan,
            changes=[c.strip() for c in changes.split(",") if c.strip()],
            by=actor(by),
        )
    click.echo(f"plan {new.id}: {new.label}, amending plan {plan} ({', '.join(new.changes or ())})")


@swppp.command("items")
@click.option("--jurisdiction", required=True, help="the municipality")
def items(jurisdiction: str) -> None:
    """List the items of the law's list, with their ids and citations."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.plans.swppp import swppp_list

    for item in swppp_list(jurisdiction).items:
        where = "" if item.part == "contents" else f" [{item.part}]"
        click.echo(f"{item.id:<24} {item.ref:<22} {item.label}{where}")


def _parse(values: tuple[str, ...], path: str | None) -> dict[str, tuple[str, str | None]]:
    given: dict[str, tuple[str, str | None]] = {}
    if path:
        try:
            raw = json.loads(Path(path).read_text("utf-8"))
        except (OSError, ValueError) as err:
            raise click.BadParameter(f"{path}: not a readable JSON review ({err})") from None
        if not isinstance(raw, dict):
            raise click.BadParameter(f"{path}: a JSON object of item id: finding")
        for key, value in raw.items():
            if isinstance(value, str):
                given[str(key)] = (value, None)
            elif isinstance(value, dict):
                given[str(key)] = (str(value.get("finding", "")), value.get("words"))
            else:
                raise click.BadParameter(f"{path}: {key}: a finding, or finding and words")
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep:
            raise click.BadParameter(f"{value!r}: {FINDING_HELP}", param_hint="--item")
        finding, _, words = rest.partition(":")
        given[key.strip()] = (finding.strip(), words.strip() or None)
    return given


@swppp.command("review")
@click.argument("plan", type=int)
@click.option("--item", "values", multiple=True, help=FINDING_HELP)
@click.option("--file", "path", default=None, help="or a JSON file: {id: finding or {...}}")
@click.option("--reviewer", required=True, help="who reviewed it: 'Name, Title'")
@click.option("--date", "on", type=ISO, required=True, help="the day of the review")
@BY
def review(
    plan: int, values: tuple[str, ...], path: str | None, reviewer: str, on: date, by: str | None
) -> None:
    """Record a review of PLAN, item by item."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.plans.swppp import SAID, record_review
    from docgen.register.storage.audit import actor

    given = _parse(values, path)
    with open_register() as reg:
        done = record_review(reg.engine, plan, given, reviewer=reviewer, on=on, by=actor(by))
    shut = done.open_items
    click.echo(f"review {done.id} of plan {plan}: {len(shut)} item(s) open")
    for f in shut:
        click.echo(f"  {f.item.id} ({f.item.ref}): {SAID[f.finding]}")


def _decide(outcome: str) -> Any:
    @click.argument("plan", type=int)
    @click.option("--date", "on", type=ISO, required=True, help="the letter's date")
    @click.option("-o", "--out", default=None, help="where the letter goes (default: here)")
    @click.option("-f", "--format", "fmt", default="all", show_default=True)
    @click.option("--force", is_flag=True, help="replace a different file at the output path")
    @BY
    def command(
        plan: int, on: date, out: str | None, fmt: str, force: bool, by: str | None
    ) -> None:
        # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
        from docgen import api

        with open_register() as reg:
            issued = reg.swppp_decide(
                plan,
                outcome,
                on,
                by=by,
                formats=api.formats_from(fmt),
                out=out or "./",
                force=force,
            )
        click.echo(f"plan {plan}: {outcome} on {on.isoformat()}")
        print_issued(issued)

    return command


swppp.command(
    "approve", help="Approve PLAN on its last review: every item of the law's list present."
)(_decide("approved"))
swppp.command("return", help="Return PLAN on its last review: each item missing or not adequate.")(
    _decide("returned")
)


@swppp.command("show")
@click.argument("site", type=int)
def show(site: int) -> None:
    """The SITE's plans and the state of the latest."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.plans.swppp import plans, state

    with open_register(readonly=True) as reg:
        for p in plans(reg.engine, site):
            click.echo(f"plan {p.id}: {p.label}, received {p.received.isoformat()}")
        click.echo(state(reg.engine, site))


@click.group()
def fees() -> None:
    """Statements of fees for the reviews and inspections the register holds (§ 228-79D)."""


@fees.command("statement")
@click.argument("site", type=int)
@click.option("--from", "start", type=ISO, required=True, help="the period's first day")
@click.option("--to", "end", type=ISO, required=True, help="the period's last day")
@click.option("--date", "on", type=ISO, required=True, help="the statement's date")
@click.option("--payer", required=True, help="to whom the statement goes")
@click.option("--officer", required=True, help="who states the fees: 'Name, Title'")
@click.option("-o", "--out", default=None, help="where the statement goes (default: here)")
@click.option("-f", "--format", "fmt", default="all", show_default=True)
@click.option("--force", is_flag=True, help="replace a different file at the output path")
@BY
def statement(
    site: int,
    start: date,
    end: date,
    on: date,
    payer: str,
    officer: str,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
) -> None:
    """Issue the statement of fees of SITE for the period."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen import api
    from docgen.register.plans import fees as fee_register

    name, _, title = officer.partition(",")
    if not title.strip():
        raise click.BadParameter(
            "'Name, Title', e.g. 'Dana R. Whitcomb, Code Enforcement Officer'",
            param_hint="--officer",
        )
    with open_register() as reg:
        issued = fee_register.statement(
            reg,
            site,
            start,
            end,
            on,
            payer=payer,
            officer={"name": name.strip(), "title": title.strip()},
            by=by,
            formats=api.formats_from(fmt),
            out=out or "./",
            force=force,
        )
    print_issued(issued)


@fees.command("pay")
@click.argument("number")
@click.option("--amount", required=True, help="in dollars, e.g. 150.00")
@click.option("--date", "on", type=ISO, required=True, help="the day it was paid")
@click.option("--method", required=True, help="check no. 1234, cash, card")
@BY
def pay(number: str, amount: str, on: date, method: str, by: str | None) -> None:
    """Record a payment against the statement of fees NUMBER."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.plans import fees as fee_register

    with open_register() as reg:
        left = fee_register.pay(reg, number, amount, on, method, by)
    click.echo(f"{number}: payment recorded; balance due {left:.2f}")


@click.command("year")
@click.option("--jurisdiction", required=True, help="the municipality")
@click.option(
    "--period",
    "year_named",
    type=click.IntRange(1900, 9999),
    default=None,
    help="the pack's reporting period ending in this year (e.g. 2026)",
)
@click.option("--from", "start", type=ISO, default=None, help="the period's first day")
@click.option("--to", "end", type=ISO, default=None, help="the period's last day")
@click.option("--csv", "as_csv", is_flag=True, help="as CSV: category, count, rule, documents")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="write the draft report (PDF, HTML, DOCX) into this folder",
)
@click.option("--prepared-by", default=None, help="with --out: who draws the figures")
@click.option("--title", default=None, help="with --out: their title (e.g. Village Clerk)")
def year(
    jurisdiction: str,
    year_named: int | None,
    start: date | None,
    end: date | None,
    as_csv: bool,
    out: Path | None,
    prepared_by: str | None,
    title: str | None,
) -> None:
    """The municipality's year in figures, from the register only, each count with the
    rule it follows and its document numbers (a draft for public review): for the pack's
    reporting period named by --period, or from --from to --to."""
    # loads sqlalchemy and the register (+580 ms): kept out of start-up and `docgen --help`
    from docgen.register.reading import year as figures_of

    when = figures_of.reporting_period(jurisdiction, year_named, start, end)
    with open_register(readonly=True) as reg:
        found = figures_of.figures(reg.engine, jurisdiction, when.start, when.through)
    if as_csv:
        click.echo(figures_of.as_csv(found), nl=False)
        return
    if out is not None:
        if not prepared_by or not title:
            raise click.UsageError(
                "the report names who drew its figures: give --prepared-by and --title"
            )
        written = figures_of.write_report(
            jurisdiction, when, found, {"name": prepared_by, "title": title}, out
        )
        for path in written:
            click.echo(str(path))
        return
    click.echo(f"DRAFT for public review: {when.start.isoformat()} to {when.end.isoformat()}")
    if not when.ended:
        click.echo(f"The period has not ended: figures to {when.through.isoformat()}")
    for f in found:
        click.echo(f"{f.category}: {f.count} ({f.rule})")
        for number in f.numbers:
            click.echo(f"  {number}")
