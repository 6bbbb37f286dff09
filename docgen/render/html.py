"""Stage 1 of rendering: a document's template and context to one HTML string.

The HTML is the single source of wording: the PDF is this HTML through WeasyPrint and
the DOCX body is written from it. The stylesheet is linked for the PDF engine (parsed
once per process) and inlined for the standalone .html file.
"""

from __future__ import annotations

import base64
import re
import traceback
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Any

from docgen.errors import RenderError

CSS_MARKER = "<!--docgen:stylesheets-->"


@dataclass(frozen=True)
class HtmlDocument:
    """A rendered document, ready for any output format."""

    kind: str
    title: str
    number: str
    filename: str
    running_head: str
    date: date | None
    html: str
    stylesheets: tuple[str, ...] = ("base/print.css",)
    lang: str = "en-US"
    warnings: tuple[str, ...] = field(default_factory=tuple)
    # Images the document itself attaches (an easement's map exhibit), referred to in the
    # HTML as ``attachment:NAME``: the PDF's fetcher and the DOCX writer read them here.
    attachments: tuple[Attachment, ...] = ()
    # What the page's <main> holds, as rendered (render_page): what a bundle composes its
    # page of (docgen.documents.packet).
    body: str = ""

    def standalone(self) -> str:
        """The HTML file a person opens: the stylesheets and attachments inlined, nothing
        linked."""
        css = "\n".join(stylesheet_text(name) for name in self.stylesheets)
        html = self.html.replace(CSS_MARKER, f"<style>\n{css}\n</style>", 1)
        for item in self.attachments:
            html = html.replace(f'src="{item.url}"', f'src="{item.data_uri()}"')
        return html

    def attachment(self, url: str) -> Attachment | None:
        return next((a for a in self.attachments if a.url == url), None)


@dataclass(frozen=True)
class Attachment:
    """An image a document attaches: ``attachment:NAME`` in its HTML."""

    name: str
    mime: str
    data: bytes
    width_in: float  # the size it prints at
    height_in: float

    @property
    def url(self) -> str:
        return f"attachment:{self.name}"

    def data_uri(self) -> str:
        return f"data:{self.mime};base64,{base64.b64encode(self.data).decode('ascii')}"


@cache
def stylesheet_text(name: str) -> str:
    # render.environment loads pydantic, num2words, jinja2 (+160 ms): loaded on first use
    from docgen.render.environment import templates_dir

    return (templates_dir() / name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Page:
    """A rendered page, and what its ``<main>`` holds (``body``: the ``document_body`` that
    base/layout.html.j2 sets, "" for a page without it), each as it is printed."""

    html: str
    body: str


def render_page(
    template: str,
    context: dict[str, Any],
    custom_templates: str | None = None,
    breakable: bool = True,
) -> Page:
    """Render ``template`` with ``context``, its long words breakable (``breakable``
    False: a page composed of bodies already made so, base/packet.html.j2); template
    faults become RenderError with file:line."""
    import jinja2  # here, not at import: validating a case (`docgen check`) needs no Jinja

    # render.environment loads pydantic, num2words, jinja2 (+160 ms): loaded on first use
    from docgen.render.environment import environment, render_exporting

    env = environment(custom_templates)
    try:
        html, exported = render_exporting(env.get_template(template), context)
    except jinja2.exceptions.SecurityError as err:
        where = _template_line(err) or template
        raise RenderError(f"{where}: refused by the template sandbox: {err}") from None
    except jinja2.UndefinedError as err:
        raise RenderError(
            f"{_template_line(err) or template}: {err.message} "
            "(a value the template needs is missing)"
        ) from None
    except jinja2.TemplateSyntaxError as err:
        raise RenderError(f"{err.filename or template}:{err.lineno}: {err.message}") from None
    except jinja2.TemplateNotFound as err:
        raise RenderError(f"template not found: {err.name}") from None
    body = str(exported.get("document_body", ""))
    if not breakable:
        return Page(html, body)
    return Page(breakable_text(html), breakable_text(body))


_TEXT = re.compile(r"(<(style|script)\b.*?</\2>)|>([^<]+)<", re.S | re.I)


def breakable_text(html: str) -> str:
    """The document's text (never its tags, attributes, styles or scripts) with a break
    point in every word too long for a line (``filters.breakable``)."""
    # render.filters loads pydantic, num2words, jinja2 (+160 ms): loaded on first use
    from docgen.render.filters import breakable

    def text(match: re.Match[str]) -> str:
        return match.group(0) if match.group(1) else f">{breakable(match.group(3))}<"

    return _TEXT.sub(text, html)


def _template_line(err: BaseException) -> str:
    """'file:line' of the innermost template frame (Jinja puts them in the traceback)."""
    # render.environment loads pydantic, num2words, jinja2 (+160 ms): loaded on first use
    from docgen.render.environment import templates_dir

    where = ""
    for frame in traceback.extract_tb(err.__traceback__):
        if frame.filename.endswith(".j2"):
            name = frame.filename
            builtin = str(templates_dir()) + "/"
            where = f"{name.removeprefix(builtin)}:{frame.lineno}"
    return where
