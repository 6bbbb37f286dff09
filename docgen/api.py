"""The library surface: everything the CLI does is a function here.

    from docgen import api
    api.render("penalty-statement", "case.yaml", formats=("pdf",), out="out/")

Sources are a path to a YAML/JSON case file or an already-parsed mapping. Every failure
a user can cause raises a DocgenError whose message names the field, the problem and
the provision; outputs are rendered in memory first and written atomically, so an error
leaves no file behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from docgen.cases import labels
from docgen.cases.loader import read_case_file
from docgen.cases.validate import validate
from docgen.documents import DOCUMENTS, get_kind
from docgen.documents.kind import Kind, Options, Spec
from docgen.documents.pipeline import (
    build_blank,
    check_case,
    check_options,
    jurisdiction_of,
    provided_by,
    rendition,
)
from docgen.errors import CaseInvalid, DocgenError, OptionUnsupported, OutputUsage
from docgen.law.packs import load_pack, pack_files, pack_names
from docgen.law.provisions import cited_by, cited_problems
from docgen.render.formats import FORMATS, Rendition, to_bytes
from docgen.render.html import HtmlDocument
from docgen.render.output import STDOUT, safe_name, write_files, write_stdout
from docgen.render.variants import check_variant

Source = str | Path | Mapping[str, Any]
__all__ = ["FORMATS", "to_bytes"]  # re-exported: the formats and the bytes of a rendition


def load(source: Source, name: str | None = None) -> tuple[dict[str, Any], str]:
    """The case data and the name errors give it (``name``; else the path, or '<case>')."""
    if isinstance(source, Mapping):
        return dict(source), name or "<case>"
    return read_case_file(source), name or str(source)


def render_case(
    kind: str, source: Source, options: Options | None = None, name: str | None = None
) -> Rendition:
    """Validate the case and render its HTML (the source of every format): a kind's one
    document, or a bundle's parts and the page that holds them all."""
    data, name = load(source, name)
    return rendition(get_kind(kind), data, with_case_dir(options or Options(), source), name)


def with_case_dir(options: Options, source: Source) -> Options:
    """``options`` knowing the case file's folder: a file the case names (an easement's
    map exhibit) is read from there."""
    if options.case_dir is not None:
        return options
    return replace(options, case_dir=case_dir_of(source))


def case_dir_of(source: Source) -> Path | None:
    """The folder of the case file ``source``; None for case data given as a mapping (the
    desk's), which names no file (docgen.documents.exhibits)."""
    return None if isinstance(source, Mapping) else Path(source).resolve().parent


def build(kind: str, source: Source, options: Options | None = None) -> HtmlDocument:
    """The document's HTML (a bundle's: every part in one page)."""
    return render_case(kind, source, options).document


def render_bytes(
    kind: str,
    source: Source,
    formats: Iterable[str] = FORMATS,
    options: Options | None = None,
    pdf_variant: str | None = None,
    lap: Callable[[str], None] | None = None,
    name: str | None = None,
) -> tuple[Rendition, dict[str, bytes]]:
    """The one road from a case to bytes, for ``render``, ``batch``, ``demo`` and the
    register: every format in memory, nothing written. ``lap(stage)`` hears when the HTML
    ("html") and then each format is done (the batch's timings); ``name`` is what errors
    call the case (default: its path)."""
    check_variant(pdf_variant)
    done = render_case(kind, source, options, name)
    if lap is not None:
        lap("html")
    blobs = {}
    for fmt in formats:
        blobs[fmt] = to_bytes(done, fmt, pdf_variant)
        if lap is not None:
            lap(fmt)
    return done, blobs


def check(kind: str, source: Source, options: Options | None = None) -> list[str]:
    """Validate only. Returns warnings; raises CaseInvalid listing every problem."""
    spec = get_kind(kind)
    data, name = load(source)
    return check_case(spec, data, with_case_dir(options or Options(), source), name)


def in_words(err: CaseInvalid, kind: str = "") -> CaseInvalid:
    """A case's problems said as the desk says them, for the command line: each with its
    field named by the form of the kind the error is about (``err.kind``, else ``kind``),
    its label and place ("remedies[0].due" -> "Remedy 1, due"; docgen.cases.labels, the
    desk's one source); as it is when neither is a kind of document."""
    about = err.kind or kind
    if about not in DOCUMENTS:
        return err
    return labels.reworded(err, get_kind(about).model)


@contextmanager
def said_in_words(kind: str) -> Iterator[None]:
    """Within it, a case's problems (CaseInvalid) are said as the desk says them
    (:func:`in_words`), naming the fields of ``kind``'s form unless the error knows the
    kind it is about."""
    try:
        yield
    except CaseInvalid as err:
        raise in_words(err, kind) from None


def warnings_in_words(kind: str, warnings: Iterable[str]) -> list[str]:
    """A check's warnings as the desk says them: each field of ``kind``'s case named by its
    label and place on the form ("owner.organized_in: not given" -> "Owner, organized in:
    not given"), without the design notes' references."""
    if kind not in DOCUMENTS:
        return list(warnings)
    model = get_kind(kind).model
    return [labels.for_person(w, model) for w in warnings]


def formats_from(spec: str | Iterable[str]) -> tuple[str, ...]:
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    chosen: list[str] = []
    for item in (i.strip().lower() for i in items):
        expanded = FORMATS if item == "all" else (item,)
        for fmt in expanded:
            if fmt not in FORMATS:
                raise DocgenError(f"unknown format {fmt!r}; choose pdf, docx, html or all")
            if fmt not in chosen:
                chosen.append(fmt)
    return tuple(chosen)


def _is_folder(out: str | Path | None) -> bool:
    return out is None or str(out).endswith(("/", "\\")) or Path(out).is_dir()


def output_paths(out: str | Path | None, stem: str, formats: Iterable[str]) -> dict[str, Path]:
    """Where each format goes: ``out`` is a directory (existing, or ending in '/') or a file.

    A file name keeps every dot it has (``PS-2026.0011`` -> ``PS-2026.0011.pdf``); only a
    format's own extension is replaced, and it must be one of the formats asked for
    (``-f pdf -o out.docx`` is an OutputUsage error).
    """
    formats = list(formats)
    if _is_folder(out):
        folder = Path(out) if out is not None else Path.cwd()
        return {fmt: folder / f"{stem}.{fmt}" for fmt in formats}
    target = Path(str(out))
    if len(formats) == 1 and os.path.lexists(target):
        return {formats[0]: target}  # a path that exists is that path (refused if not a file)
    named = target.suffix.lower().lstrip(".")
    if named in FORMATS:
        if named not in formats:
            raise OutputUsage(
                f"-o {out} names a .{named} file, but the format asked for is "
                f"{', '.join(formats)}; change the name or -f"
            )
        target = target.with_suffix("")
    return {fmt: target.with_name(f"{target.name}.{fmt}") for fmt in formats}


@dataclass(frozen=True)
class Rendered:
    document: HtmlDocument
    files: list[Path]


def _written(
    doc: HtmlDocument,
    stem: str,
    out: str | Path | None,
    blobs: dict[str, bytes],
    force: bool = False,
) -> Rendered:
    """Every format (made in memory) written together, or none; ``-`` is standard output."""
    if out == STDOUT:
        (data,) = blobs.values()  # one format: _check_out refused more before rendering
        write_stdout(data)
        return Rendered(doc, [])
    paths = output_paths(out, stem, blobs)
    return Rendered(doc, write_files({paths[fmt]: blobs[fmt] for fmt in blobs}, force))


def _check_out(out: str | Path | None, formats: tuple[str, ...], review: bool = False) -> None:
    """Output options that contradict each other, refused before anything is rendered."""
    if out == STDOUT and len(formats) != 1:
        raise OutputUsage("-o - writes one format to standard output; choose it with -f")
    if out == STDOUT and review:
        raise OutputUsage(
            "--review writes a review file beside the instrument; -o - has room for one "
            "file (give a file or directory)"
        )
    output_paths(out, "check", formats)


def render(
    kind: str,
    source: Source,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    options: Options | None = None,
    pdf_variant: str | None = None,
    split: bool = False,
    force: bool = False,
    copies: bool = False,
) -> Rendered:
    """Render one case to files. All formats are made in memory, then written together.

    ``split``: one file per part (per contractor) in the directory ``out``, named after
    each part, instead of one document; ``document`` is then the whole, for its warnings.
    ``force``: replace files already there with different bytes (otherwise OutputExists).
    ``copies``: one file per person served (:func:`copy_files`).
    """
    spec = get_kind(kind)
    options = options or Options()
    formats = tuple(formats)
    check_options(spec, options, split)
    check_variant(pdf_variant)
    data, name = load(source)
    options = with_case_dir(options, source)
    if split:
        doc = render_case(kind, data, options, name).document
        parts = split_blobs(spec, data, name, formats, out, options, pdf_variant)
        return Rendered(doc, write_files(parts, force))
    if copies:
        return copy_files(kind, data, name, formats, out, options, pdf_variant, force)
    _check_out(out, formats, options.review)
    done, blobs = render_bytes(kind, data, formats, options, pdf_variant, name=name)
    doc = done.document
    stem = safe_name(doc.filename, fallback=safe_name(Path(name).stem, fallback=kind))
    if done.review is None:
        return _written(doc, stem, out, blobs, force)
    paths = output_paths(out, stem, blobs)
    files = {paths[fmt]: blob for fmt, blob in blobs.items()}
    for fmt, path in paths.items():
        files[review_path(path)] = to_bytes(done.review, fmt, pdf_variant)
    return Rendered(doc, write_files(files, force))


def review_path(path: Path) -> Path:
    """Where the review file of the document at ``path`` goes: beside it, "-review" added."""
    return path.with_name(f"{path.stem}-review{path.suffix}")


class UniqueStems:
    """Safe file name stems unique within one output folder: the first keeps its name,
    then -2, -3... (compared case-blind, as macOS and Windows folders do)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def take(self, label: str, fallback: str = "part") -> str:
        base = safe_name(label, fallback=fallback)
        stem, n = base, 2
        while stem.lower() in self._seen:
            stem, n = f"{base}-{n}", n + 1
        self._seen.add(stem.lower())
        return stem


def unique_stems(labels: Iterable[str], fallback: str = "part") -> list[str]:
    """Safe file name stems, one per label, made unique (case-insensitively) with -2, -3..."""
    names = UniqueStems()
    return [names.take(label, fallback) for label in labels]


def split_blobs(
    spec: Spec,
    data: dict[str, Any],
    name: str,
    formats: Iterable[str],
    out: str | Path | None,
    options: Options,
    pdf_variant: str | None = None,
) -> dict[Path, bytes]:
    """Every format of every part of a (valid) case, keyed by its path in the folder ``out``."""
    check_options(spec, options, split=True)
    folder = Path(out) if out is not None else Path.cwd()
    if out == STDOUT or (not _is_folder(out) and folder.suffix.lower().lstrip(".") in FORMATS):
        raise OutputUsage(
            f"--split writes one file per part into a directory; -o {out} names a file "
            "(give a directory, e.g. -o certs/)"
        )
    if folder.exists() and not folder.is_dir():
        raise DocgenError(f"--split writes one file per part into a directory; {out} is a file")
    formats = tuple(formats)
    if spec.split is None:  # check_options refused --split for it before
        raise OptionUnsupported(f"{spec.name} has no parts to split")
    parts = spec.split(data)
    blobs: dict[Path, bytes] = {}
    for stem, (_, part) in zip(unique_stems(label for label, _ in parts), parts, strict=True):
        _, made = render_bytes(spec.name, part, formats, options, pdf_variant, name=name)
        blobs.update({folder / f"{stem}.{fmt}": data for fmt, data in made.items()})
    return blobs


def copies_folder(out: str | Path | None) -> Path:
    """The directory ``--copies`` writes into: one file per person served cannot go to
    one file or to standard output."""
    folder = Path(out) if out is not None else Path.cwd()
    if out == STDOUT or (not _is_folder(out) and folder.suffix.lower().lstrip(".") in FORMATS):
        raise OutputUsage(
            f"--copies writes one file per person served into a directory; -o {out} names a "
            "file (give a directory, e.g. -o out/)"
        )
    return folder


def copy_renders(
    kind: str,
    data: dict[str, Any],
    name: str,
    formats: tuple[str, ...],
    options: Options,
    pdf_variant: str | None = None,
) -> list[tuple[Rendition, dict[str, bytes]]]:
    """The original, addressed to the recipient, then a copy for each person in
    copies_to, addressed to them ("Copy for ..."): LAW.md § 9, one per person served."""
    check_options(get_kind(kind), replace(options, copy=0))
    people = data.get("copies_to")
    return [
        render_bytes(kind, data, formats, replace(options, copy=copy), pdf_variant, name=name)
        for copy in [None, *range(len(people) if isinstance(people, list) else 0)]
    ]


def copy_files(
    kind: str,
    data: dict[str, Any],
    name: str,
    formats: tuple[str, ...],
    out: str | Path | None,
    options: Options,
    pdf_variant: str | None = None,
    force: bool = False,
) -> Rendered:
    """One file per person served (:func:`copy_renders`), in the directory ``out``, named
    ``<number>-<kind>-copy-N`` for the copies. All are written or none."""
    folder = copies_folder(out)
    made = copy_renders(kind, data, name, formats, options, pdf_variant)
    blobs: dict[Path, bytes] = {}
    for done, files in made:
        stem = safe_name(done.document.filename, fallback=kind)
        blobs.update({folder / f"{stem}.{fmt}": blob for fmt, blob in files.items()})
    return Rendered(made[0][0].document, write_files(blobs, force))


def blank(kind: str, jurisdiction: str, options: Options | None = None) -> HtmlDocument:
    """An empty form of ``kind`` for ``jurisdiction`` (no case at all), to fill in by hand."""
    spec = get_kind(kind)
    if not isinstance(spec, Kind):  # a bundle (the packet) has no blank form of its own
        raise DocgenError(f"{spec.a_title} has no blank form; render it from a case file")
    return build_blank(spec, jurisdiction, options or Options())


def render_blank(
    kind: str,
    jurisdiction: str,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    options: Options | None = None,
    pdf_variant: str | None = None,
    force: bool = False,
) -> Rendered:
    """Render the empty form of ``kind`` for ``jurisdiction`` to files."""
    formats = tuple(formats)
    check_variant(pdf_variant)
    _check_out(out, formats)
    doc = blank(kind, jurisdiction, options)
    stem = safe_name(doc.filename, fallback=kind)
    return _written(doc, stem, out, {f: to_bytes(doc, f, pdf_variant) for f in formats}, force)


def penalty(source: Source) -> dict[str, Any]:
    """The `docgen penalty --json` object for any case file with an offense history."""
    # cases.penalty takes 11 ms to import (docgen modules): loaded on first use
    from docgen.cases.penalty import PenaltyInput

    # documents.packet and others take 45 ms to import (docgen modules): loaded on first use
    from docgen.documents.packet import PacketCase
    from docgen.documents.penalty_statement import (
        PenaltyStatementCase,
        offense_problems,
        penalty_assessment,
        penalty_provision,
    )

    data, name = load(source)
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid as err:
        raise CaseInvalid(err.problems, name) from None
    penalty_provision(pack)  # an article without one assesses no penalty
    # Keys the case's own kind reads (names, addresses, remedies...) are not the
    # penalty's; every other key must be one the penalty reads.
    theirs = (set(PacketCase.model_fields) | set(PenaltyStatementCase.model_fields)) - set(
        PenaltyInput.model_fields
    )
    case = validate(PenaltyInput, {k: v for k, v in data.items() if k not in theirs}, pack, name)
    try:
        problems = offense_problems(case)
        if problems:
            raise CaseInvalid(problems)
        assessment = penalty_assessment(case, pack)
    except CaseInvalid as err:
        raise CaseInvalid(cited_problems(err.problems, pack), name) from None
    return assessment.as_json(pack.id)


def schema(kind: str, jurisdiction: str | None = None) -> dict[str, Any]:
    """The JSON Schema of a kind's case file (for editors and validators). Each field's
    ``provision`` names a pack value (``@penalties``); for a ``jurisdiction``, its ref."""
    spec = get_kind(kind)
    out = spec.model.model_json_schema()
    out["title"] = f"docgen {kind} case"
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    if jurisdiction is not None:
        pack = load_pack(jurisdiction)
        for part in spec.parts:
            pack.require(
                get_kind(part)
            )  # a kind the law does not provide has no provisions to cite
        _cite_schema(out, lambda provision: cited_by(provision, pack))
    return out


def _cite_schema(node: Any, cite: Callable[[str], str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("provision"), str):
            node["provision"] = cite(node["provision"])
        for value in node.values():
            _cite_schema(value, cite)
    elif isinstance(node, list):
        for value in node:
            _cite_schema(value, cite)


def kinds() -> list[dict[str, Any]]:
    rows = []
    for name, spec in DOCUMENTS.items():
        where = [p for p in pack_names() if provided_by(spec, load_pack(p))]
        cites = {p: "; ".join(load_pack(p).require(get_kind(k)) for k in spec.parts) for p in where}
        rows.append(
            {
                "kind": name,
                "title": spec.title,
                "jurisdictions": where,
                "summary": spec.summary,
                "provisions": cites,  # jurisdiction -> the provisions behind the kind
            }
        )
    return rows


def jurisdictions() -> list[dict[str, Any]]:
    rows = []
    for name, path in pack_files().items():
        pack = load_pack(name)
        rows.append(
            {
                "id": name,
                "name": pack.name.value,
                "county": pack.county.value,
                "code": pack.code.title.value,
                "sections": pack.code.sections.value,
                "source": str(path),
                "kinds": [k for k, spec in DOCUMENTS.items() if provided_by(spec, pack)],
            }
        )
    return rows
