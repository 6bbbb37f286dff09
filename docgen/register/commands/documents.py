"""The register's commands, attached to the main ``docgen`` group by docgen.cli.

    docgen issue KIND CASE [-o PATH] [--respondent ID [--keep-typed-name]]
    docgen record-service NUMBER --method M --date D [--received D] [--by NAME] [--article NO]
    docgen record-receipt NUMBER --received D --signed-by NAME [--to NAME] [--article NO]
    docgen record-return NUMBER --date D --reason R [--to NAME] [--article NO]
    docgen record-disposition NUMBER --disposition D --date D [--court C] [--docket N]
    docgen export NUMBER [-o DIR] [-f F]
    docgen lift NUMBER --date D
    docgen history RESPONDENT [--json]
    docgen verify FILE
    docgen supersede NUMBER CASE

Each command taking a NUMBER takes --jurisdiction J too: numbers are unique per
municipality, and where two municipalities share one register and both issued a number,
the command is refused until --jurisdiction says whose it is (never guessed).
    docgen mailing-list --date D [--jurisdiction J] [-o PATH]
    docgen register upgrade | backup FILE | restore BACKUP | account-numbers | import-history CSV

A thin shell over docgen.register.Register: parse, call, print. Errors are DocgenErrors,
which the main group prints as one line with its exit code (docgen.cli.Exit).
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

import click

from docgen.errors import Unanswered

METHODS = ("personal-delivery", "certified-mail", "first-class-mail", "posting")
DISPOSITIONS = ("pending", "convicted", "dismissed", "acquitted", "withdrawn")


class IsoDateParam(click.ParamType):
    name = "YYYY-MM-DD"

    def convert(self, value: Any, param: Any, ctx: Any) -> date:
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-11-03")


ISO = IsoDateParam()
VERIFY_LIMIT = 200 * 1024 * 1024  # far above any issued document; /dev/zero never ends
BY = click.option("--by", "by", default=None, help="who records this (default: your user name)")
WHOSE = click.option(
    "--jurisdiction",
    "jurisdiction",
    default=None,
    help="whose NUMBER it is (a municipality), when municipalities sharing this register "
    "both issued it",
)


def _open(readonly: bool = False):
    """The register; ``readonly`` for commands that only read it (verify, history, export),
    so they work on a register without write access and never create or migrate one."""
    # register.store loads sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen.register import Register

    return Register.open(readonly=readonly)


def _print_issued(issued: Any) -> None:
    head = f"issued {issued.number} ({issued.kind}, {issued.issued.isoformat()})"
    if issued.supersedes:
        head += f", superseding {issued.supersedes}"
    if issued.repeated:
        head = (
            f"already issued: {issued.number} ({issued.kind}, {issued.issued.isoformat()}) "
            "was issued from this same case; nothing new was numbered or recorded"
        )
        click.echo(head)
        for path in issued.paths:
            click.echo(str(path))
        return
    click.echo(head)
    person = issued.respondent
    if person is not None:
        how = "new respondent" if person.created else "matched"
        click.echo(f"respondent: #{person.id} {person.name} ({how})")
    if issued.priors:
        click.echo("priors from the register:")
        for prior in issued.priors:
            click.echo(f"  {prior.reference}: {prior.reason or prior.disposition}")
    elif person is not None:
        click.echo("priors from the register: none")
    if issued.language is not None:
        # documents.base loads pydantic, yaml (+170 ms): kept out of `docgen --help`'s start
        from docgen.documents.base import LANGUAGES

        name = LANGUAGES[issued.language][0]
        why = (
            ": the respondent's preferred language (--language en: English only)"
            if issued.preferred
            else ""
        )
        click.echo(f"with a {name} courtesy copy{why}; the English document controls")
    if issued.access_code:
        signed = "signed" if issued.signed else "not signed (no signing key in the settings)"
        click.echo(f"access code: {issued.access_code} (printed on it); PDF {signed}")
    _warn_in_words(issued.kind, issued.warnings)
    for path in issued.paths:
        click.echo(str(path))


def _warn_in_words(kind: str, warnings: Any) -> None:
    """Each warning on standard error, its fields named as the desk's form names them."""
    # api loads pydantic, yaml (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    for warning in api.warnings_in_words(kind, warnings):
        click.echo(f"warning: {warning}", err=True)


def output_options(func):
    """-o, -f, --force and --by: where a recorded document's files go, and who records it
    (every command that issues a document; the inspection commands too)."""
    func = click.option(
        "-o", "--out", default=None, help="a file, or a directory (existing, or ending in /)"
    )(func)
    func = click.option(
        "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
    )(func)
    func = click.option(
        "--force", is_flag=True, help="replace a different file already at the output path"
    )(func)
    return BY(func)


def _issue_options(func):
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


def _folder_or_file(out: str | None) -> str:
    """Where a register command writes; ``-`` (standard output) is refused: a recorded
    document's files are files, and a name of ``-`` would make ``./-.html``."""
    if out is not None and out.strip() == "-":
        raise click.UsageError(
            "-o -: the register writes files (standard output is for docgen render); give a "
            "folder, e.g. -o out/"
        )
    return out or "./"


@contextmanager
def _recorded_number_said():
    """A document recorded whose files could not be written: its number on a line of its
    own on standard output (for scripts), then the one-line error (exit 1)."""
    # register.matter.issuing loads sqlalchemy, pydantic (+560 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.matter.issuing import NotWritten

    try:
        yield
    except NotWritten as err:
        click.echo(err.number)
        raise


@contextmanager
def _figures_asked(
    reg: Any, case: Path, kind: str | None, supersedes: str | None, whose: str | None
):
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
        kind = kind or reg.document(supersedes, whose).kind
        data = api.load(case)[0]
        raise RegisterError(asked(reg, kind, data, err.name, err.candidates)) from None


def _issue(
    kind: str | None,
    case: Path,
    out,
    respondent,
    fmt,
    by,
    force,
    supersedes=None,
    final=None,
    copies=False,
    jurisdiction=None,
    gap=None,
    language=None,
    keep_name=False,
):
    # api and others load pydantic, yaml (+190 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.instruments.docx_checks import read_final

    asked = (case, kind, supersedes, jurisdiction)
    with _open() as reg, _recorded_number_said(), _figures_asked(reg, *asked):
        kind = kind or reg.document(supersedes, jurisdiction).kind
        with api.said_in_words(kind):  # each field named as the desk's form names it
            issued = reg.issue(
                kind,
                case,
                respondent=respondent,
                keep_name=keep_name,
                formats=api.formats_from(fmt),
                out=_folder_or_file(out),
                by=by,
                supersedes=supersedes,
                jurisdiction=jurisdiction,
                force=force,
                final=read_final(final) if final is not None else None,
                copies=copies,
                number_gap=gap,
                language=language,
            )
    _print_issued(issued)


_copies_option = click.option(
    "--copies",
    is_flag=True,
    help="also a copy addressed to each person in copies_to, kept with the document",
)


def _language_option(what: str) -> Any:
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
@_copies_option
@click.option(
    "--number-gap",
    default=None,
    metavar="REASON",
    help="the case types a number above its series' next: why the numbers before it were "
    "never issued here (recorded with the gap)",
)
@_language_option("the document")
def issue(
    kind: str, case: Path, out, respondent, keep_name, fmt, by, force, final, copies,
    number_gap, language,
) -> None:  # fmt: skip
    """Number, render and record KIND from CASE; the offense history comes from the register."""
    _issue(
        kind, case, out, respondent, fmt, by, force,
        final=final, copies=copies, gap=number_gap, language=language, keep_name=keep_name,
    )  # fmt: skip


@click.command()
@click.argument("number")
@click.argument("case", type=click.Path(dir_okay=False, path_type=Path))
@_issue_options
@_final_option
@WHOSE
def supersede(
    number: str, case: Path, out, respondent, keep_name, fmt, by, force, final, jurisdiction
) -> None:
    """Issue a corrected document from CASE under a new number, replacing NUMBER (which stays)."""
    _issue(
        None,
        case,
        out,
        respondent,
        fmt,
        by,
        force,
        supersedes=number,
        final=final,
        jurisdiction=jurisdiction,
        keep_name=keep_name,
    )


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
@click.option("--place", default=None, help="personal delivery: where it was delivered")
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
    number,
    method,
    on,
    received,
    article,
    received_by,
    to,
    time,
    place,
    person,
    capacity,
    description,
    served_by,
    by_officer,
    served_by_title,
    affirmation,
    out,
    fmt,
    force,
    by,
    jurisdiction,
) -> None:
    """Record service of NUMBER on one person (the landowner, or --to), print the notice's
    last day to appeal (§ 228-79C(1)(f); never shortened) and issue the affidavit of
    service of this event, made by the server (--served-by), not by who records it (--by)."""
    # api and others load sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.register.matter.service import Service

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
    with _open() as reg, _recorded_number_said():
        served = reg.record_service(
            number,
            event,
            by=by,
            oath="affirmation" if affirmation else "notary",
            formats=api.formats_from(fmt),
            out=_folder_or_file(out),
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
        _print_issued(served.affidavit)


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
    number, received, signed_by, to, article, mailed, out, fmt, force, by, jurisdiction
) -> None:
    """Record the return receipt of a certified mailing of NUMBER on that mailing (LAW.md
    § 2): the deadline is computed again (never earlier), and the receipt is annexed to
    the mailing's affidavit of service (a numbered annex naming it)."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    with _open() as reg, _recorded_number_said():
        came = reg.record_receipt(
            number,
            received,
            signed_by,
            to=to,
            article=article,
            mailed=mailed,
            by=by,
            formats=api.formats_from(fmt),
            out=_folder_or_file(out),
            force=force,
            jurisdiction=jurisdiction,
        )
    s = came.service
    click.echo(
        f"{number}: the mailing to {s.served_on} on {s.date.isoformat()} was received on "
        f"{s.received.isoformat()}, signed by {s.received_by}"
    )
    if came.deadline is not None:
        click.echo(f"last day to appeal: {came.deadline.isoformat()}")
    if came.annex is not None:
        click.echo(f"annexed to {s.affidavit} as {came.annex.number}")
        _print_issued(came.annex)


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
def record_return(number, on, reason, to, article, mailed, by, jurisdiction) -> None:
    """Record that a mailing of NUMBER came back undelivered (LAW.md § 2): it completes no
    service; the person is not served and the deadline is withdrawn until service is
    complete by another means."""
    with _open() as reg:
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
@_copies_option
@click.option(
    "--article",
    "articles",
    multiple=True,
    help="each person's certified article number for the notice, the landowner's first "
    "('' leaves a line blank to fill in by hand); never the order's",
)
@WHOSE
@_language_option("the notice")
def lift(number, on, out, fmt, force, by, copies, articles, jurisdiction, language) -> None:
    """Record the confirmation of compliance that lifts the stop-work order NUMBER
    (§ 228-79C(2)) and issue the written notice lifting it."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    with _open() as reg:
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
    _print_issued(issued)


@click.command("record-disposition")
@click.argument("number")
@click.option("--disposition", type=click.Choice(DISPOSITIONS), required=True)
@click.option("--date", "on", type=ISO, default=None, help="the day of the judgment or decision")
@click.option("--court", default=None)
@click.option("--docket", default=None)
@BY
@WHOSE
def record_disposition(number, disposition, on, court, docket, by, jurisdiction) -> None:
    """Record what came of the offense NUMBER charged (convicted, dismissed, ...)."""
    with _open() as reg:
        offense = reg.record_disposition(
            number, disposition, on, court=court, docket=docket, by=by, jurisdiction=jurisdiction
        )
    when = f" on {offense.disposition_date.isoformat()}" if offense.disposition_date else ""
    where = ", ".join(
        p for p in (offense.court, offense.docket and f"docket {offense.docket}") if p
    )
    click.echo(f"{number}: {offense.disposition}{when}" + (f" ({where})" if where else ""))


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items() if k != "case"}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    return value


@click.command()
@click.argument("respondent")
@click.option("--json", "as_json", is_flag=True, help="one JSON object")
def history(respondent: str, as_json: bool) -> None:
    """RESPONDENT's offenses, dispositions and documents, newest first (name or id)."""
    with _open(readonly=True) as reg:
        found = reg.history(respondent)
    if as_json:
        click.echo(json.dumps(_jsonable(asdict(found)), indent=2))
        return
    person = found.respondent
    click.echo(f"#{person.id} {person.name} ({person.kind})")
    for line in person.addresses:
        click.echo(f"  address: {line}")
    for alias in person.aliases:
        click.echo(f"  also known as: {alias}")
    click.echo("offenses:" if found.offenses else "offenses: none")
    for o in found.offenses:
        label = o.number or o.reference or "imported"
        decided = f" {o.disposition_date.isoformat()}" if o.disposition_date else ""
        court = f", {o.court}" if o.court else ""
        docket = f", docket {o.docket}" if o.docket else ""
        click.echo(f"  {o.committed.isoformat()}  {label}: {o.disposition}{decided}{court}{docket}")
    click.echo("documents:" if found.documents else "documents: none")
    for d in found.documents:
        notes = []
        if d.served_on is not None:  # as the register derives it (LAW.md § 2)
            notes.append(f"served {d.served_on.isoformat()}")
        elif d.services:
            notes.append("not served (no service stands)")
        if d.appeal_deadline:
            notes.append(f"appeal by {d.appeal_deadline.isoformat()}{_kept_from(d)}")
        if d.superseded_by:
            notes.append(f"superseded by {d.superseded_by}")
        extra = f" ({'; '.join(notes)})" if notes else ""
        click.echo(f"  {d.issued.isoformat()}  {d.number}  {d.kind}{extra}")


def _kept_from(d: Any) -> str:
    """Where the deadline a document keeps runs from, when not from the service date shown
    beside it: a deadline once stated is never shortened by a later service (LAW.md § 2),
    so the served date and the last day would otherwise seem to disagree."""
    gave = [e for e in d.services if e.appeal_deadline == d.appeal_deadline]
    source = gave[0] if gave else None
    if source is None or source.complete is None or source.complete == d.served_on:
        return ""
    how = source.method.replace("-", " ")
    return (
        f", from the {how} of {source.date.isoformat()}, complete {source.complete.isoformat()}:"
        " a deadline once stated is never shortened"
    )


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
def verify(file: Path) -> None:
    """Is FILE exactly a document this register issued, with a valid signature if it is
    signed? Exit 0 if both agree, 1 if not, 3 if the register could not be read to say."""
    # zoneinfo takes 2 ms to import: kept out of `docgen --help`'s start
    from zoneinfo import ZoneInfo

    # cases.loader and others load sqlalchemy (+510 ms): kept out of `docgen --help`'s start
    from docgen.cases.loader import read_regular
    from docgen.law.packs import load_pack
    from docgen.register.matter.checks import signature_of
    from docgen.register.storage.db import RegisterError
    from docgen.register.storage.records import VerifiedSet

    blob = read_regular(file, VERIFY_LIMIT, RegisterError)
    try:
        with _open(readonly=True) as reg:
            found = reg.verify(blob)
    except RegisterError as err:
        raise Unanswered(f"{file} was not checked: {err}") from None
    report = signature_of(blob, found.jurisdiction if found else None)
    if found is None:
        click.echo(f"{file}: not issued by this register, or altered", err=True)
    elif isinstance(found, VerifiedSet):
        zone = load_pack(found.jurisdiction).part("certification").time_zone.value
        lines = found.lines(ZoneInfo(zone))
        click.echo(f"{file}: {lines[0]}")
        for line in lines[1:]:
            click.echo(line)
    else:
        click.echo(
            f"{file}: {found.number}, {found.kind} ({found.format}), issued "
            f"{found.issued.isoformat()}, respondent {found.respondent or 'none'}"
        )
        if found.about:
            click.echo(f"{found.kind} of {found.about}")
        if found.served:  # as the register derives it (LAW.md § 2), as history says it
            served = found.served_on
            click.echo(
                f"served {served.isoformat()} (service complete, as the register keeps it)"
                if served
                else "not served: no recorded service stands"
            )
        if found.appeal_deadline:
            click.echo(f"appeal by {found.appeal_deadline.isoformat()}")
        if found.lifted_by:
            on = f" as of {found.lifted_on.isoformat()}" if found.lifted_on else ""
            click.echo(f"lifted by {found.lifted_by}{on}: this order is no longer in effect")
        if found.copy_for:
            click.echo(f"the copy for {found.copy_for}, served with the landowner's original")
        if found.part_for:
            click.echo(f"the part of {found.part_for}, kept with the document it belongs to")
        if found.certified:
            click.echo(found.certified)
        if found.rendition:
            click.echo(
                f"the {found.rendition} copy of {found.number}: a courtesy translation kept "
                "with it; the English document controls"
            )
        if found.superseded_by:
            click.echo(
                f"superseded by {found.superseded_by}: this document was corrected and no "
                f"longer has effect; the current one is {found.in_effect or found.superseded_by}"
            )
    if report.signed or file.suffix.lower() == ".pdf" or blob.startswith(b"%PDF"):
        for line in report.lines():
            click.echo(line)
    if found is None or (report.signed and not report.valid):
        sys.exit(1)


@click.command()
@click.argument("number")
@click.option("-o", "--out", default="./", show_default=True, help="a file or a directory")
@click.option(
    "-f",
    "--format",
    "fmt",
    default="all",
    show_default=True,
    help="pdf, docx, html; for an instrument issued with counsel's final: record (the PDF/A "
    "to record with the County Clerk), final (counsel's DOCX), redline; or all",
)
@click.option("--force", is_flag=True, help="replace a different file already at the output path")
@WHOSE
def export(number: str, out: str, fmt: str, force: bool, jurisdiction) -> None:
    """Write NUMBER's stored files again, byte for byte, each checked against its SHA-256."""
    # register.matter.finals loads pydantic, yaml (+190 ms): kept out of `docgen --help`'s start
    from docgen.register.matter.finals import export_formats

    with _open(readonly=True) as reg:
        written = reg.export(
            number,
            _folder_or_file(out),
            export_formats(fmt),
            force=force,
            jurisdiction=jurisdiction,
        )
    for path in written:
        click.echo(str(path))


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

    with _open() as reg:
        click.echo(str(make_backup(reg, file)))


@register.command("check")
def check_register() -> None:
    """Check every stored file against its SHA-256 and the database's own integrity, and
    report imports that stopped unfinished."""
    # register.people.import_runs and others load sqlalchemy (+420 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.keeping.maintenance import check
    from docgen.register.people.import_runs import stopped

    with _open(readonly=True) as reg:
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
def restore_register(backup: Path, force: bool, by) -> None:
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
    jurisdiction, by
) -> None:  # fmt: skip
    """After a restore: say which numbers were used after the backup, in every series the
    register numbers (--list names them), so none is given twice; each series named starts
    above its number and the gap is recorded with its reason."""
    # register.storage.audit and others load sqlalchemy (+420 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.keeping.restores import account, series_of
    from docgen.register.storage.audit import actor

    if listing:
        with _open(readonly=True) as reg:
            listed = series_of(reg)
        for series in listed:
            click.echo(series.said())
        return
    with _open() as reg:
        gaps = account(reg, list(used_through), none_since, actor(by), jurisdiction, others_unused)
    for gap in gaps:
        click.echo(f"gap recorded: {gap.said()} (issued after the backup)")
    click.echo("the register issues again")


@register.command("imports")
def imports() -> None:
    """Every history import: its file, who ran it, its rows, and whether it finished."""
    # register.people.import_runs loads sqlalchemy, asyncio (+270 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.people.import_runs import runs

    with _open(readonly=True) as reg:
        listed = runs(reg)
    for run in listed:
        click.echo(run.line())
    if not listed:
        click.echo("no history imported")


@register.command("import-history")
@click.argument("csv_file", metavar="CSV", required=False, type=click.Path(path_type=Path))
@click.option("--undo", "undo", default=None, metavar="ID", help="withdraw import ID")
@BY
def import_history(csv_file: Path | None, undo: str | None, by) -> None:
    """Convictions from before the register, one per row, each with its court reference;
    one import is one batch, withdrawn whole with --undo ID."""
    # register.people.imports loads sqlalchemy, pydantic (+480 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.people.imports import import_history as run_import
    from docgen.register.people.imports import undo_import

    if (csv_file is None) == (undo is None):
        raise click.UsageError("give a CSV to import, or --undo ID to withdraw an import")
    with _open() as reg:
        if undo is not None:
            gone = undo_import(reg, undo, by=by)
            click.echo(f"import {undo.strip()} withdrawn: {gone} offense(s) removed")
            return
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


@click.command()  # `mailing-list`, from the function's name
@click.option("--date", "day", type=ISO, required=True, help="the day the pieces are mailed")
@click.option("--jurisdiction", default=None, help="the municipality, when several mailed that day")
@click.option("-o", "--out", default=None, help="a file, or a directory (existing, or ending in /)")
@click.option(
    "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
)
@click.option("--force", is_flag=True, help="replace a different file already at the output path")
def mailing_list(day: date, jurisdiction, out, fmt, force) -> None:
    """The firm mailing list of DAY's certified pieces, for the post office (PS Form 3877)."""
    # api and others load sqlalchemy, pydantic, yaml (+450 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.documents import the_kind
    from docgen.register.matter.mailing import mailing_list_case

    with _open() as reg:
        data = mailing_list_case(reg, day, jurisdiction)
    kind = the_kind(lists_mailings=True)
    with api.said_in_words(kind):
        done = api.render(kind, data, api.formats_from(fmt), out or "./", force=force)
    _warn_in_words(kind, done.document.warnings)
    for path in done.files:
        click.echo(str(path))


COMMANDS = (
    issue,
    supersede,
    record_service,
    record_receipt,
    record_return,
    lift,
    record_disposition,
    history,
    verify,
    export,
    register,
    mailing_list,
)


def attach(group: click.Group) -> None:
    for command in COMMANDS:
        group.add_command(command)
