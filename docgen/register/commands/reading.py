"""What the register holds, read back from the command line:

    docgen history RESPONDENT [--json]
    docgen verify FILE
    docgen export NUMBER [-o DIR] [-f F] [--jurisdiction J]
    docgen mailing-list --date D [--jurisdiction J] [-o PATH]

Attached to the main ``docgen`` group by docgen.cli; a thin shell over
docgen.register.Register, which it opens for reading only (a register without write
access is read, and never created or migrated).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

import click

from docgen.errors import Unanswered
from docgen.register.commands.shared import ISO, WHOSE, folder_or_file, open_register, warn_in_words

VERIFY_LIMIT = 200 * 1024 * 1024  # far above any issued document; /dev/zero never ends


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
    with open_register(readonly=True) as reg:
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
        with open_register(readonly=True) as reg:
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
def export(number: str, out: str, fmt: str, force: bool, jurisdiction: str | None) -> None:
    """Write NUMBER's stored files again, byte for byte, each checked against its SHA-256."""
    # register.matter.finals loads pydantic, yaml (+190 ms): kept out of `docgen --help`'s start
    from docgen.register.matter.finals import export_formats

    with open_register(readonly=True) as reg:
        written = reg.export(
            number,
            folder_or_file(out),
            export_formats(fmt),
            force=force,
            jurisdiction=jurisdiction,
        )
    for path in written:
        click.echo(str(path))


@click.command()  # `mailing-list`, from the function's name
@click.option("--date", "day", type=ISO, required=True, help="the day the pieces are mailed")
@click.option("--jurisdiction", default=None, help="the municipality, when several mailed that day")
@click.option("-o", "--out", default=None, help="a file, or a directory (existing, or ending in /)")
@click.option(
    "-f", "--format", "fmt", default="all", show_default=True, help="pdf, docx, html or all"
)
@click.option("--force", is_flag=True, help="replace a different file already at the output path")
def mailing_list(
    day: date, jurisdiction: str | None, out: str | None, fmt: str, force: bool
) -> None:
    """The firm mailing list of DAY's certified pieces, for the post office (PS Form 3877)."""
    # api and others load sqlalchemy, pydantic, yaml (+450 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.documents import the_kind
    from docgen.register.matter.mailing import mailing_list_case

    with open_register() as reg:
        data = mailing_list_case(reg, day, jurisdiction)
    kind = the_kind(lists_mailings=True)
    with api.said_in_words(kind):
        done = api.render(kind, data, api.formats_from(fmt), out or "./", force=force)
    warn_in_words(kind, done.document.warnings)
    for path in done.files:
        click.echo(str(path))


COMMANDS = (history, verify, export, mailing_list)
