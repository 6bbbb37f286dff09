"""Each structure element of a tagged PDF says its language when its HTML element does.

WeasyPrint (70) writes the document's language (the catalog's /Lang, from <html lang>) but
not an element's own: a Spanish or Arabic line of the language-access block (LAW.md § 13)
would be read aloud as English. PDF/UA-1 (ISO 14289-1, 7.2) wants a change of language
marked, and ISO 32000-1 § 14.9.2 puts it in the structure element's /Lang entry. This
wraps WeasyPrint's structure builder: the elements built for a box whose HTML element has
a ``lang`` attribute get that language as /Lang (children inherit it through the tree).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_SKIPPED = ("html", "body")  # the document's language is the catalog's /Lang


def install() -> None:
    """Wrap WeasyPrint's structure builder once per process (idempotent)."""
    # weasyprint takes 0.25 s to import, pydyf is its PDF writer: both on a PDF's first render
    import pydyf
    from weasyprint.pdf import tags

    build = tags._build_box_tree
    if getattr(build, "docgen_lang", False):
        return

    def build_with_lang(box: Any, parent: Any, *args: Any) -> Iterator[Any]:
        element = getattr(box, "element", None)
        lang = None
        if element is not None and getattr(box, "element_tag", None) not in _SKIPPED:
            lang = element.get("lang")
        for built in build(box, parent, *args):
            if lang and "Lang" not in built:
                built["Lang"] = pydyf.String(lang)
            yield built

    build_with_lang.docgen_lang = True  # type: ignore[attr-defined]  # a mark: patched once
    tags._build_box_tree = build_with_lang
