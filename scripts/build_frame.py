"""Build templates/base/frame.docx, the Word frame every DOCX is written into.

Run it after changing the styles: ``python scripts/build_frame.py``. The frame holds the
named styles the HTML maps onto (the contract in docgen/render/docx/styles.py), Letter
paper with 1-inch margins, numbering definitions for ordered and bulleted lists, a header holding
``{{ running_head }}`` (rendered by docxtpl), a footer "Page X of Y" made of Word
fields (PAGE, NUMPAGES; LibreOffice does not update SECTIONPAGES, so the DOCX writer
switches to it only in packets, where each document counts its own pages), and an empty
first-page header that the writer turns on for recorded instruments.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement, parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Inches, Pt

from docgen.render.docx.styles import (
    ABSTRACT_BULLET,
    ABSTRACT_DECIMAL,
    FONT,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    PLACARD_TAGLINE,
    STYLE_NAMES,
)

OUT = Path(__file__).resolve().parent.parent / "templates" / "base" / "frame.docx"


def style(
    doc,
    name,
    base="Normal",
    size=None,
    bold=None,
    italic=None,
    align=None,
    before=None,
    after=None,
    keep=None,
    indent=None,
    caps=None,
):
    styles = doc.styles
    try:
        st = styles[name]
    except KeyError:
        st = styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
        st.base_style = styles[base]
        st.quick_style = True
    f = st.font
    if size:
        f.size = Pt(size)
        complex_size(st, size)
    if bold is not None:
        f.bold = bold
    if italic is not None:
        f.italic = italic
    if caps is not None:
        f.small_caps = caps
    f.name = FONT
    plain(st)
    pf = st.paragraph_format
    if align is not None:
        pf.alignment = align
    if before is not None:
        pf.space_before = Pt(before)
    if after is not None:
        pf.space_after = Pt(after)
    if keep is not None:
        pf.keep_with_next = keep
    if indent is not None:
        pf.left_indent = Inches(indent)
    return st


def complex_size(st, size):
    """The style's size for complex-script text too (w:szCs: Arabic, Hebrew, Bengali...):
    python-docx sets w:sz alone, and Word and LibreOffice then print those scripts at the
    document default (11 pt), on lines of the style's height (the taglines' Arabic, Urdu,
    Yiddish and Bengali lines overlapped their neighbours at 11 pt on 7.5 pt lines)."""
    rpr = st.element.get_or_add_rPr()
    for el in rpr.findall(qn("w:szCs")):
        rpr.remove(el)
    sz = rpr.find(qn("w:sz"))
    cs = OxmlElement("w:szCs")
    cs.set(qn("w:val"), str(round(size * 2)))
    sz.addnext(cs)


def plain(st):
    """Drop the default template's theme fonts (they override Times New Roman in Word and
    LibreOffice), letter spacing, kerning, the Title's rule and the Subtitle's numbering."""
    rpr = st.element.get_or_add_rPr()
    fonts = rpr.find(qn("w:rFonts"))
    if fonts is not None:
        for attr in ("w:asciiTheme", "w:hAnsiTheme", "w:eastAsiaTheme", "w:cstheme"):
            fonts.attrib.pop(qn(attr), None)
        for attr in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
            fonts.set(qn(attr), FONT)
    for tag in ("w:spacing", "w:kern", "w:color"):
        for el in rpr.findall(qn(tag)):
            rpr.remove(el)
    ppr = st.element.pPr
    if ppr is not None:
        for tag in ("w:pBdr", "w:numPr"):
            for el in ppr.findall(qn(tag)):
                ppr.remove(el)


def field(paragraph, code):
    run = paragraph.add_run()
    for kind, text in (
        ("begin", None),
        (None, code),
        ("separate", None),
        (None, "1"),
        ("end", None),
    ):
        if kind:
            el = OxmlElement("w:fldChar")
            el.set(qn("w:fldCharType"), kind)
            run._r.append(el)
        elif text == code:
            instr = OxmlElement("w:instrText")
            instr.set(qn("xml:space"), "preserve")
            instr.text = f" {code} "
            run._r.append(instr)
        else:
            t = OxmlElement("w:t")
            t.text = text
            run._r.append(t)


def page_x_of_y(doc, paragraph):
    paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER
    paragraph.style = doc.styles["Footer"]
    paragraph.add_run("Page ")
    field(paragraph, "PAGE")
    paragraph.add_run(" of ")
    field(paragraph, "NUMPAGES")


def numbering(doc):
    """Abstract numbering ABSTRACT_DECIMAL (1. (a) (i)) and ABSTRACT_BULLET, used by every list."""
    part = doc.part.numbering_part.element
    decimal = f"""<w:abstractNum {nsdecls("w")} w:abstractNumId="{ABSTRACT_DECIMAL}">
      <w:multiLevelType w:val="multilevel"/>
      <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/>
        <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>
      <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%2)"/>
        <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl>
      <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="(%3)"/>
        <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="2160" w:hanging="360"/></w:pPr></w:lvl>
    </w:abstractNum>"""
    bullet = f"""<w:abstractNum {nsdecls("w")} w:abstractNumId="{ABSTRACT_BULLET}">
      <w:multiLevelType w:val="multilevel"/>
      <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/>
        <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>
      <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2013"/>
        <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl>
      <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="\u2022"/>
        <w:lvlJc w:val="left"/><w:pPr><w:ind w:left="2160" w:hanging="360"/></w:pPr></w:lvl>
    </w:abstractNum>"""
    # abstractNum elements must precede num elements.
    first_num = part.find(qn("w:num"))
    for xml in (decimal, bullet):
        el = parse_xml(xml)
        if first_num is not None:
            first_num.addprevious(el)
        else:
            part.append(el)


# Word 2010's copy of the styles (python-docx's default template has one). Word reads it
# instead of styles.xml when both are there; a copy that disagrees with styles.xml (our
# styles are not in it, its docDefaults differ) is a file Word repairs on opening.
STYLES_WITH_EFFECTS = "http://schemas.microsoft.com/office/2007/relationships/stylesWithEffects"


def without_styles_with_effects(doc) -> None:
    """Drop the document's stylesWithEffects part: styles.xml alone holds the styles."""
    for rid, rel in list(doc.part.rels.items()):
        if rel.reltype == STYLES_WITH_EFFECTS:
            doc.part.drop_rel(rid)


def build(out: Path = OUT) -> Path:
    doc = Document()
    without_styles_with_effects(doc)
    normal = doc.styles["Normal"]
    normal.font.name = FONT
    normal.font.size = Pt(12)
    rpr = normal.element.get_or_add_rPr()
    fonts = rpr.find(qn("w:rFonts"))
    for attr in ("w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"):
        fonts.set(qn(attr), FONT)
    normal.paragraph_format.space_after = Pt(6)
    normal.paragraph_format.line_spacing = 1.08

    style(doc, "Title", size=15, bold=True, align=WD_ALIGN_PARAGRAPH.CENTER, before=6, after=12)
    style(doc, "Subtitle", size=12, italic=True, align=WD_ALIGN_PARAGRAPH.CENTER, after=12)
    style(doc, "Heading 1", size=12, bold=True, before=12, after=6, keep=True)
    style(doc, "Heading 2", size=12, bold=True, italic=True, before=9, after=4, keep=True)
    style(doc, "Heading 3", size=12, italic=True, before=6, after=3, keep=True)
    style(
        doc,
        "Letterhead Name",
        size=14,
        bold=True,
        align=WD_ALIGN_PARAGRAPH.CENTER,
        after=0,
        caps=True,
    )
    style(doc, "Letterhead", size=10, align=WD_ALIGN_PARAGRAPH.CENTER, after=0)
    style(doc, "Centered", align=WD_ALIGN_PARAGRAPH.CENTER)
    style(doc, "Address", after=0)
    style(doc, "Quote", italic=False, indent=0.5, before=6, after=6)
    doc.styles["Quote"].paragraph_format.right_indent = Inches(0.5)
    style(doc, "Signature", before=18, after=0, keep=True)
    style(doc, "Small", size=9, after=3)
    # The language-access block's lines (LAW.md § 13): 8 pt, as in the PDF (print.css),
    # large enough to read, the block kept whole. Exact spacing: the Bengali and Arabic
    # fonts' own line heights would double it.
    style(doc, "Tagline", size=8, after=0, keep=True)
    doc.styles["Tagline"].paragraph_format.line_spacing = Pt(10)
    style(doc, "Table Text", size=11, after=0)
    style(doc, "After Table", size=4, after=0)
    style(doc, "List Number", after=4)
    style(doc, "List Bullet", after=4)
    style(doc, "List Continue", after=4)
    style(doc, "Rule", size=4, after=6)
    style(doc, "Placard Heading", size=40, bold=True, align=WD_ALIGN_PARAGRAPH.CENTER, after=12)
    style(doc, "Placard", size=18, align=WD_ALIGN_PARAGRAPH.CENTER, after=8)
    # The block posted with the placard: every line at the placard's 14 pt (LAW.md § 3).
    style(doc, PLACARD_TAGLINE, base="Tagline", size=14, after=0, keep=True)
    doc.styles[PLACARD_TAGLINE].paragraph_format.line_spacing = Pt(17)
    style(doc, "Clerk Space", size=12, before=0, after=0)
    doc.styles["Clerk Space"].paragraph_format.space_before = Inches(2.5)
    for name in ("List Number", "List Bullet"):
        doc.styles[name].element.pPr.remove_all("w:numPr") if doc.styles[
            name
        ].element.pPr is not None else None
    missing = STYLE_NAMES - {st.name for st in doc.styles}
    if missing:
        raise SystemExit(f"the frame lacks styles the DOCX writer uses: {sorted(missing)}")
    numbering(doc)

    section = doc.sections[0]
    section.page_width, section.page_height = Inches(PAGE_WIDTH), Inches(PAGE_HEIGHT)
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, side, Inches(MARGIN))
    section.header_distance = section.footer_distance = Inches(0.5)

    head = section.header.paragraphs[0]
    head.text = "{{ running_head }}"
    head.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    head.style = doc.styles["Header"]
    doc.styles["Header"].font.size = Pt(9)
    doc.styles["Footer"].font.size = Pt(9)
    page_x_of_y(doc, section.footer.paragraphs[0])
    # A first-page header (empty) and footer, used only when the writer turns on "different
    # first page": a recorded instrument leaves its first page's top to the County Clerk.
    section.different_first_page_header_footer = True
    section.first_page_header.paragraphs[0].style = doc.styles["Header"]
    page_x_of_y(doc, section.first_page_footer.paragraphs[0])
    section.different_first_page_header_footer = False

    doc.add_paragraph("docgen body")
    props = doc.core_properties
    props.author = props.last_modified_by = "docgen"
    props.title = "docgen frame"
    out.parent.mkdir(parents=True, exist_ok=True)
    doc.save(out)
    return out


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
