"""Stage 2: a rendered case (one document, or a bundle's parts) as the bytes of a format.

Every writer goes through :func:`to_bytes`: ``render``, ``batch``, ``demo`` and the
register. The engines (WeasyPrint, python-docx) are imported on first use only.
"""

from __future__ import annotations

from dataclasses import dataclass

from docgen.errors import DocgenError
from docgen.render.html import HtmlDocument
from docgen.render.variants import check_variant

FORMATS = ("pdf", "docx", "html")


@dataclass(frozen=True)
class Rendition:
    """A validated case as HTML: ``document`` holds every part in one page (the HTML and
    DOCX files); ``parts`` are laid out one by one for the PDF, so each keeps its own
    page numbers. A kind's rendition has one part, the document itself."""

    document: HtmlDocument
    parts: tuple[HtmlDocument, ...]
    # `--review` on a recorded instrument: the review file written beside the document
    # (never pages of it).
    review: HtmlDocument | None = None

    @classmethod
    def single(cls, document: HtmlDocument) -> Rendition:
        return cls(document, (document,))


def to_bytes(
    rendition: Rendition | HtmlDocument, fmt: str, pdf_variant: str | None = None
) -> bytes:
    """One format of a rendition (or of a single HTML document)."""
    if isinstance(rendition, HtmlDocument):
        rendition = Rendition.single(rendition)
    doc = rendition.document
    if fmt == "html":
        return doc.standalone().encode("utf-8")
    if fmt == "pdf":
        # render.pdf loads pikepdf, pydantic, num2words (+200 ms): loaded on first use
        from docgen.render.pdf import layout, write_pdf

        variant = check_variant(pdf_variant)
        laid_out = [layout(part) for part in rendition.parts]
        if len(laid_out) == 1:
            return write_pdf(laid_out[0], variant)
        pages = [page for document in laid_out for page in document.pages]
        return write_pdf(laid_out[0].copy(pages), variant)
    if fmt == "docx":
        # render.docx loads docx, pydantic, num2words (+200 ms): loaded on first use
        from docgen.render.docx import render_docx

        return render_docx(doc)
    raise DocgenError(f"unknown format {fmt!r}; choose pdf, docx, html or all")
