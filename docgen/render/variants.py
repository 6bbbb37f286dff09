"""The PDF variants docgen writes: tagged PDF/UA-1 by default, or a PDF/A for the archive
(the variant a writer asks for is checked before anything is rendered)."""

from __future__ import annotations

from docgen.errors import DocgenError

DEFAULT_VARIANT = "pdf/ua-1"
VARIANTS = ("pdf/ua-1", "pdf/a-2b", "pdf/a-3b", "pdf/a-2u", "pdf/a-3u", "pdf/a-4u")


class UnknownVariant(DocgenError):
    """A PDF variant WeasyPrint does not write (exit 1, before anything is rendered)."""


def check_variant(variant: str | None) -> str:
    """``variant`` (None: the default, PDF/UA-1), or UnknownVariant naming the choices."""
    if variant is None:
        return DEFAULT_VARIANT
    if variant not in VARIANTS:
        raise UnknownVariant(f"unknown PDF variant {variant!r}; choose from {', '.join(VARIANTS)}")
    return variant
