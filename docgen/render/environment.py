"""The Jinja environment: strict, autoescaped, built once per process in one function.

Case data is text: autoescape turns ``<`` into ``&lt;``, and values are never parsed
as template code (``{{ 7*7 }}`` in a name prints as typed). A missing value is an
error (StrictUndefined), never a blank. Custom template folders (``--templates``) are
rendered in a SandboxedEnvironment, searched before the built-in templates.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

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
    }
    if custom is None:
        return _configure(jinja2.Environment(loader=loaders[0], **options))
    folder = Path(custom)
    if not folder.is_dir():
        raise FileNotFoundError(f"--templates {custom}: not a directory")
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(folder)), *loaders])
    return _configure(SandboxedEnvironment(loader=loader, **options))
