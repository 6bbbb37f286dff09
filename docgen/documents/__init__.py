"""Document kinds, one module each; KINDS maps a kind's CLI name to its definition.

A kind's module (its case model, checks, template) is imported the first time the kind
is looked up, so `docgen check KIND` loads one kind, not all six. A bundle (the violation
packet) serves several kinds in one file; DOCUMENTS holds the kinds and the bundles, and
:func:`get_kind` answers for either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from docgen.errors import DocgenError
from docgen.kinds import BUNDLES, MODULES

if TYPE_CHECKING:  # the package names its kinds without loading them
    from docgen.documents.base import Kind, Spec


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
DOCUMENTS: Mapping[str, Spec] = _Lazy({**MODULES, **BUNDLES})


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


def get_kind(name: str) -> Spec:
    """The kind or bundle called ``name``; an unknown name is a DocgenError listing them."""
    try:
        return DOCUMENTS[name]
    except KeyError:
        raise DocgenError(
            f"unknown document kind {name!r}; kinds: {', '.join(DOCUMENTS)}"
        ) from None
