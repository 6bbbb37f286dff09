"""The docgen command: a thin shell over docgen.api.

Exit codes, of every command (:class:`Exit`; the one map from errors to codes is
``DocgenGroup.invoke``):

- 0 success; ``docgen verify``: the file is a document this register issued, unaltered,
  and its signature (if any) is valid;
- 1 an error the user can fix, said in one line, never a traceback: invalid case data (the
  message names field, problem and provision), a kind the jurisdiction does not provide,
  a file, disk or standard stream that cannot be written or read (a full disk, ``>&-``,
  ``<&-``), a register refusing or unreachable; ``docgen verify``: the file is not a
  document this register issued, or it was altered, or its signature is not valid;
- 2 usage error (an unknown option, options that contradict each other);
- 3 ``docgen verify`` could not give an answer: the register could not be reached or read;
- 4 an internal error: a defect in docgen or an engine, reported in one line (no
  traceback; DOCGEN_DEBUG=1 shows it); nothing was written;
- 130 interrupted (Ctrl-C); no partial files were left.

Heavy modules (the case models, WeasyPrint, python-docx) load inside the commands that
need them, so `docgen --help` stays fast.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import Any, NoReturn

import click

from docgen import __version__, library_warnings
from docgen.desk.commands import serve, users
from docgen.errors import CaseInvalid, DocgenError, OutputUsage, Unanswered
from docgen.law import JURISDICTION_HELP
from docgen.queue.cli import worker
from docgen.register.commands.after_notice import COMMANDS as AFTER_NOTICE
from docgen.register.commands.appeals import COMMANDS as APPEAL_COMMANDS
from docgen.register.commands.certify import certify
from docgen.register.commands.documents import COMMANDS as DOCUMENT_COMMANDS
from docgen.register.commands.inspections import COMMANDS
from docgen.register.commands.keeping import register
from docgen.register.commands.reading import COMMANDS as READING
from docgen.register.commands.swppp import fees, swppp, year
from docgen.render.variants import check_variant
from docgen.signing.cli import keys

FORMAT_HELP = "pdf, docx, html or all; several as pdf,docx"


class Exit(IntEnum):
    """docgen's exit codes (the module's docstring says when each is given)."""

    OK = 0
    ERROR = 1
    USAGE = 2
    UNANSWERED = 3
    INTERNAL = 4
    INTERRUPTED = 130


def fail(err: Exception, code: Exit = Exit.ERROR) -> NoReturn:
    click.echo(f"error: {err}", err=True)
    sys.exit(code)


class DocgenGroup(click.Group):
    """Turns every DocgenError into 'error: ...' and exit 1, in one place."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OutputUsage as err:
            raise click.UsageError(str(err), ctx) from None
        except Unanswered as err:
            fail(err, Exit.UNANSWERED)
        except CaseInvalid as err:  # every command's, one place: in the form's words
            fail(_in_words(err))
        except DocgenError as err:
            fail(err)
        except BrokenPipeError:
            # Standard output was closed by its reader (`| head`) after the files were
            # written: not a failure. Point stdout at nothing so the exit flush is quiet.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(Exit.OK)
        except OSError as err:  # the filesystem's answer: the user's to fix, not a defect
            where = f"{err.filename}: " if err.filename else ""
            fail(RuntimeError(f"{where}{err.strerror or err}"))
        except KeyboardInterrupt:
            click.echo("interrupted; no partial files were left", err=True)
            sys.exit(Exit.INTERRUPTED)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as err:
            # A defect in docgen or an engine, not in the case: still no traceback for the
            # user (DOCGEN_DEBUG=1 shows it), and nothing was written (writes are atomic).
            if os.environ.get("DOCGEN_DEBUG"):
                raise
            fail(
                RuntimeError(
                    f"internal error ({type(err).__name__}: {err}); no file was "
                    "written. Please report it; DOCGEN_DEBUG=1 shows the traceback"
                ),
                Exit.INTERNAL,
            )


def _in_words(err: CaseInvalid) -> CaseInvalid:
    """A case's problems as the desk says them, each field named by the form of the kind
    the error is about (docgen.api.in_words): a command that builds a case from the
    register (an escalation, a step after the notice) says them as `docgen issue` does."""
    if not err.kind:
        return err
    # api loads pydantic, yaml (+180 ms): loaded on a refusal only, never at the start
    from docgen import api

    return api.in_words(err)


def _options(**kw: Any) -> Any:
    # documents.kind loads pydantic, yaml (+170 ms): kept out of `docgen --help`'s start
    from docgen.documents.kind import Options

    return Options(**kw)


def _warn(messages: list[str] | tuple[str, ...]) -> None:
    for message in messages:
        click.echo(f"warning: {message}", err=True)


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``docgen --version``: this docgen's version and the register's schema revision."""
    if not value or ctx.resilient_parsing:
        return
    # register.storage.db loads sqlalchemy, asyncio, ssl (+260 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.storage.db import default_url, schema_said

    click.echo(f"docgen {__version__}")
    click.echo(schema_said(default_url()))
    ctx.exit()


@click.group(cls=DocgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="Show docgen's version and the register's schema revision, and exit.",
)
def main() -> None:
    """Stormwater enforcement documents for the New York municipalities whose local laws are
    installed as packs (`docgen jurisdictions` lists them)."""
    logging.basicConfig(level=logging.WARNING, format="warning: %(message)s", stream=sys.stderr)
    # another package's warning is never printed to a clerk; DOCGEN_DEBUG=1 shows it
    library_warnings.route(logging.WARNING if os.environ.get("DOCGEN_DEBUG") else logging.DEBUG)


@main.command()
def kinds() -> None:
    """List the document kinds and the jurisdictions that provide each."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    for row in api.kinds():
        where = ", ".join(row["jurisdictions"]) or "none"
        cites = "; ".join(f"{j} {ref}" for j, ref in row["provisions"].items())
        click.echo(f"{row['kind']:<26} {where:<16} {row['summary']} ({cites})")


@main.command()
def jurisdictions() -> None:
    """List the jurisdiction packs: source file and the kinds each provides."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    for row in api.jurisdictions():
        click.echo(f"{row['id']:<9} {row['name']} ({row['county']} County): {row['code']}")
        click.echo(f"{'':<9} file: {row['source']}")
        click.echo(f"{'':<9} kinds: {', '.join(row['kinds']) or 'none'}")


@main.group()
def pack() -> None:
    """Jurisdiction pack files (one YAML file per municipality)."""


@pack.command("check")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option(
    "--settings",
    "is_settings",
    is_flag=True,
    help="FILE is a municipality's settings (JURISDICTION.yaml): validate it against its pack.",
)
def pack_check(file: Path, is_settings: bool) -> None:
    """Validate the pack FILE and render every kind it provides (exit 1 on any failure).

    The municipality's installed settings (docgen.settings) apply to the pack as loaded."""
    if is_settings:
        # pack_check loads pydantic, cryptography (+260 ms): kept out of `docgen --help`'s start
        from docgen.pack_check import check_settings_file

        check_settings_file(file, echo=click.echo)
        return
    # pack_check loads pydantic, cryptography (+260 ms): kept out of `docgen --help`'s start
    from docgen.pack_check import check_pack_file

    if check_pack_file(file, echo=click.echo):
        sys.exit(Exit.ERROR)


@pack.command("new")
@click.argument("name")
@click.option(
    "-o",
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    help="the folder to write NAME.yaml in (default: here)",
)
@click.option("--force", is_flag=True, help="replace NAME.yaml if it is there")
def pack_new(name: str, out: Path, force: bool) -> None:
    """Write NAME.yaml: a skeleton pack with every value a municipality's law must give,
    each blank, with a comment saying what the law's text must say there."""
    # documents and others load pydantic, yaml (+180 ms): kept out of `docgen --help`'s start
    from docgen.documents import MODULES
    from docgen.pack_new import pack_id, skeleton
    from docgen.render.output import write_files

    stem = pack_id(name)
    path = out / f"{stem}.yaml"
    write_files({path: skeleton(stem, list(MODULES)).encode()}, force)  # whole, or nothing
    click.echo(f"{path}: fill every value and ref, then run `docgen pack check {path}`")


@main.command()
@click.argument("kind")
@click.argument("case", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-f", "--format", "fmt", default="all", show_default=True, help=FORMAT_HELP)
@click.option(
    "-o",
    "--out",
    type=str,
    default=None,
    help="a file, a directory (existing, or ending in /), or - for standard output "
    "(one format); default: here",
)
@click.option("--force", is_flag=True, help="replace files already there with different bytes")
@click.option("--split", is_flag=True, help="one file per contractor, named after the firm")
@click.option(
    "--copies",
    is_flag=True,
    help="one file per person served: the original and a copy addressed to each in copies_to",
)
@click.option("--blank", is_flag=True, help="an empty form to fill in by hand (no CASE)")
@click.option(
    "--jurisdiction",
    default=None,
    help="with --blank: " + JURISDICTION_HELP,
)
@click.option(
    "--pdf-variant",
    default="pdf/ua-1",
    show_default=True,
    help="pdf/ua-1 (tagged, accessible) or a PDF/A variant such as pdf/a-3b",
)
@click.option("--review", is_flag=True, help="mark every value that came from the case")
@click.option("--layout", default=None, help="an alternative layout the kind offers")
@click.option(
    "--language",
    default=None,
    help="a courtesy rendition in this language (es: Spanish); the English document controls",
)
@click.option(
    "--templates",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="a folder of custom templates (rendered in a sandbox)",
)
def render(
    kind: str,
    case: Path | None,
    fmt: str,
    out: str | None,
    split: bool,
    copies: bool,
    blank: bool,
    jurisdiction: str | None,
    pdf_variant: str,
    review: bool,
    layout: str | None,
    language: str | None,
    templates: str | None,
    force: bool,
) -> None:
    """Render KIND from the CASE file (or, with --blank --jurisdiction J, an empty form).

    A file already at an output path is replaced only with --force when its bytes differ
    (the same bytes again succeeds without touching it).
    """
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    options = _options(review=review, layout=layout, templates=templates, language=language)
    if blank:
        if case is not None or split or not jurisdiction:
            raise click.UsageError("--blank takes --jurisdiction and no CASE file or --split")
        result = api.render_blank(
            kind, jurisdiction, api.formats_from(fmt), out, options, pdf_variant, force
        )
    else:
        if case is None:
            raise click.UsageError("missing CASE (or use --blank --jurisdiction J)")
        if jurisdiction:
            raise click.UsageError("--jurisdiction goes with --blank; a case file names its own")
        with api.said_in_words(kind):  # each field named as the desk's form names it
            result = api.render(
                kind,
                case,
                api.formats_from(fmt),
                out,
                options,
                pdf_variant,
                split=split,
                force=force,
                copies=copies,
            )
    _warn(api.warnings_in_words(kind, result.document.warnings))
    for path in result.files:
        click.echo(str(path))


@main.command()
@click.argument("kind")
@click.argument("case", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--paths",
    is_flag=True,
    help="name each field by its path in the case file (remedies[0].measure), for whoever "
    "writes case files, instead of its label and place on the desk's form (Remedy 1, measure)",
)
# --labels: the default since the command line says what the desk says; kept for scripts
@click.option("--labels", is_flag=True, hidden=True, expose_value=False)
def check(kind: str, case: Path, paths: bool) -> None:
    """Validate CASE for KIND: every problem listed, exit 1 if any."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.documents import a_title  # loaded by api already

    try:
        warnings = api.check(kind, case)
    except CaseInvalid as err:  # each field named by its form's words, or by its path
        raise (err.about("") if paths else api.in_words(err, kind)) from None
    _warn(warnings if paths else api.warnings_in_words(kind, warnings))
    said = f"{case}: ok for {a_title(kind)}"
    click.echo(said + (f" ({len(warnings)} warning(s))" if warnings else ""))


@main.command()
@click.argument("case", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="one JSON object (the scripts' contract)")
def penalty(case: Path, as_json: bool) -> None:
    """The penalty computation (§ 228-79C(4)) on its own."""
    # api and others load pydantic, yaml (+180 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen.cases import labels
    from docgen.cases.penalty import PenaltyInput

    try:
        result = api.penalty(case)
    except CaseInvalid as err:  # each field named by its label, as the desk names it
        raise labels.reworded(err, PenaltyInput) from None
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(
        f"{result['citation']}: offense number {result['offense_number']} (tier {result['tier']})"
    )
    low, high = result["fine_min_per_violation"], result["fine_max_per_violation"]
    click.echo(
        f"  per violation: ${low} to ${high}, or imprisonment up to "
        f"{result['imprisonment_max_months']} months, or both"
    )
    click.echo(f"  violations: {result['violations']} (each week's continued violation counts)")
    for count in result["counts"]:
        through = count["continued_through"]
        click.echo(
            f"    violation {count['index'] + 1}: {count['committed']}"
            + (f" through {through}" if through else "")
            + f": {count['count']}"
        )
    click.echo(f"  total: ${result['total_fine_min']} to ${result['total_fine_max']}")
    for prior in result["counted_priors"] + result["excluded_priors"]:
        click.echo(f"  prior offense {prior['committed']}: {prior['reason']}")


@main.command()
@click.argument("kind")
@click.option("--jurisdiction", default=None, help="cite each field's provision in its law")
def schema(kind: str, jurisdiction: str | None) -> None:
    """Print the JSON Schema of KIND's case file."""
    # api loads pydantic, yaml, annotated_types (+180 ms): kept out of `docgen --help`'s start
    from docgen import api

    click.echo(json.dumps(api.schema(kind, jurisdiction), indent=2))


@main.command()
@click.option(
    "-o",
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out"),
    show_default=True,
)
@click.option("-f", "--format", "fmt", default="all", show_default=True, help=FORMAT_HELP)
def demo(out: Path, fmt: str) -> None:
    """Render every kind for every sample case into OUT."""
    # demo loads pydantic, num2words, jinja2 (+230 ms): kept out of `docgen --help`'s start
    from docgen import demo as demo_module

    failures = demo_module.run(out, fmt, echo=click.echo)
    if failures:
        sys.exit(Exit.ERROR)


@main.command()
@click.argument("kind")
@click.argument("cases", nargs=-1, required=True)
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, help="workers [cores]")
@click.option("-f", "--format", "fmt", default="all", show_default=True, help=FORMAT_HELP)
@click.option("--pdf-variant", default="pdf/ua-1", show_default=True)
@click.option("--force", is_flag=True, help="replace files already there with different bytes")
@click.option(
    "--resume",
    is_flag=True,
    help="keep the files OUT/manifest.json lists for unchanged cases; render only the rest",
)
@click.option("--layout", default=None, help="an alternative layout the kind offers")
@click.option("--review", is_flag=True, help="mark every value that came from the case")
@click.option(
    "--queue",
    "queued",
    is_flag=True,
    help="render through the job queue on the register's PostgreSQL (see `docgen worker`)",
)
@click.option("--queue-name", default="docgen", show_default=True, help="the queue to use")
@click.option(
    "--issue",
    is_flag=True,
    help="with --queue: issue each case into the register (numbered, recorded)",
)
@click.option("--by", default=None, help="who issues (--issue; default: your user name)")
def batch(
    kind: str,
    cases: tuple[str, ...],
    out: Path,
    jobs: int | None,
    fmt: str,
    pdf_variant: str,
    force: bool,
    resume: bool,
    layout: str | None,
    review: bool,
    queued: bool,
    queue_name: str,
    issue: bool,
    by: str | None,
) -> None:
    """Render KIND for many CASES (files, folders, CSV files) into OUT, in parallel: here,
    or with --queue by `docgen worker` processes on any machine."""
    # api and others load sqlalchemy, pydantic, yaml (+310 ms): kept out of `docgen --help`'s start
    from docgen import api
    from docgen import batch as engine
    from docgen.documents import get_kind
    from docgen.documents.pipeline import check_options

    formats = api.formats_from(fmt)
    check_options(get_kind(kind), _options(layout=layout, review=review))
    check_variant(pdf_variant)
    found = engine.collect(cases)
    with engine.Console(len(found)) as console, _interrupted_batch():
        report = engine.run(
            kind,
            found,
            out,
            formats,
            jobs,
            pdf_variant,
            console.outcome,
            force,
            resume,
            layout=layout,
            review=review,
            queue=queue_name if queued else None,
            issue=issue,
            by=by,
        )
    for source, message in report.warnings:
        click.echo(f"warning: {source}: {message}", err=True)
    engine.print_summary(report, out, fancy=console.fancy)
    for line in report.recorded_lines():
        click.echo(line, err=True)
    if report.stopped is not None:
        recorded = (
            f" (nor issued), {len(report.recorded)} recorded with files not written"
            if report.recorded
            else ""
        )
        fail(
            RuntimeError(
                f"writing stopped: {report.stopped}; {len(report.not_written)} case(s) not "
                f"written{recorded}, listed in {out / engine.MANIFEST}"
            )
        )
    if report.failures or report.recorded:
        sys.exit(Exit.ERROR)


@contextmanager
def _interrupted_batch() -> Iterator[None]:
    """An interrupted batch says what it leaves: its cases recorded, files not written."""
    # batch.pool loads sqlalchemy, yaml, asyncio (+150 ms): kept out of `docgen --help`'s start
    from docgen.batch.pool import Interrupted

    try:
        yield
    except Interrupted as stop:
        for line in stop.report.recorded_lines():
            click.echo(line, err=True)
        if stop.report.recorded:
            click.echo(
                f"interrupted; {len(stop.report.recorded)} case(s) recorded, files not "
                "written; no partial files were left",
                err=True,
            )
            sys.exit(130)
        raise


@main.command()
@click.argument("draft", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("edited", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--author", default="Counsel", show_default=True, help="who the changes are by")
@click.option("--force", is_flag=True, help="replace a file already there")
def compare(draft: Path, edited: Path, out: Path, author: str, force: bool) -> None:
    """Write a redline of EDITED against DRAFT (Word tracked changes) to OUT."""
    # instruments.final and render.output load lxml (+20 ms): kept out of `docgen --help`'s start
    from docgen.instruments.final import redline
    from docgen.render.output import write_files

    marked = redline(draft.read_bytes(), edited.read_bytes(), author, (str(draft), str(edited)))
    write_files({out: marked}, force)
    click.echo(f"wrote {out}")


def _attach_desk() -> None:
    main.add_command(serve)
    main.add_command(users)


_attach_desk()


def _attach_keys() -> None:
    main.add_command(keys)


_attach_keys()


def _attach_register() -> None:
    for command in (
        *DOCUMENT_COMMANDS,
        *READING,
        register,
        *COMMANDS,
        *APPEAL_COMMANDS,
        *AFTER_NOTICE,
    ):
        main.add_command(command)


_attach_register()


def _attach_certify() -> None:
    main.add_command(certify)
    main.add_command(swppp)
    main.add_command(fees)
    main.add_command(year)


_attach_certify()


def _attach_queue() -> None:
    main.add_command(worker)


_attach_queue()

if __name__ == "__main__":  # pragma: no cover
    main()
