"""Document kinds, one module each; KINDS maps a kind's CLI name to its definition.

A kind's module (its case model, checks, template) is imported the first time the kind
is looked up, so `docgen check KIND` loads that kind alone, not every kind docgen has. A
bundle (the violation packet) serves several kinds in one file; DOCUMENTS holds the kinds
and the bundles, and :func:`get_kind` answers for either. docgen.documents.kind describes a
kind and a bundle, docgen.documents.pipeline renders either, docgen.documents.registry
finds them by name.
"""

from __future__ import annotations

from docgen.documents.registry import (
    DOCUMENTS,
    KINDS,
    a_title,
    get_kind,
    kind_named,
    kinds_with,
    the_kind,
    titles_or,
)
from docgen.kinds import BUNDLES, MODULES

__all__ = [
    "BUNDLES",
    "DOCUMENTS",
    "KINDS",
    "MODULES",
    "a_title",
    "get_kind",
    "kind_named",
    "kinds_with",
    "the_kind",
    "titles_or",
]
