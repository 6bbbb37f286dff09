"""The officer's commands for inspections (§ 228-79A(1); LAW.md § 11), attached to the main
``docgen`` group beside the register's:

    docgen record-inspection CASE [-o PATH] [-f F]       the inspection report, numbered
    docgen notify-deficiency INSPECTION [--date D] [--copies] [-o PATH]
    docgen approve-work NOTICE --reinspection INSPECTION --date D [-o PATH]
    docgen halts [--site S] [--json]                     the A(1) halt per site
    docgen escalate NOTICE --to KIND --date D --due D    a NOV or stop-work order from it
    docgen ask-reinspection NOTICE --date D --asked-by NAME
    docgen due [--site S] [--through D] [--json]         the calendar, overdue first
    docgen calendar-feed USER [--revoke]                 a user's secret iCalendar address
    docgen logbook SITE [--open ...] [--add CSV] [--through D] [--json]

A thin shell over docgen.register.matter.inspections: parse, call, print.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from pathlib import Path

import click

from docgen.register.commands.shared import (
    BY,
    ISO,
    WHOSE,
    copies_option,
    folder_or_file,
    open_register,
    output_options,
    print_issued,
    recorded_number_said,
)


@click.command("record-inspection")
@click.argument("case", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@output_options
def record_inspection(case: Path, out: str | None, fmt: str, force: bool, by: str | None) -> None:
    """Record an inspection (a finding of nothing too) and issue its numbered report."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register.matter.inspections import INSPECTION, record_inspection_case

    with open_register() as reg, recorded_number_said(), api.said_in_words(INSPECTION):
        issued = record_inspection_case(
            reg, case, formats=api.formats_from(fmt), out=folder_or_file(out), by=by, force=force
        )
    print_issued(issued)


@click.command("notify-deficiency")
@click.argument("inspection")
@click.option("--date", "on", type=ISO, default=None, help="the issue date (default: today)")
@output_options
@copies_option
@WHOSE
def notify(
    inspection: str,
    on: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    copies: bool,
    jurisdiction: str | None,
) -> None:
    """Issue the notice of deficiency of INSPECTION's deficiencies (§ 228-79A(1))."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register import Issue
    from docgen.register.matter.inspections import notify_deficiency

    with open_register() as reg, recorded_number_said():
        issued = notify_deficiency(
            reg,
            inspection,
            on,
            jurisdiction=jurisdiction,
            formats=api.formats_from(fmt),
            out=folder_or_file(out),
            by=by,
            force=force,
            asked=Issue(copies=copies),
        )
    print_issued(issued)


@click.command("approve-work")
@click.argument("notice")
@click.option("--reinspection", required=True, help="the reinspection's report number")
@click.option("--date", "on", type=ISO, required=True, help="the day the work is approved")
@output_options
@WHOSE
def approve(
    notice: str,
    reinspection: str,
    on: date,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Approve the corrected work of NOTICE found on a reinspection (§ 228-79A(1))."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register.matter.inspections import approve_work

    with open_register() as reg, recorded_number_said():
        issued = approve_work(
            reg,
            notice,
            reinspection,
            on,
            jurisdiction=jurisdiction,
            formats=api.formats_from(fmt),
            out=folder_or_file(out),
            by=by,
            force=force,
        )
    print_issued(issued)


@click.command("halts")
@click.option("--site", default=None, help="only sites whose address or description has this")
@click.option("--json", "as_json", is_flag=True, help="one JSON array")
def halts_command(site: str | None, as_json: bool) -> None:
    """Per site, whether the halt of § 228-79A(1) is in effect or lifted."""
    # register.matter.inspections loads sqlalchemy, pydantic (+590 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.matter.inspections import halts

    with open_register(readonly=True) as reg:
        found = halts(reg, site)
    if as_json:
        click.echo(json.dumps([asdict(h) | {"status": h.status} for h in found], default=str))
        return
    for h in found:
        click.echo(f"{h.site}: {h.notice}: {h.status}")


@click.command("ask-reinspection")
@click.argument("notice")
@click.option("--date", "on", type=ISO, required=True, help="the day it was asked for")
@click.option("--asked-by", required=True, help="who asked (name, and firm)")
@BY
@WHOSE
def ask(notice: str, on: date, asked_by: str, by: str | None, jurisdiction: str | None) -> None:
    """Record that a reinspection of NOTICE's corrective work was asked for."""
    # register.matter.inspections loads sqlalchemy, pydantic (+590 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.matter.inspections import ask_reinspection

    with open_register() as reg:
        ask_reinspection(reg, notice, on, asked_by, by=by, jurisdiction=jurisdiction)
    click.echo(f"{notice}: reinspection asked for on {on} by {asked_by}")


@click.command("due")
@click.option("--site", default=None, help="only sites whose address or description has this")
@click.option("--through", type=ISO, default=None, help="dated items up to this day")
@click.option("--json", "as_json", is_flag=True, help="one JSON array")
@click.option(
    "--user",
    default=None,
    help="only USER's own: what comes from documents USER recorded (default: everything)",
)
def due(site: str | None, through: date | None, as_json: bool, user: str | None) -> None:
    """What is due and what is in effect, overdue first (corrective actions, remedies,
    appeal deadlines, reinspections asked for, log-book inspections, orders and halts)."""
    # register.reading.due loads sqlalchemy, pydantic, yaml (+600 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.reading.due import calendar

    with open_register(readonly=True) as reg:
        items = calendar(reg, site, through, user=user)
    if as_json:
        # each item's fields as they are (vars: asdict copied 2,500 items field by field)
        click.echo(json.dumps([vars(i) for i in items], default=str, indent=1))
        return
    for i in items:
        state = "OVERDUE " if i.overdue else "in effect since " if i.ongoing else ""
        note = f" [{i.note}]" if i.note else ""
        click.echo(f"{state}{i.day}  {i.category}: {i.what} | {i.site} ({i.provision}){note}")
        if i.warning:
            click.echo(f"  warning: {i.warning}")
    if not items:
        click.echo("nothing due")


@click.command("calendar-feed")
@click.argument("user")
@click.option("--revoke", "revoke_", is_flag=True, help="revoke the user's feed address")
def calendar_feed(user: str, revoke_: bool) -> None:
    """A new secret address of USER's calendar feed (the earlier one stops working), or
    --revoke it. The desk serves it at /calendar/SECRET.ics."""
    # register.reading.feed loads sqlalchemy, pydantic (+640 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.reading.feed import new_token, revoke

    with open_register() as reg:
        if revoke_:
            click.echo(f"{user}: {revoke(reg, user)} feed address(es) revoked")
            return
        token = new_token(reg, user)
    click.echo(f"/calendar/{token}.ics")


@click.command("logbook")
@click.argument("site")
@click.option("--open", "opening", is_flag=True, help="open the site's log book")
@click.option("--jurisdiction", default=None, help="with --open: the municipality")
@click.option("--started", type=ISO, default=None, help="with --open: the day work started")
@click.option("--exemption", default=None, help="with --open: the D(2)(c) exemption, e.g. [3]")
@click.option("--acre-authorized", is_flag=True, help="with --open: DEC authorized an acre or more")
@click.option("--add", "csv_file", default=None, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--through", type=ISO, default=None, help="gaps up to this day (default today)")
@click.option("--json", "as_json", is_flag=True)
@BY
def logbook_command(
    site: str,
    opening: bool,
    jurisdiction: str | None,
    started: date | None,
    exemption: str | None,
    acre_authorized: bool,
    csv_file: Path | None,
    through: date | None,
    as_json: bool,
    by: str | None,
) -> None:
    """SITE's log book with its gaps (§ 228-78D(2); § 301-73A(2)); --open it, --add a CSV."""
    # register.sites.logbook loads sqlalchemy, pydantic (+600 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.sites.logbook import add_entries, logbook, open_log

    with open_register(readonly=not (opening or csv_file)) as reg:
        if opening:
            if not jurisdiction or started is None:
                raise click.UsageError("--open needs --jurisdiction and --started")
            open_log(reg, site, jurisdiction, started, exemption, acre_authorized, by)
        if csv_file is not None:
            click.echo(add_entries(reg, site, csv_file, by).said)
        log = logbook(reg, site, through)
    if as_json:
        click.echo(json.dumps(asdict(log) | {"entries": [e.id for e in log.entries]}, default=str))
        return
    click.echo(f"site {log.number}: {log.site} ({log.jurisdiction}), work started {log.started}")
    rule = log.rule
    if rule.interval_days is None:
        click.echo(f"exempt from the periodic inspections ({rule.provision})")
    else:
        click.echo(
            f"{rule.per_interval} qualified inspection(s) every {rule.interval_days} days "
            f"({rule.provision}); next due by {log.next_due}"
        )
    for e in log.entries:
        rain = f", rain {e.rainfall} in" if e.rainfall else ""
        click.echo(
            f"{e.day} {e.time}  {e.role}: {e.inspector} ({e.qualification}){rain}: {e.findings}"
        )
    for g in log.gaps:
        click.echo(f"GAP due {g.due}: {g.why} ({g.provision})")
    if not log.gaps:
        click.echo("no gap")


@click.command("require-reports")
@click.argument("site")
@click.option("--date", "on", type=ISO, required=True, help="the letter's date")
@click.option("--submit-by", type=ISO, required=True, help="the day the reports are due")
@output_options
def require(
    site: str, on: date, submit_by: date, out: str | None, fmt: str, force: bool, by: str | None
) -> None:
    """Require SITE's log book reports (§ 228-79A(4)) in a letter made from its gaps."""
    # api and others load sqlalchemy, pydantic, yaml (+610 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register.sites.logbook import require_reports

    with open_register() as reg, recorded_number_said():
        issued = require_reports(
            reg,
            site,
            on,
            submit_by,
            formats=api.formats_from(fmt),
            out=folder_or_file(out),
            by=by,
            force=force,
        )
    print_issued(issued)


@click.command("escalate")
@click.argument("notice")
@click.option("--to", "kind", required=True, help="notice-of-violation or stop-work-order")
@click.option("--date", "on", type=ISO, required=True, help="the issue date")
@click.option("--due", type=ISO, required=True, help="the day the remedies are due")
@output_options
@copies_option
@WHOSE
def escalate_command(
    notice: str,
    kind: str,
    on: date,
    due: date,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    copies: bool,
    jurisdiction: str | None,
) -> None:
    """A notice of violation or a stop-work order from NOTICE's deficiencies still open
    past their dates, with nothing typed again."""
    # api and others load sqlalchemy, pydantic, yaml (+600 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register import Issue
    from docgen.register.matter.inspections import escalate

    with open_register() as reg, recorded_number_said():
        issued = escalate(
            reg,
            notice,
            kind,
            on,
            due,
            jurisdiction=jurisdiction,
            formats=api.formats_from(fmt),
            out=folder_or_file(out),
            by=by,
            force=force,
            asked=Issue(copies=copies),
        )
    print_issued(issued)


COMMANDS = (
    escalate_command,
    require,
    record_inspection,
    notify,
    approve,
    halts_command,
    ask,
    due,
    calendar_feed,
    logbook_command,
)
