"""What a document kind is: its case model, its checks, its context, its template.

A kind module defines one :class:`Kind`. Its ``check`` returns every rule the case
breaks (each a Problem naming field and provision); its ``context`` builds what the
template needs (pure: no I/O, no clock). :func:`build_document` runs them in order and
renders the HTML, the single source of the document's words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any

from pydantic import BaseModel

from docgen.cases.validate import provision_for, validate_and_check
from docgen.errors import CaseInvalid, DocgenError, OptionUnsupported, Problem
from docgen.law.pack import Pack
from docgen.law.packs import load_pack
from docgen.render.formats import Rendition
from docgen.render.html import HtmlDocument, render_html
from docgen.signing.codes import IssueMark


@dataclass(frozen=True)
class Options:
    """How to render, apart from the case: the date, review marks, a layout variant."""

    today: date | None = None  # the render date; defaults to the case's own date
    review: bool = False  # mark every value that came from the case
    layout: str | None = None  # a kind's alternative layout (e.g. "placard")
    templates: str | None = None  # a custom template folder, rendered in a sandbox
    # Issued before service (the register): a notice without ``served`` states the appeal
    # period "within N days of service" and leaves its certificate of service blank, to
    # be completed by hand; without it, a notice must state its last day to appeal.
    before_service: bool = False
    # Issued (the register): the verification line, and who signs (docgen.signing.codes).
    # Drafts and `docgen render` have none.
    mark: IssueMark | None = None


@dataclass(frozen=True)
class DocMeta:
    kind: str
    title: str
    number: str
    running_head: str
    date: date | None  # the file's own date (PDF and DOCX metadata); None: the case has none
    filename: str = ""  # file name stem for outputs; the document number when empty
    lang: str = "en-US"

    @classmethod
    def numbered(
        cls, kind: str, title: str, number: str, pack: Pack, day: date, suffix: str = ""
    ) -> DocMeta:
        """A document known by its number: "Notice of Violation No. N", file N-kind."""
        return cls(
            kind=kind,
            title=f"{title} No. {number}",
            number=number,
            running_head=f"{pack.name.value} · {title} No. {number}",
            date=day,
            filename=f"{number}-{kind}{suffix}",
        )


@dataclass(frozen=True, kw_only=True)
class Context:
    """What a kind's template receives besides ``pack`` and ``review``: the document's
    metadata and warnings here, and each kind's own typed values in a subclass; the
    template sees every field under its own name (``case``, ``doc``...)."""

    doc: DocMeta
    warnings: tuple[str, ...] = ()
    # A served document's copy for a person other than its addressee (a Party): the
    # window shows that person and the page says "Copy for ..." (None: the original).
    copy_for: Any = None

    def names(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Kind:
    name: str
    title: str
    model: type[BaseModel]
    template: str
    context: Callable[[Any, Pack, Options], Context]
    check: Callable[[Any, Pack, Options], list[Problem]] = lambda case, pack, options: []
    # Whether the template marks the case's values in review mode (`--review`).
    review: bool = False
    # What `docgen check` warns about without building the whole context.
    warnings: Callable[[Any, Pack, Options], list[str]] = lambda case, pack, options: []
    stylesheets: tuple[str, ...] = ("base/print.css",)
    layouts: dict[str, str] = field(default_factory=dict)  # layout name -> template
    summary: str = ""
    # An empty form with no case (`render --blank`): the context for a pack, or None.
    blank: Callable[[Pack, Options], Context] | None = None
    # One document per part (`render --split`): (name, case data) from valid case data.
    split: Callable[[dict[str, Any]], list[tuple[str, dict[str, Any]]]] | None = None
    # The document's issue date: it prints the law in force that day (None: the latest).
    issued: Callable[[Any], date | None] = lambda case: getattr(case, "issued", None)


@dataclass(frozen=True)
class Bundle:
    """Documents of several kinds served together in one file (the violation packet).

    It is used like a kind (`kinds`, `schema`, `check`, `render`, `batch`): ``build``
    validates the bundle's case as a whole and renders each part with its own kind.
    """

    name: str
    title: str
    model: type[BaseModel]
    parts: tuple[str, ...]  # the kinds a jurisdiction must provide for the bundle
    build: Callable[[dict[str, Any], Options, str], Rendition]
    summary: str = ""
    review: bool = False
    layouts: dict[str, str] = field(default_factory=dict)
    split: None = None
    blank: None = None


Spec = Kind | Bundle


def provided_by(spec: Spec, pack: Pack) -> bool:
    """Whether ``pack`` provides ``spec`` (a bundle: every part it requires)."""
    if isinstance(spec, Bundle):
        return all(pack.provides(part) for part in spec.parts)
    return pack.provides(spec.name)


def check_options(spec: Spec, options: Options, split: bool = False) -> None:
    """Refuse, as a usage error, an option ``spec`` cannot honour."""
    if options.layout and options.layout not in spec.layouts:
        raise OptionUnsupported(
            f"{spec.name} has no layout {options.layout!r}; "
            f"layouts: {', '.join(spec.layouts) or 'none'}"
        )
    if options.review and not spec.review:
        raise OptionUnsupported(
            f"{spec.name} has no review mode; --review marks the case's values in the "
            "drafts an attorney reviews (maintenance-easement, maintenance-agreement)"
        )
    if split and spec.split is None:
        raise OptionUnsupported(
            f"{spec.name} has no parts to split; --split is for one form per party "
            "(contractor-certification)"
        )


def rendition(spec: Spec, data: dict[str, Any], options: Options, source: str = "") -> Rendition:
    """The validated case rendered to HTML, by its kind or bundle."""
    check_options(spec, options)
    if isinstance(spec, Bundle):
        return spec.build(data, options, source)
    return Rendition.single(build_document(spec, data, options, source))


def site_problems(case: Any, pack: Pack, message: str) -> list[Problem]:
    """A site given with neither an address nor a description, cited by the case model's
    ``site`` field (each kind words what its site must identify)."""
    if case.site is None or case.site.given():
        return []
    return [Problem("site", message, provision_for(type(case), ("site",), pack))]


def jurisdiction_of(data: dict[str, Any]) -> Pack:
    """The pack named by the case's ``jurisdiction`` key, or a Problem naming that key."""
    name = data.get("jurisdiction")
    if not isinstance(name, str) or not name.strip():
        raise CaseInvalid(
            [Problem("jurisdiction", "is required (homer or macedon)", "the case's municipality")]
        )
    try:
        return load_pack(name)
    except DocgenError as err:
        raise CaseInvalid(
            [Problem("jurisdiction", str(err).removeprefix("jurisdiction: "))]
        ) from None


def in_force(pack: Pack, day: date | None) -> Pack:
    """``pack`` as amended up to ``day``: the values a document issued that day prints."""
    return load_pack(pack.id, day) if day is not None else pack


def prepare(
    kind: Kind, data: dict[str, Any], options: Options, source: str = ""
) -> tuple[Any, Pack]:
    """The validated case and its pack; every problem at once, or an UnsupportedKind."""
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid as err:
        raise CaseInvalid(err.problems, source) from None
    pack.require(kind.name)
    case = validate_and_check(
        kind.model,
        data,
        pack,
        lambda c: kind.check(c, in_force(pack, kind.issued(c)), options),
        source,
    )
    pack = in_force(pack, kind.issued(case))
    return case, pack


def build_document(
    kind: Kind, data: dict[str, Any], options: Options, source: str = ""
) -> HtmlDocument:
    case, pack = prepare(kind, data, options, source)
    return render_document(kind, pack, kind.context(case, pack, options), options)


def build_blank(kind: Kind, jurisdiction: str, options: Options) -> HtmlDocument:
    """An empty form of ``kind`` for ``jurisdiction``, to be filled in by hand."""
    if kind.blank is None:
        raise DocgenError(f"{kind.name} has no blank form; render it from a case file")
    pack = load_pack(jurisdiction)
    pack.require(kind.name)
    return render_document(kind, pack, kind.blank(pack, options), options)


def render_document(kind: Kind, pack: Pack, context: Context, options: Options) -> HtmlDocument:
    """The HTML of ``kind``'s template (or its chosen layout) over ``context``."""
    meta = context.doc
    check_options(kind, options)
    template = kind.layouts.get(options.layout or "", kind.template)
    html = render_html(
        template,
        {"pack": pack, "review": options.review, "issue": options.mark, **context.names()},
        options.templates,
    )
    return HtmlDocument(
        kind=kind.name,
        title=meta.title,
        number=meta.number,
        filename=meta.filename or meta.number,
        running_head=meta.running_head,
        date=meta.date,
        html=html,
        stylesheets=kind.stylesheets,
        lang=meta.lang,
        warnings=tuple(context.warnings),
    )
