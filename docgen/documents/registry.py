"""The kinds and bundles by name, each kind's module imported the first time it is looked
up (docgen.kinds names the modules), and the kinds found by their description rather than
their name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import Any

from docgen.documents.kind import Bundle, Kind
from docgen.errors import DocgenError
from docgen.kinds import BUNDLES, MODULES

# The kinds by name, each loaded on first use (docgen.kinds names their modules).


class _Lazy(Mapping[str, Any]):
    """Read-only mapping that imports a kind's module on first access."""

    def __init__(self, modules: dict[str, str]):
        self._modules = modules

    def __getitem__(self, name: str) -> Any:
        if name not in self._modules:
            raise KeyError(name)
        return import_module(self._modules[name]).KIND

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


KINDS: Mapping[str, Kind] = _Lazy(MODULES)
DOCUMENTS: Mapping[str, Kind | Bundle] = _Lazy({**MODULES, **BUNDLES})


def kinds_with(**description: object) -> tuple[str, ...]:
    """The kinds whose description has these values (``served=True``,
    ``permission="enforce"``...), in MODULES order: what the register's filters and the
    desk's roles ask instead of listing kinds by name."""
    return tuple(
        name
        for name, kind in KINDS.items()
        if all(getattr(kind, key) == value for key, value in description.items())
    )


def the_kind(**description: object) -> str:
    """The one kind whose description has these values (``annexes_receipt=True``): what
    a module outside docgen/documents/ issues or looks up instead of naming the kind; a
    DocgenError when no kind, or more than one, has it."""
    found = kinds_with(**description)
    if len(found) != 1:
        wanted = ", ".join(f"{key}={value!r}" for key, value in description.items())
        raise DocgenError(
            f"{len(found)} document kinds are described with {wanted} "
            f"({', '.join(found) or 'none'}); exactly one must be"
        )
    return found[0]


def get_kind(name: str) -> Kind | Bundle:
    """The kind or bundle called ``name``; an unknown name is a DocgenError listing them."""
    try:
        return DOCUMENTS[name]
    except KeyError:
        raise DocgenError(
            f"unknown document kind {name!r}; kinds: {', '.join(DOCUMENTS)}"
        ) from None


def a_title(name: str) -> str:
    """The kind or bundle ``name`` as a message names it: "a notice of violation"."""
    return get_kind(name).a_title


def titles_or(names: tuple[str, ...] | list[str]) -> str:
    """Kinds as a message offers them: "a notice of violation or a stop-work order"."""
    said = [a_title(name) for name in names]
    return " or ".join(filter(None, (", ".join(said[:-1]), *said[-1:])))


def kind_named(name: str) -> Kind:
    """The kind called ``name``: one document, as the register issues and keeps them (a
    bundle is rendered, each of its parts issued on its own); a bundle's name or an
    unknown one is a DocgenError naming the kinds."""
    try:
        return KINDS[name]
    except KeyError:
        if name in BUNDLES:
            parts = ", ".join(DOCUMENTS[name].parts)
            raise DocgenError(
                f"{name} serves several documents in one file ({parts}): it is rendered "
                f"(`docgen render {name}`), not issued; issue each of them on its own"
            ) from None
        raise DocgenError(f"unknown document kind {name!r}; kinds: {', '.join(KINDS)}") from None


def members(spec: Kind | Bundle) -> tuple[Kind, ...]:
    """The kinds a document of ``spec`` is made of: the kind itself, or a bundle's parts."""
    return tuple(KINDS[part] for part in spec.parts)
