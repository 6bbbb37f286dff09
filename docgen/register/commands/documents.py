"""A document's commands, attached to the main ``docgen`` group by docgen.cli.

    docgen issue KIND CASE [-o PATH] [--respondent ID [--keep-typed-name]]
    docgen supersede NUMBER CASE
    docgen record-service NUMBER --method M --date D [--received D] [--by NAME] [--article NO]
    docgen record-receipt NUMBER --received D --signed-by NAME [--to NAME] [--article NO]
    docgen record-return NUMBER --date D --reason R [--to NAME] [--article NO]
    docgen record-disposition NUMBER --disposition D --date D [--court C] [--docket N]
    docgen lift NUMBER --date D

Each command taking a NUMBER takes --jurisdiction J too: numbers are unique per
municipality, and where two municipalities share one register and both issued a number,
the command is refused until --jurisdiction says whose it is (never guessed).

A thin shell over docgen.register.Register: parse, call, print. Errors are DocgenErrors,
which the main group prints as one line with its exit code (docgen.cli.Exit). What the
register holds is read back by docgen.register.commands.reading; the register itself is
kept by docgen.register.commands.keeping.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from docgen.register.commands.shared import (
    BY,
    ISO,
    WHOSE,
    F,
    copies_option,
    folder_or_file,
    open_register,
    output_options,
    print_issued,
    recorded_number_said,
)

if TYPE_CHECKING:
    from docgen.register import Issue, Register


METHODS = ("personal-delivery", "certified-mail", "first-class-mail", "posting")


DISPOSITIONS = ("pending", "convicted", "dismissed", "acquitted", "withdrawn")


def _issue_options(func: F) -> F:
    func = click.option(
        "--keep-typed-name",
        "keep_name",
        is_flag=True,
        help="with --respondent ID: keep the case's name as typed on the document and record "
        "it as another name of that record",
    )(func)
    func = click.option(
        "--respondent",
        default=None,
        help="the respondent's id when the name matches several or nearly (the document "
        "names that record as the register holds it); 'new' for another",
    )(func)
    return output_options(func)


@contextmanager
def _figures_asked(
    reg: Register, case: Path, kind: str | None, supersedes: str | None, whose: str | None
) -> Iterator[None]:
    """A respondent that is a question (several or near matches) refused with each record
    and the offense number and penalty it would give, as the desk shows them
    (docgen.register.people.choices.asked), and the options that answer it."""
    # api and others load sqlalchemy, pydantic, yaml (+470 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register import AmbiguousRespondent, RegisterError
    from docgen.register.people.choices import asked

    try:
        yield
    except AmbiguousRespondent as err:
        data = api.load(case)[0]
        issued = _kind(reg, kind, supersedes, whose)
        raise RegisterError(asked(reg, issued, data, err.name, err.candidates)) from None


def _kind(reg: Register, kind: str | None, supersedes: str | None, whose: str | None) -> str:
    """KIND as `issue` was given it, or (None) the kind of the document `supersede` corrects."""
    if kind is not None:
        return kind
    if supersedes is None:
        raise click.UsageError("KIND: missing")  # `issue` requires it, `supersede` has NUMBER
    return reg.document(supersedes, whose).kind


def _issue(
    kind: str | None,
    case: Path,
    asked: Issue,
    final: Path | None,
    out: str | None,
    fmt: str,
    by: str | None,
    force: bool,
) -> None:
    """Issue KIND (None: the kind of the document ``asked.supersedes``) from CASE, as
    ``asked``, with counsel's ``final`` DOCX read from its file, and print what was issued."""
    # api and others load pydantic, yaml (+190 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.instruments.docx_checks import read_final

    if final is not None:
        asked = replace(asked, final=read_final(final))
    whose = (asked.supersedes, asked.jurisdiction)
    with open_register() as reg, recorded_number_said(), _figures_asked(reg, case, kind, *whose):
        issuing = _kind(reg, kind, *whose)
        with api.said_in_words(issuing):  # each field named as the desk's form names it
            issued = reg.issue(
                issuing,
                case,
                asked,
                formats=api.formats_from(fmt),
                out=folder_or_file(out),
                by=by,
                force=force,
            )
    print_issued(issued)


def _language_option(what: str) -> Callable[[F], F]:
    return click.option(
        "--language",
        default=None,
        help=f"also a courtesy rendition of {what} in this language (es: Spanish), kept with "
        "the number; the English document controls. By default, the one in the language the "
        "respondent prefers (the case's recipient.language, or as the register keeps it), if "
        "any; en: English only",
    )


_final_option = click.option(
    "--final",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="an instrument: counsel's edited DOCX, kept as the text to sign and record, with "
    "the draft, the redline and a PDF/A-2b",
)


@click.command()
@click.argument("kind")
@click.argument("case", type=click.Path(dir_okay=False, path_type=Path))
@_issue_options
@_final_option
@copies_option
@click.option(
    "--number-gap",
    default=None,
    metavar="REASON",
    help="the case types a number above its series' next: why the numbers before it were "
    "never issued here (recorded with the gap)",
)
@_language_option("the document")
def issue(
    kind: str,
    case: Path,
    out: str | None,
    respondent: str | None,
    keep_name: bool,
    fmt: str,
    by: str | None,
    force: bool,
    final: Path | None,
    copies: bool,
    number_gap: str | None,
    language: str | None,
) -> None:
    """Number, render and record KIND from CASE; the offense history comes from the register."""
    # register.matter.issuing loads sqlalchemy, pydantic: kept out of `docgen --help`'s start
    from docgen.register import Issue

    asked = Issue(
        respondent=respondent,
        keep_name=keep_name,
        number_gap=number_gap,
        copies=copies,
        language=language,
    )
    _issue(kind, case, asked, final, out, fmt, by, force)


@click.command()
@click.argument("number")
@click.argument("case", type=click.Path(dir_okay=False, path_type=Path))
@_issue_options
@_final_option
@WHOSE
def supersede(
    number: str,
    case: Path,
    out: str | None,
    respondent: str | None,
    keep_name: bool,
    fmt: str,
    by: str | None,
    force: bool,
    final: Path | None,
    jurisdiction: str | None,
) -> None:
    """Issue a corrected document from CASE under a new number, replacing NUMBER (which stays)."""
    # register.matter.issuing loads sqlalchemy, pydantic: kept out of `docgen --help`'s start
    from docgen.register import Issue

    asked = Issue(
        respondent=respondent, keep_name=keep_name, supersedes=number, jurisdiction=jurisdiction
    )
    _issue(None, case, asked, final, out, fmt, by, force)


@click.command("record-service")
@click.argument("number")
@click.option("--method", type=click.Choice(METHODS), required=True)
@click.option(
    "--date", "on", type=ISO, required=True, help="the day of delivery, mailing or posting"
)
@click.option(
    "--received", type=ISO, default=None, help="mail: the day of receipt (return receipt)"
)
@click.option("--article", default=None, help="certified mail: the article number")
@click.option("--received-by", default=None, help="mail: who signed the return receipt")
@click.option("--to", default=None, help="the person served, if not the landowner (copied to)")
@click.option("--time", default=None, help="personal delivery: the time, HH:MM")
@click.option("--place", default=None, help="personal delivery or posting: where, as it happened")
@click.option("--person", default=None, help="personal delivery on a firm: who took it")
@click.option("--capacity", default=None, help="--person's capacity (officer, managing agent)")
@click.option(
    "--description",
    default=None,
    help="personal delivery: the person who took it (sex, approximate age, height, weight, hair)",
)
@click.option("--served-by", default=None, help="who served it (their name)")
@click.option(
    "--served-by-officer",
    "by_officer",
    is_flag=True,
    help="the issuing officer named on the document served it",
)
@click.option(
    "--served-by-title",
    default=None,
    help="the server's office, e.g. Deputy Code Enforcement Officer",
)
@click.option("--affirmation", is_flag=True, help="affirmed under CPLR 2106 instead of sworn")
@click.option("-o", "--out", default=None, help="where the affidavit goes (default: here)")
@click.option(
    "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
)
@click.option("--force", is_flag=True, help="replace a different file already at the output path")
@BY
@WHOSE
def record_service(
    number: str,
    method: str,
    on: date,
    received: date | None,
    article: str | None,
    received_by: str | None,
    to: str | None,
    time: str | None,
    place: str | None,
    person: str | None,
    capacity: str | None,
    description: str | None,
    served_by: str | None,
    by_officer: bool,
    served_by_title: str | None,
    affirmation: bool,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Record service of NUMBER on one person (the landowner, or --to), print the notice's
    last day to appeal (§ 228-79C(1)(f); never shortened) and issue the affidavit of
    service of this event, made by the server (--served-by), not by who records it (--by)."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register.matter.service_event import Service

    event = Service(
        method,
        on,
        to=to,
        time=time,
        place=place,
        person=person,
        capacity=capacity,
        description=description,
        received=received,
        received_by=received_by,
        served_by=served_by,
        served_by_title=served_by_title,
        article=article,
        by_officer=by_officer,
    )
    with open_register() as reg, recorded_number_said():
        served = reg.record_service(
            number,
            event,
            by=by,
            oath="affirmation" if affirmation else "notary",
            formats=api.formats_from(fmt),
            out=folder_or_file(out),
            force=force,
            jurisdiction=jurisdiction,
        )
    s = served.service
    on_whom = f" on {s.served_on}" if s.served_on else ""
    click.echo(f"{number}: served{on_whom} by {s.method} on {s.date.isoformat()} ({s.served_by})")
    if s.appeal_deadline is not None:
        click.echo(f"appeal period: {s.clock_rule}")
        for reason in s.deadline_reasons:
            click.echo(f"  {reason}")
        if s.notice_deadline is not None and s.notice_deadline > s.appeal_deadline:
            click.echo(
                f"this service gives {s.appeal_deadline.isoformat()}; the deadline already "
                "stated stands (a deadline is never shortened)"
            )
    if s.notice_deadline is not None:
        click.echo(f"last day to appeal: {s.notice_deadline.isoformat()}")
    for warning in served.warnings:
        click.echo(f"warning: {warning}", err=True)
    if served.affidavit is not None:
        print_issued(served.affidavit)


@click.command("record-receipt")
@click.argument("number")
@click.option("--received", type=ISO, required=True, help="the day of receipt the card shows")
@click.option("--signed-by", required=True, help="who signed the return receipt")
@click.option("--to", default=None, help="the person mailed to, if not the landowner")
@click.option("--article", default=None, help="the mailing's article number (several mailings)")
@click.option("--mailed", type=ISO, default=None, help="the mailing's date (several mailings)")
@click.option("-o", "--out", default=None, help="where the annex goes (default: here)")
@click.option(
    "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
)
@click.option("--force", is_flag=True, help="replace a different file already at the output path")
@BY
@WHOSE
def record_receipt(
    number: str,
    received: date,
    signed_by: str,
    to: str | None,
    article: str | None,
    mailed: date | None,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Record the return receipt of a certified mailing of NUMBER on that mailing (LAW.md
    § 2): the deadline is computed again (never earlier), and the receipt is annexed to
    the mailing's affidavit of service (a numbered annex naming it)."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg, recorded_number_said():
        came = reg.record_receipt(
            number,
            received,
            signed_by,
            to=to,
            article=article,
            mailed=mailed,
            by=by,
            formats=api.formats_from(fmt),
            out=folder_or_file(out),
            force=force,
            jurisdiction=jurisdiction,
        )
    s = came.service
    on = s.received or received  # as the register reads it back: the receipt's day
    click.echo(
        f"{number}: the mailing to {s.served_on} on {s.date.isoformat()} was received on "
        f"{on.isoformat()}, signed by {s.received_by}"
    )
    if came.deadline is not None:
        click.echo(f"last day to appeal: {came.deadline.isoformat()}")
    if came.annex is not None:
        click.echo(f"annexed to {s.affidavit} as {came.annex.number}")
        print_issued(came.annex)


@click.command("record-return")
@click.argument("number")
@click.option("--date", "on", type=ISO, required=True, help="the day the mailing came back")
@click.option(
    "--reason", required=True, help="as on the envelope: unclaimed, refused, moved, no-such-address"
)
@click.option("--to", default=None, help="the person mailed to, if not the landowner")
@click.option("--article", default=None, help="the mailing's article number (several mailings)")
@click.option("--mailed", type=ISO, default=None, help="the mailing's date (several mailings)")
@BY
@WHOSE
def record_return(
    number: str,
    on: date,
    reason: str,
    to: str | None,
    article: str | None,
    mailed: date | None,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Record that a mailing of NUMBER came back undelivered (LAW.md § 2): it completes no
    service; the person is not served and the deadline is withdrawn until service is
    complete by another means."""
    with open_register() as reg:
        came = reg.record_return(
            number,
            on,
            reason,
            to=to,
            article=article,
            mailed=mailed,
            by=by,
            jurisdiction=jurisdiction,
        )
    s = came.service
    click.echo(
        f"{number}: the mailing to {s.served_on} on {s.date.isoformat()} came back on "
        f"{on.isoformat()} ({reason}); it completes no service"
    )
    if came.deadline is None:
        click.echo(
            "no service on the landowner stands: the appeal deadline is withdrawn until "
            "service is complete; serve again by another means"
        )
    else:
        click.echo(f"last day to appeal: {came.deadline.isoformat()}")


@click.command()
@click.argument("number")
@click.option("--date", "on", type=ISO, required=True, help="the day compliance was confirmed")
@click.option("-o", "--out", default=None, help="where the notice goes (default: here)")
@click.option(
    "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
)
@click.option("--force", is_flag=True, help="replace a different file already at the output path")
@BY
@copies_option
@click.option(
    "--article",
    "articles",
    multiple=True,
    help="each person's certified article number for the notice, the landowner's first "
    "('' leaves a line blank to fill in by hand); never the order's",
)
@WHOSE
@_language_option("the notice")
def lift(
    number: str,
    on: date,
    out: str | None,
    fmt: str,
    force: bool,
    by: str | None,
    copies: bool,
    articles: tuple[str, ...],
    jurisdiction: str | None,
    language: str | None,
) -> None:
    """Record the confirmation of compliance that lifts the stop-work order NUMBER
    (§ 228-79C(2)) and issue the written notice lifting it."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    with open_register() as reg:
        issued = reg.lift(
            number,
            on,
            by=by,
            formats=api.formats_from(fmt),
            out=out or "./",
            force=force,
            copies=copies,
            articles=articles,
            jurisdiction=jurisdiction,
            language=language,
        )
    click.echo(f"{number}: lifted on {on.isoformat()}")
    print_issued(issued)


@click.command("record-disposition")
@click.argument("number")
@click.option("--disposition", type=click.Choice(DISPOSITIONS), required=True)
@click.option("--date", "on", type=ISO, default=None, help="the day of the judgment or decision")
@click.option("--court", default=None)
@click.option("--docket", default=None)
@BY
@WHOSE
def record_disposition(
    number: str,
    disposition: str,
    on: date | None,
    court: str | None,
    docket: str | None,
    by: str | None,
    jurisdiction: str | None,
) -> None:
    """Record what came of the offense NUMBER charged (convicted, dismissed, ...)."""
    with open_register() as reg:
        offense = reg.record_disposition(
            number, disposition, on, court=court, docket=docket, by=by, jurisdiction=jurisdiction
        )
    when = f" on {offense.disposition_date.isoformat()}" if offense.disposition_date else ""
    where = ", ".join(
        p for p in (offense.court, offense.docket and f"docket {offense.docket}") if p
    )
    click.echo(f"{number}: {offense.disposition}{when}" + (f" ({where})" if where else ""))


COMMANDS = (
    issue,
    supersede,
    record_service,
    record_receipt,
    record_return,
    lift,
    record_disposition,
)
