"""A rendering process's head start: the kinds' templates compiled, the stylesheets parsed,
the fonts' coverage read and one page laid out in each format, once, so that its first
document costs what every later one does (a cold first PDF takes about four times the
processor of a warm one).

Batch and queue workers warm up when they start. The desk warms up its renderers' fork
server instead, once (docgen.preload): each renderer forked from it, a replacement for a
killed one too, starts warm.
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Iterable
from datetime import date

from docgen.render.formats import to_bytes
from docgen.render.html import CSS_MARKER, HtmlDocument

# (kind, format) pairs this process has warmed up, or inherited warm from its fork server.
_warm: set[tuple[str, str]] = set()


class Heard(logging.Handler):
    """Keeps the warnings docgen logs while it is attached (the engines' at warm-up, a
    case's while it renders), to be reported with what caused them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def warm_up(
    kinds: Iterable[str] | None, formats: Iterable[str], pdf_variant: str | None = None
) -> None:
    """Load what the cases of ``kinds`` need in ``formats``, unless this process has
    already: the kinds' templates (a bundle's members' too) and their partials, then one
    page per format.
    ``kinds`` None: every kind (a queue worker's, a fork server's: they render whatever
    they are given)."""
    # documents and others load pydantic, num2words, jinja2 (+200 ms): loaded on first use
    from docgen.documents import DOCUMENTS, get_kind
    from docgen.documents.registry import members
    from docgen.render.environment import environment

    kinds = DOCUMENTS if kinds is None else kinds
    wanted = {(kind, fmt) for kind in kinds for fmt in formats} - _warm
    if not wanted:
        return
    made_of = [m for name in dict.fromkeys(k for k, _ in wanted) for m in members(get_kind(name))]
    env = environment()
    # Each kind's templates, and every template beside them and in base/: the partials
    # they include or import are compiled when first rendered otherwise.
    named = {t for kind in made_of for t in (kind.template, *kind.layouts.values())}
    folders = {"base"} | {t.rpartition("/")[0] for t in named}
    for template in env.list_templates(filter_func=lambda t: t.endswith(".j2")):
        if template in named or template.rpartition("/")[0] in folders:
            env.get_template(template)
    page = warm_up_page(tuple(dict.fromkeys(s for kind in made_of for s in kind.stylesheets)))
    missing = dict.fromkeys(fmt for _, fmt in sorted(wanted))
    if "pdf" in missing:
        # render.pdf loads pikepdf, pydantic, num2words (+190 ms): loaded on first use
        from docgen.render import pdf

        pdf.warm_up()
    for fmt in missing:
        to_bytes(page, fmt, pdf_variant)
    _warm.update(wanted)


def head_start(
    kinds: Iterable[str] | None, formats: Iterable[str], pdf_variant: str | None = None
) -> None:
    """A process's warm-up as it starts (a worker's, a fork server's): :func:`warm_up`,
    the warnings logged meanwhile printed (the engine's own: libharfbuzz-subset0 missing),
    a failure only a warning (each case still shows its own fault), and what is loaded
    kept off the collector for the process's life, so its pages stay shared with any
    process forked from it instead of copied."""
    logger = logging.getLogger("docgen")
    heard = Heard()
    logger.addHandler(heard)
    try:
        warm_up(kinds, formats, pdf_variant)
    except Exception as err:
        print(f"warning: warm-up failed ({type(err).__name__}: {err})", file=sys.stderr)
    finally:
        logger.removeHandler(heard)
    for message in heard.messages:
        print(f"warning: {message}", file=sys.stderr)
    gc.collect()
    gc.freeze()


def warm_up_page(stylesheets: tuple[str, ...]) -> HtmlDocument:
    """A one-page document touching the fonts and styles real documents use."""

    html = (
        '<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>warm-up</title>'
        f'{CSS_MARKER}</head><body data-running-head="warm-up"><main>'
        '<p class="letterhead-name">Warm-up</p><h1>Warm-up</h1><h2>Heading</h2>'
        "<p>Regular, <strong>bold</strong>, <em>italic</em>, <u>underlined</u>, "
        "\u00a7\u00a012-34C(5).</p><ol><li>one<ol><li>two</li></ol></li></ol>"
        "<ul><li>three</li></ul><table><thead><tr><th>a</th></tr></thead>"
        '<tbody><tr><td>b</td></tr></tbody></table><p class="small">small</p>'
        "</main></body></html>"
    )
    return HtmlDocument(
        kind="warm-up",
        title="warm-up",
        number="warm-up",
        filename="warm-up",
        running_head="warm-up",
        date=date(2000, 1, 1),
        html=html,
        stylesheets=stylesheets,
    )
