"""Stage 2b: the same HTML written into a docxtpl frame as a Word document.

The frame (templates/base/frame.docx, built by scripts/build_frame.py) holds the Word
styles, Letter page with 1-inch margins, the header with ``{{ running_head }}`` and the
footer "Page X of Y". docxtpl renders the frame with autoescape on, always (without it a
``&`` or ``<`` in case data silently truncates the document). The body is then written
from the rendered HTML, element by element, onto the frame's named styles:

    h1 Title · h2 Heading 1 · h3 Heading 2 · h4 Heading 3 · p Normal (or its class's
    style) · ol/ul Word numbering (restarting per list, nested levels) · table with
    repeated header rows · strong/em/u/mark · br · .page-break · section.document
    (a new Word section with its own page numbering and running head)

Classes map to styles through ``styles.STYLE_FOR_CLASS`` (the frame's contract, which
scripts/build_frame.py builds from); an element with ``data-docx-style`` names its style
directly. Archives carry fixed timestamps, so equal input gives equal bytes.
"""

from __future__ import annotations

import io
from datetime import datetime
from functools import cache

from docx.oxml.ns import qn
from docxtpl import DocxTemplate
from lxml import html as lxml_html

from docgen.render.docx.archive import core_property, fixed_zip
from docgen.render.docx.writer import Writer
from docgen.render.environment import assets_dir
from docgen.render.html import HtmlDocument


@cache
def _frame_bytes() -> bytes:
    return (assets_dir() / "frame.docx").read_bytes()


def render_docx(doc: HtmlDocument) -> bytes:
    """The Word document for ``doc``: the frame rendered (escaped), the body from the HTML."""
    template = DocxTemplate(io.BytesIO(_frame_bytes()))
    template.render({"running_head": doc.running_head, "title": doc.title}, autoescape=True)
    word = template.docx
    body = word.element.body
    for child in list(body):
        if child.tag != qn("w:sectPr"):
            body.remove(child)

    tree = lxml_html.document_fromstring(doc.html)
    writer = Writer(word, doc.attachments)
    main = tree.find(".//main")
    writer.block(main if main is not None else tree.find("body"))
    if tree.find(".//*[@class='clerk-space']") is not None:
        # A recorded instrument: the top of page 1 is the County Clerk's, so no running
        # head there (the frame's empty first-page header; its footer still numbers).
        word.sections[0].different_first_page_header_footer = True
    if tree.find(".//*[@class='placard-page']") is not None:
        # A placard posted at the site: the page is the order, with no running head and
        # no page number (the section keeps no header or footer of its own).
        section = word.sections[0]
        for part in (section.header, section.footer):
            part.is_linked_to_previous = True

    # The document's own date, or (none in the case) the zip format's epoch: never the clock.
    day = doc.date
    when = datetime(day.year, day.month, day.day) if day else datetime(1980, 1, 1)
    props = word.core_properties
    props.title = core_property(doc.title)
    props.subject = doc.kind
    props.author = "docgen"
    props.last_modified_by = "docgen"
    if day:
        props.created = props.modified = props.last_printed = when
    props.revision = 1
    props.language = doc.lang
    props.keywords = core_property(doc.number)
    buf = io.BytesIO()
    word.save(buf)
    return fixed_zip(buf.getvalue(), when, section_pages=writer.sectioned)
