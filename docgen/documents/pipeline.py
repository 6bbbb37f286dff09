"""A case made a document: validated against its kind's model and checks under the
pack in force on its date, its context built, and its template rendered (the copy for a
person, the courtesy rendition, the review file); a bundle renders each of its parts with
the part's own kind. The options a kind or bundle cannot honour are refused first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from typing import Any

from pydantic import BaseModel

from docgen.cases.common import Person
from docgen.cases.validate import validate_and_check
from docgen.documents.kind import (
    ENGLISH,
    LANGUAGES,
    Bundle,
    Context,
    DocMeta,
    Kind,
    Options,
    Spec,
)
from docgen.documents.registry import get_kind, kinds_with
from docgen.errors import CaseInvalid, DocgenError, OptionUnsupported, Problem, UnsupportedKind
from docgen.law.pack import Pack
from docgen.law.packs import load_pack, pack_names
from docgen.law.taglines import Tagline, taglines
from docgen.render import language
from docgen.render.formats import Rendition
from docgen.render.html import HtmlDocument, render_page
from docgen.settings import tagline_languages


def provided_by(spec: Spec, pack: Pack) -> bool:
    """Whether ``pack`` provides ``spec`` (a bundle: every part it requires)."""
    return spec.provided_by(pack)


def missing_groups(spec: Spec, pack: Pack) -> list[str]:
    """The groups ``spec`` prints that ``pack`` does not give."""
    return [group for group in spec.needs if getattr(pack, group) is None]


def require(spec: Spec, pack: Pack) -> str:
    """The citation behind ``spec`` in ``pack``, or UnsupportedKind naming what the pack
    lacks: the provision, or a group of the texts the kind prints."""
    cites = "; ".join(pack.require(get_kind(part)) for part in spec.parts)
    missing = missing_groups(spec, pack)
    if missing:
        raise UnsupportedKind(
            f"{pack.name.value}: {spec.name} is provided ({cites}) but the pack has no "
            f"{', '.join(missing)} (what a {spec.name} prints)"
        )
    return cites


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
    if options.copy is not None and not spec.copies:
        raise OptionUnsupported(
            f"{spec.name} has no copies; --copies is for the documents served on each person "
            f"named in copies_to ({', '.join(kinds_with(copies=True))})"
        )
    if options.language is not None:
        if options.language not in LANGUAGES:
            raise OptionUnsupported(
                f"--language {options.language}: no such language; courtesy renditions "
                f"are in {', '.join(LANGUAGES)}"
            )
        if options.language not in getattr(spec, "renditions", ()):
            name = LANGUAGES[options.language][0]
            raise OptionUnsupported(
                f"--language {options.language}: {spec.name}"
                f"{f' ({options.layout})' if options.layout else ''} has no {name} "
                "rendition; the English document is issued alone"
            )
    if split and spec.split is None:
        raise OptionUnsupported(
            f"{spec.name} has no parts to split; --split is for one form per party "
            "(contractor-certification)"
        )


def rendition(
    spec: Kind | Bundle, data: dict[str, Any], options: Options, source: str = ""
) -> Rendition:
    """The validated case rendered to HTML, by its kind or bundle."""
    check_options(spec, options)
    return render(spec, data, options, source)


def jurisdiction_of(data: dict[str, Any]) -> Pack:
    """The pack named by the case's ``jurisdiction`` key, or a Problem naming that key."""
    name = data.get("jurisdiction")
    if not isinstance(name, str) or not name.strip():
        raise CaseInvalid(
            [
                Problem(
                    "jurisdiction",
                    f"is required (one of: {', '.join(pack_names())})",
                    "the case's municipality",
                )
            ]
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
    spec: Kind | Bundle, data: dict[str, Any], options: Options, source: str = ""
) -> tuple[Any, Pack]:
    """The validated case and the pack in force on its date; every problem at once, or an
    UnsupportedKind (a bundle's case is validated whole, as its ``validate`` says)."""
    if isinstance(spec, Bundle):
        case = spec.validate(data, options, source)
        return case, in_force(jurisdiction_of(data), spec.issued(case))
    return _prepared(spec, data, options, source)


def render(
    spec: Kind | Bundle, data: dict[str, Any], options: Options, source: str = ""
) -> Rendition:
    """The case rendered: by its kind (the document, or its copy for a person or its
    courtesy rendition, and the review file when asked), or by its bundle (each part by
    its own kind, in one file)."""
    if isinstance(spec, Bundle):
        return spec.build(data, options, source)
    case, pack = _prepared(spec, data, options, source)
    context = spec.context(case, pack, options)
    if options.copy is not None:
        context = copy_context(context, case, options.copy)
    if options.language is not None:
        context = rendition_context(context, options.language, pack)
    document = render_document(spec, pack, context, options)
    review = None
    if options.review and spec.review_template is not None:
        review = render_review(spec, pack, context, options)
    return Rendition(document, (document,), review)


def check_case(
    spec: Kind | Bundle, data: dict[str, Any], options: Options, source: str = ""
) -> list[str]:
    """What `docgen check` warns of the case (its problems are raised): a kind's
    ``warnings``, without building its document; a bundle's parts' as rendered."""
    check_options(spec, options)
    if isinstance(spec, Bundle):
        return list(render(spec, data, options, source).document.warnings)
    case, pack = _prepared(spec, data, options, source)
    return list(spec.warnings(case, pack, options))


def _prepared(
    kind: Kind, data: dict[str, Any], options: Options, source: str = ""
) -> tuple[Any, Pack]:
    """A kind's validated case and its pack; every problem at once (CaseInvalid about a case
    of ``kind``), or an UnsupportedKind."""
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid as err:
        raise CaseInvalid(err.problems, source, kind=kind.name) from None
    require(kind, pack)
    try:
        case = validate_and_check(
            kind.model,
            data,
            pack,
            lambda c: (
                kind.check(c, in_force(pack, kind.issued(c)), options) + language_problems(c, pack)
            ),
            source,
        )
    except CaseInvalid as err:
        raise err.about(kind.name) from None
    pack = in_force(pack, kind.issued(case))
    return case, pack


def languages_offered(pack: Pack) -> tuple[str, ...]:
    """The languages ``pack``'s municipality offers (LAW.md § 13): English, and those of
    its language-access block (its settings' language_access.taglines)."""
    return (ENGLISH, *tagline_languages(pack.id))


def language_problems(case: Any, pack: Pack) -> list[Problem]:
    """A person's preferred language that the municipality does not offer (LAW.md § 13),
    for every person the case names (a Person: a party or recipient, wherever it is)."""
    offered = languages_offered(pack)
    problems = []
    for path, party in _parties(case, ""):
        if party.language is not None and party.language not in offered:
            problems.append(
                Problem(
                    f"{path}.language",
                    f"{party.language!r} is not a language the {pack.name.value} offers; "
                    f"its languages are {', '.join(offered)} (English, and those of the "
                    "language-access block its settings give)",
                    "LAW.md § 13",
                )
            )
    return problems


def _parties(value: Any, path: str) -> Iterator[tuple[str, Person]]:
    """(field path, person) of each Person in ``value``, a case or a part of one."""
    if isinstance(value, Person):
        yield path, value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _parties(getattr(value, name), f"{path}.{name}" if path else name)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _parties(item, f"{path}[{index}]")


def build_document(
    kind: Kind, data: dict[str, Any], options: Options, source: str = ""
) -> HtmlDocument:
    case, pack = _prepared(kind, data, options, source)
    return render_document(kind, pack, kind.context(case, pack, options), options)


def copy_context(context: Context, case: Any, index: int) -> Context:
    """``context`` as the copy for ``case.copies_to[index]``: addressed to that person in
    the window, saying "Copy for ...", in a file of its own."""
    if not 0 <= index < len(case.copies_to):
        raise OptionUnsupported(f"no copies_to[{index}]: the case names {len(case.copies_to)}")
    person = case.copies_to[index]
    doc = replace(
        context.doc, filename=f"{context.doc.filename or context.doc.number}-copy-{index + 1}"
    )
    return replace(context, copy_for=person, doc=doc)


def rendition_context(context: Context, code: str, pack: Pack) -> Context:
    """``context`` as the courtesy rendition in ``code``: its own language tag, a file of
    its own (``<name>-es``), and its title and running head in that language."""
    meta = context.doc
    with language.speaking(code):
        words = meta.title.removesuffix(f" No. {meta.number}")
        title = (
            f"{language.gettext(words)} {language.gettext('No.')} {meta.number}"
            if words != meta.title
            else meta.title
        )
        name = language.law_words(pack.name) or pack.name.value
    doc = replace(
        meta,
        title=title,
        running_head=f"{name} · {title}" if words != meta.title else meta.running_head,
        lang=LANGUAGES[code][1],
        filename=f"{meta.filename or meta.number}-{code}",
    )
    return replace(context, doc=doc)


def build_blank(kind: Kind, jurisdiction: str, options: Options) -> HtmlDocument:
    """An empty form of ``kind`` for ``jurisdiction``, to be filled in by hand."""
    if kind.blank is None:
        raise DocgenError(f"{kind.name} has no blank form; render it from a case file")
    pack = load_pack(jurisdiction)
    require(kind, pack)
    return render_document(kind, pack, kind.blank(pack, options), options)


def render_document(kind: Kind, pack: Pack, context: Context, options: Options) -> HtmlDocument:
    """The HTML of ``kind``'s template (or its chosen layout) over ``context``."""
    check_options(kind, options)
    template = kind.layouts.get(options.layout or "", kind.template)
    return _document(kind, pack, context, options, template, context.doc)


def render_review(kind: Kind, pack: Pack, context: Context, options: Options) -> HtmlDocument:
    """The review file of a document (``kind.review_template``): its own title and name."""
    meta = context.doc
    review = replace(
        meta,
        title=f"Review of the {meta.title}",
        running_head=f"{meta.running_head} · Review",
        filename=f"{meta.filename or meta.number}-review",
    )
    assert kind.review_template is not None
    return _document(kind, pack, context, options, kind.review_template, review)


def _taglines(kind: Kind, pack: Pack, options: Options) -> tuple[Tagline, ...]:
    """The language-access lines a document of ``kind`` carries (LAW.md § 13): those the
    municipality's settings choose, on every delivered document and its posted layouts (the
    placard, at its 14 pt); none on a packet's later parts
    (``options.taglines`` False: a packet carries the block once, with its first part)."""
    if not options.taglines or not kind.delivered:
        return ()
    return taglines(tagline_languages(pack.id))


def _document(
    kind: Kind, pack: Pack, context: Context, options: Options, template: str, meta: DocMeta
) -> HtmlDocument:
    names = {**context.names(), "doc": meta}
    with language.speaking(options.language):
        page = render_page(
            template,
            {
                "pack": pack,
                "review": options.review,
                "issue": options.mark,
                "corrects": options.corrects,
                "appealable": kind.appealable,
                "taglines": _taglines(kind, pack, options),
                "posted": (options.layout or "") in kind.posted,
                **names,
            },
            options.templates,
        )
    return HtmlDocument(
        kind=kind.name,
        title=meta.title,
        number=meta.number,
        filename=meta.filename or meta.number,
        running_head=meta.running_head,
        date=meta.date,
        html=page.html,
        body=page.body,
        stylesheets=kind.stylesheets,
        lang=meta.lang,
        warnings=tuple(context.warnings),
        attachments=context.attachments if template == kind.template else (),
    )
