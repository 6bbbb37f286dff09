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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.cases.loader import read_case_file
from docgen.documents import KINDS, get_kind
from docgen.documents.base import Kind, Options, build_blank, build_document, prepare
from docgen.errors import CaseInvalid, DocgenError, OutputUsage
from docgen.render.html import HtmlDocument
from docgen.render.output import STDOUT, safe_name, write_files, write_stdout

FORMATS = ("pdf", "docx", "html")

Source = str | Path | Mapping[str, Any]


def load(source: Source) -> tuple[dict[str, Any], str]:
    """The case data and a name for it (the file path, or '<case>')."""
    if isinstance(source, Mapping):
        return dict(source), "<case>"
    return read_case_file(source), str(source)


def build(kind: str, source: Source, options: Options | None = None) -> HtmlDocument:
    """Validate the case and render the document's HTML (the source of every format)."""
    data, name = load(source)
    if kind == PACKET:
        return _packet(data, options, name).document
    return build_document(get_kind(kind), data, options or Options(), name)


def check(kind: str, source: Source, options: Options | None = None) -> list[str]:
    """Validate only. Returns warnings; raises CaseInvalid listing every problem."""
    data, name = load(source)
    if kind == PACKET:
        return list(_packet(data, options, name).document.warnings)
    spec = get_kind(kind)
    options = options or Options()
    case, pack = prepare(spec, data, options, name)
    return list(spec.warnings(case, pack, options))


PACKET = "packet"  # not a kind: the notice, penalty statement and stop-work order in one file


def _packet(data: dict[str, Any], options: Options | None, name: str) -> Any:
    from docgen.documents.packet import build_packet

    return build_packet(data, options or Options(), name)


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


def to_bytes(doc: HtmlDocument, fmt: str, pdf_variant: str | None = None) -> bytes:
    """One format of a rendered document. The engines are imported on first use only."""
    if fmt == "html":
        return doc.standalone().encode("utf-8")
    if fmt == "pdf":
        from docgen.render.pdf import DEFAULT_VARIANT, render_pdf

        return render_pdf(doc, pdf_variant or DEFAULT_VARIANT)
    if fmt == "docx":
        from docgen.render.docx import render_docx

        return render_docx(doc)
    raise DocgenError(f"unknown format {fmt!r}")


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
    formats: Iterable[str],
    make: Callable[[str], bytes],
    force: bool = False,
) -> Rendered:
    """Every format made in memory by ``make(fmt)``, then written together (or none).

    ``out`` of ``-`` writes the one format asked for to standard output.
    """
    formats = tuple(formats)
    if out == STDOUT:
        if len(formats) != 1:
            raise OutputUsage("-o - writes one format to standard output; choose it with -f")
        write_stdout(make(formats[0]))
        return Rendered(doc, [])
    paths = output_paths(out, stem, formats)
    blobs = {paths[fmt]: make(fmt) for fmt in paths}
    return Rendered(doc, write_files(blobs, force))


def render(
    kind: str,
    source: Source,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    options: Options | None = None,
    pdf_variant: str | None = None,
    split: bool = False,
    force: bool = False,
) -> Rendered:
    """Render one case to files. All formats are made in memory, then written together.

    ``split``: one file per part (per contractor) in the directory ``out``, named after
    each part, instead of one document; ``document`` is then the whole, for its warnings.
    ``force``: replace files already there with different bytes (otherwise OutputExists).
    """
    data, name = load(source)
    if kind == PACKET:
        packet = _packet(data, options, name)
        stem = safe_name(packet.document.filename, fallback=kind)
        return _written(
            packet.document,
            stem,
            out,
            formats,
            lambda fmt: packet.to_bytes(fmt, pdf_variant),
            force,
        )
    spec = get_kind(kind)
    options = options or Options()
    doc = build_document(spec, data, options, name)
    if split:
        blobs = split_blobs(spec, data, name, formats, out, options, pdf_variant)
        return Rendered(doc, write_files(blobs, force))
    stem = safe_name(doc.filename, fallback=safe_name(Path(name).stem, fallback=kind))
    return _written(doc, stem, out, formats, lambda fmt: to_bytes(doc, fmt, pdf_variant), force)


def unique_stems(labels: Iterable[str], fallback: str = "part") -> list[str]:
    """Safe file name stems, one per label, made unique (case-insensitively) with -2, -3..."""
    seen: set[str] = set()
    stems = []
    for label in labels:
        base = safe_name(label, fallback=fallback)
        stem, n = base, 2
        while stem.lower() in seen:
            stem, n = f"{base}-{n}", n + 1
        seen.add(stem.lower())
        stems.append(stem)
    return stems


def split_blobs(
    spec: Kind,
    data: dict[str, Any],
    name: str,
    formats: Iterable[str],
    out: str | Path | None,
    options: Options,
    pdf_variant: str | None = None,
) -> dict[Path, bytes]:
    """Every format of every part of a (valid) case, keyed by its path in the folder ``out``."""
    if spec.split is None:
        raise DocgenError(f"{spec.name} has no parts to split; --split is for one form per party")
    folder = Path(out) if out is not None else Path.cwd()
    if out == STDOUT or (not _is_folder(out) and folder.suffix.lower().lstrip(".") in FORMATS):
        raise OutputUsage(
            f"--split writes one file per part into a directory; -o {out} names a file "
            "(give a directory, e.g. -o certs/)"
        )
    if folder.exists() and not folder.is_dir():
        raise DocgenError(f"--split writes one file per part into a directory; {out} is a file")
    formats = tuple(formats)
    parts = spec.split(data)
    blobs: dict[Path, bytes] = {}
    for stem, (_, part) in zip(unique_stems(label for label, _ in parts), parts, strict=True):
        doc = build_document(spec, part, options, name)
        for fmt in formats:
            blobs[folder / f"{stem}.{fmt}"] = to_bytes(doc, fmt, pdf_variant)
    return blobs


def blank(kind: str, jurisdiction: str, options: Options | None = None) -> HtmlDocument:
    """An empty form of ``kind`` for ``jurisdiction`` (no case at all), to fill in by hand."""
    return build_blank(get_kind(kind), jurisdiction, options or Options())


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
    doc = blank(kind, jurisdiction, options)
    stem = safe_name(doc.filename, fallback=kind)
    return _written(doc, stem, out, formats, lambda fmt: to_bytes(doc, fmt, pdf_variant), force)


def penalty(source: Source) -> dict[str, Any]:
    """The `docgen penalty --json` object for any case file with an offense history."""
    from docgen.cases.penalty import PenaltyInput
    from docgen.cases.validate import validate
    from docgen.documents.base import jurisdiction_of
    from docgen.law.penalties import assess

    data, name = load(source)
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid as err:
        raise CaseInvalid(err.problems, name) from None
    pack.require("penalty-statement")
    case = validate(PenaltyInput, data, pack, name)
    try:
        assessment = assess(case.offense, case.prior_offenses, case.issued, pack)
    except CaseInvalid as err:
        raise CaseInvalid(err.problems, name) from None
    return assessment.as_json(pack.id)


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a kind's case file (for editors and validators)."""
    spec = get_kind(kind)
    out = spec.model.model_json_schema()
    out["title"] = f"docgen {kind} case"
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return out


def kinds() -> list[dict[str, Any]]:
    from docgen.law.packs import load_pack, pack_names

    rows = []
    for name, spec in KINDS.items():
        where = [p for p in pack_names() if load_pack(p).provides(name)]
        rows.append(
            {"kind": name, "title": spec.title, "jurisdictions": where, "summary": spec.summary}
        )
    return rows


def jurisdictions() -> list[dict[str, Any]]:
    from docgen.law.packs import load_pack, pack_files

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
                "kinds": [k for k in KINDS if pack.provides(k)],
            }
        )
    return rows
