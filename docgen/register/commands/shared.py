"""What the register's commands share: the date and person options, where a recorded
document's files go, the register opened for a command, and an issued document printed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from docgen.register import Register
    from docgen.register.storage.records import Issued

F = TypeVar("F", bound=Callable[..., Any])  # a command, as its options decorate it


if TYPE_CHECKING:  # ParamType is generic in the click locked, not in 8.1 (pyproject allows it)
    DateParam = click.ParamType[date, Any]
else:
    DateParam = click.ParamType


class IsoDateParam(DateParam):
    name = "YYYY-MM-DD"

    def convert(self, value: Any, param: Any, ctx: Any) -> date:
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value).strip())
        except ValueError:
            self.fail(f"{value!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-11-03")


ISO = IsoDateParam()


def day_typed(ctx: click.Context, param: click.Parameter, value: str | None) -> date | None:
    """An option's day, read as a case's dates are (YYYY-MM-DD; its refusal in the same
    words), or None when it is not given."""
    if value is None:
        return None
    from docgen.cases.common import read_date  # pydantic loads when a command runs, not on --help

    try:
        return read_date(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


BY = click.option("--by", "by", default=None, help="who records this (default: your user name)")


WHOSE = click.option(
    "--jurisdiction",
    "jurisdiction",
    default=None,
    help="whose NUMBER it is (a municipality), when municipalities sharing this register "
    "both issued it",
)


def open_register(readonly: bool = False) -> Register:
    """The register; ``readonly`` for commands that only read it (verify, history, export),
    so they work on a register without write access and never create or migrate one."""
    # register.store loads sqlalchemy, pydantic (+580 ms): kept out of `docgen --help`'s start
    from docgen.register import Register

    return Register.open(readonly=readonly)


def print_issued(issued: Issued) -> None:
    # documents loads pydantic, yaml (+170 ms): kept out of `docgen --help`'s start
    from docgen.documents import get_kind

    said = f"{get_kind(issued.kind).lower_title}, {issued.issued.isoformat()}"
    head = f"issued {issued.number} ({said})"
    if issued.supersedes:
        head += f", superseding {issued.supersedes}"
    if issued.repeated:
        head = (
            f"already issued: {issued.number} ({said}) "
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
        # documents.kind loads pydantic, yaml (+170 ms): kept out of `docgen --help`'s start
        from docgen.documents.kind import LANGUAGES

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
    warn_in_words(issued.kind, issued.warnings)
    for path in issued.paths:
        click.echo(str(path))


def warn_in_words(kind: str, warnings: Iterable[str]) -> None:
    """Each warning on standard error, its fields named as the desk's form names them."""
    # api loads pydantic, yaml (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    for warning in api.warnings_in_words(kind, warnings):
        click.echo(f"warning: {warning}", err=True)


def output_options(func: F) -> F:
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


def folder_or_file(out: str | None) -> str:
    """Where a register command writes; ``-`` (standard output) is refused: a recorded
    document's files are files, and a name of ``-`` would make ``./-.html``."""
    if out is not None and out.strip() == "-":
        raise click.UsageError(
            "-o -: the register writes files (standard output is for docgen render); give a "
            "folder, e.g. -o out/"
        )
    return out or "./"


@contextmanager
def recorded_number_said() -> Iterator[None]:
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


copies_option = click.option(
    "--copies",
    is_flag=True,
    help="also a copy addressed to each person in copies_to, kept with the document",
)
