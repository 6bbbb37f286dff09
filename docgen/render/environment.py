"""The Jinja environment: strict, autoescaped, built once per process in one function.

Case data is text: autoescape turns ``<`` into ``&lt;``, and values are never parsed
as template code (``{{ 7*7 }}`` in a name prints as typed). A missing value is an
error (StrictUndefined), never a blank. Custom template folders (``--templates``) are
rendered in a SandboxedEnvironment, searched before the built-in templates, and bounded:
a render stops after ``RENDER_SECONDS`` of processor time, at ``MAX_OUTPUT`` characters
of output, at ``MAX_DEPTH`` nested template calls (macros calling themselves), and a ``*`` or ``**``
that would build a value over ``MAX_VALUE`` is refused (``TemplateLimit``, reported as a
RenderError naming the template and line). A value that opens a right-to-left override
is closed where it ends (``close_bidi``).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any, cast

import jinja2
from jinja2 import pass_context
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from docgen.render import language
from docgen.render.compiled import COMPILED
from docgen.render.filters import FILTERS

_PACKAGE = Path(__file__).resolve().parent.parent


def templates_dir() -> Path:
    """Templates ship inside the wheel (docgen/templates); in a checkout they sit at the top."""
    for candidate in (_PACKAGE / "templates", _PACKAGE.parent / "templates"):
        if (candidate / "base").is_dir():
            return candidate
    raise FileNotFoundError("docgen templates are missing from this installation")


def fixtures_dir() -> Path:
    for candidate in (_PACKAGE / "fixtures", _PACKAGE.parent / "fixtures"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("docgen fixtures are missing from this installation")


def assets_dir() -> Path:
    return templates_dir() / "base"


# Unicode bidi controls that open a scope (embeddings and overrides, isolates), each with
# the control that closes it.
_BIDI_OPENERS = {
    "\u202a": "\u202c",
    "\u202b": "\u202c",
    "\u202d": "\u202c",
    "\u202e": "\u202c",
    "\u2066": "\u2069",
    "\u2067": "\u2069",
    "\u2068": "\u2069",
}

_BIDI_OPENER = re.compile("[\u202a\u202b\u202d\u202e\u2066-\u2068]")


def close_bidi(value: object) -> object:
    """Every printed value: a bidi scope the value opens is closed where the value ends.

    Case data prints literally, right-to-left marks included, but it may not turn the
    template's own words around: an unclosed U+202E in a name would otherwise reverse
    "for the offense described below" after it (UAX #9 scopes run to the paragraph end).
    """
    if not isinstance(value, str) or not _BIDI_OPENER.search(value):
        return value
    open_scopes: list[str] = []
    for ch in value:
        if ch in _BIDI_OPENERS:
            open_scopes.append(_BIDI_OPENERS[ch])
        elif ch == "\u202c" and open_scopes and open_scopes[-1] == "\u202c":
            open_scopes.pop()
        elif ch == "\u2069" and "\u2069" in open_scopes:
            while open_scopes.pop() != "\u2069":  # a PDI closes the embeddings inside too
                pass
    closers = "".join(reversed(open_scopes))
    # Markup (a filter's or macro's output) stays Markup: the closers are not markup
    return Markup(value + closers) if isinstance(value, Markup) else value + closers


def _configure(env: jinja2.Environment) -> jinja2.Environment:
    env.filters.update(FILTERS)
    env.globals["nbsp"] = "\u00a0"
    # Each sentence a message of the language being rendered (docgen.render.language):
    # {% trans %} blocks with their whitespace trimmed, so a message is one line of the
    # catalog however the template wraps it.
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    # The i18n extension adds this method to the environment when it is added (above)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        language.gettext, language.ngettext, newstyle=True
    )
    # A message's values are printed values too: each closes the bidi scope it opens
    # (close_bidi, as finalize does for {{ }}), which Jinja's own newstyle gettext skips.
    env.globals["gettext"], env.globals["ngettext"] = _gettext, _ngettext
    env.globals["law_words"] = language.law_words
    env.globals["language"] = language.current
    env.globals["english"] = language.english
    return env


@pass_context
def _gettext(context: Context, message: str, /, **values: Any) -> str:
    said = language.gettext(message)
    if not values:
        # A message with no values carries no markup (tests/test_catalogs.py), and a value
        # looked up (a role, a document's title) is text: escaped, "%" and all, as typed.
        return escape(said) if context.eval_ctx.autoescape else said
    if context.eval_ctx.autoescape:
        said = Markup(said)
    return said % {name: close_bidi(value) for name, value in values.items()}


@pass_context
def _ngettext(context: Context, singular: str, plural: str, num: int, /, **values: Any) -> str:
    values.setdefault("num", num)
    said = language.ngettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        said = Markup(said)
    return said % {name: close_bidi(value) for name, value in values.items()}


RENDER_SECONDS = 5.0  # of processor time; the built-in documents take well under one
MAX_OUTPUT = 10_000_000  # characters of HTML; a long agreement is about 200,000
MAX_VALUE = 1_000_000  # characters (or items) one * may build; digits one ** may build
MAX_DEPTH = 100  # nested template frames: macros calling macros


class TemplateLimit(SecurityError):
    """A custom template ran too long, built too much or recursed too deeply."""


def _sized(value: Any) -> int | None:
    return len(value) if isinstance(value, str | bytes | list | tuple) else None


class BoundedSandbox(SandboxedEnvironment):
    """The sandbox for custom templates, with a clock and size limits (module docstring)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                size = _sized(seq)
                if size is not None and isinstance(times, int) and size * times > MAX_VALUE:
                    raise TemplateLimit(
                        f"a value of {size * times:,} characters is over the limit of "
                        f"{MAX_VALUE:,} for a custom template"
                    )
        if operator == "**" and isinstance(left, int | float) and isinstance(right, int | float):
            digits = abs(right) * len(str(int(abs(left)) or 1))
            if digits > MAX_VALUE:
                raise TemplateLimit(f"{left} ** {right} is too large a number to build")
        return super().call_binop(context, operator, left, right)


class BoundedTemplate(jinja2.Template):
    """A template whose render stops at the sandbox's limits (time, output, depth)."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        # a generator, so the limit is raised inside it (Template.generate says Iterator)
        return self.bounded(cast(Generator[str, None, None], self.generate(*args, **kwargs)))

    def bounded(self, output: Generator[str, None, None]) -> str:
        """The text ``output`` yields, stopped at the limits inside the template."""
        chunks: list[str] = []
        size = 0
        with _clock(self.name or "template"):
            for chunk in output:
                size += len(chunk)
                chunks.append(chunk)
                if size > MAX_OUTPUT:  # raised inside the template, at the line writing
                    output.throw(TemplateLimit(f"the output passed {MAX_OUTPUT:,} characters"))
        return "".join(chunks)


BoundedSandbox.template_class = BoundedTemplate


def render_exporting(
    template: jinja2.Template, values: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """``template`` rendered over ``values`` as its render() does (a custom template within
    the sandbox's limits, a fault's trace through the template's lines), and the variables
    its top level sets (a layout's ``document_body``), read from the context the render
    filled, as Jinja's own Template.module reads them."""
    context = template.new_context(values)

    def output() -> Generator[str, None, None]:
        try:
            yield from template.root_render_func(context)
        except Exception:
            yield template.environment.handle_exception()  # raises, as in Template.generate

    if isinstance(template, BoundedTemplate):
        text = template.bounded(output())
    else:
        text = "".join(output())
    return text, context.get_exported()


def _is_template(frame: FrameType) -> bool:
    return frame.f_code.co_filename.endswith((".j2", ".html")) or "<template>" in (
        frame.f_code.co_filename
    )


@contextmanager
def _clock(name: str) -> Iterator[None]:
    """Stop a render that passes RENDER_SECONDS of this thread's processor time, or
    MAX_DEPTH, at the template line it is on. Processor time, not the clock's: a render
    that loops spends it, a render waiting for a core on a busy machine does not (by the
    clock, the built-in documents passed the limit with the machine's load at 15).

    A trace function sees every line of the compiled template (a loop with an empty body
    included) and nothing of the engine around it; an exception it raises is raised at
    that line, so the report names the template's file and line.
    """
    deadline = time.thread_time() + RENDER_SECONDS
    depth = 0

    def on_line(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal depth
        if event == "return":
            depth -= 1
        elif event == "line" and time.thread_time() > deadline:
            raise TemplateLimit(f"rendering {name} ran longer than {RENDER_SECONDS:g} seconds")
        return on_line

    def on_call(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal depth
        if event != "call" or not _is_template(frame):
            return None
        depth += 1
        if depth > MAX_DEPTH:
            depth -= 1
            raise TemplateLimit(f"template calls nested over {MAX_DEPTH} deep (a macro recursing?)")
        return on_line

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        yield
    finally:
        sys.settrace(previous)


def environment(custom: str | None = None) -> jinja2.Environment:
    """The environment for the built-in templates, or a sandbox over ``custom`` first."""
    return _environment(custom)


@cache  # by the folder, however it is asked for: environment() and environment(None) alike
def _environment(custom: str | None) -> jinja2.Environment:
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(templates_dir()))]
    options: dict[str, Any] = {
        "undefined": jinja2.StrictUndefined,
        "autoescape": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": False,
        "finalize": close_bidi,
    }
    if custom is None:
        return _configure(jinja2.Environment(loader=loaders[0], bytecode_cache=COMPILED, **options))
    folder = Path(custom)
    if not folder.is_dir():
        raise FileNotFoundError(f"--templates {custom}: not a directory")
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(folder)), *loaders])
    return _configure(BoundedSandbox(loader=loader, bytecode_cache=COMPILED, **options))
