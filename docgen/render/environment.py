"""The Jinja environment: strict, autoescaped, built once per process in one function.

Case data is text: autoescape turns ``<`` into ``&lt;``, and values are never parsed
as template code (``{{ 7*7 }}`` in a name prints as typed). A missing value is an
error (StrictUndefined), never a blank. Custom template folders (``--templates``) are
rendered in a SandboxedEnvironment, searched before the built-in templates. A value
that opens a right-to-left override is closed where it ends (``close_bidi``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

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
    return env


@cache
def environment(custom: str | None = None) -> jinja2.Environment:
    """The environment for the built-in templates, or a sandbox over ``custom`` first."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(templates_dir()))]
    options = {
        "undefined": jinja2.StrictUndefined,
        "autoescape": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": False,
        "finalize": close_bidi,
    }
    if custom is None:
        return _configure(jinja2.Environment(loader=loaders[0], **options))
    folder = Path(custom)
    if not folder.is_dir():
        raise FileNotFoundError(f"--templates {custom}: not a directory")
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(folder)), *loaders])
    return _configure(SandboxedEnvironment(loader=loader, **options))
