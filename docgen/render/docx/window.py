"""Page 1 of a served document in Word, for a #10 window envelope (LAW.md § 9).

The HTML's ``div.window-page`` (templates/base/window.html.j2) becomes a borderless table
at the top of the body, whose rows have fixed heights, so Word and LibreOffice place the
address where the PDF does whatever the fonts: the first row, exactly 1 in tall, holds the
letterhead (the page's top margin is 1 in, so the second row starts 2 in down); the second
row's first cell, 4 in wide with no inner margin at the left, holds the name and address
at the 1 in margin; its second cell holds the document's number and dates.
"""

from __future__ import annotations

from typing import Any

from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches

from docgen.render.docx.styles import TEXT_WIDTH_INCHES

# Inches, as in templates/base/print.css (.window-top, .window, .window-band).
TOP_ROW, WINDOW_ROW, WINDOW_WIDTH, GAP = 1.0, 1.25, 4.0, 0.25


def _twips(inches: float) -> str:
    return str(round(inches * 1440))


# The order of w:tblPr's children in the WordprocessingML schema (Word refuses others).
TBL_PR_ORDER = [
    qn(f"w:{t}")
    for t in [
        "tblStyle",
        "tblpPr",
        "tblOverlap",
        "bidiVisual",
        "tblStyleRowBandSize",
        "tblStyleColBandSize",
        "tblW",
        "jc",
        "tblCellSpacing",
        "tblInd",
        "tblBorders",
        "shd",
        "tblLayout",
        "tblCellMar",
        "tblLook",
    ]
]


def _set(parent: Any, tag: str, **attrs: str) -> Any:
    """The child ``tag`` of ``parent`` (made if missing, in schema order for w:tblPr)
    with ``attrs`` set."""
    child = parent.find(qn(tag))
    if child is None:
        child = OxmlElement(tag)
        later = TBL_PR_ORDER[TBL_PR_ORDER.index(qn(tag)) + 1 :] if qn(tag) in TBL_PR_ORDER else []
        follower = next((c for c in parent if c.tag in later), None)
        if follower is not None and parent.tag == qn("w:tblPr"):
            follower.addprevious(child)
        else:
            parent.append(child)
    for name, value in attrs.items():
        child.set(qn(f"w:{name}"), value)
    return child


def _row_height(row: Any, inches: float, rule: str) -> None:
    tr_pr = row._tr.get_or_add_trPr()
    _set(tr_pr, "w:trHeight", val=_twips(inches), hRule=rule)
    _set(tr_pr, "w:cantSplit")


def _borderless(table: Any) -> None:
    tbl_pr = table._tbl.tblPr
    borders = _set(tbl_pr, "w:tblBorders")
    for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
        _set(borders, f"w:{side}", val="nil")
    margins = _set(tbl_pr, "w:tblCellMar")
    for side in ("top", "left", "bottom", "right"):
        _set(margins, f"w:{side}", w="0", type="dxa")
    _set(tbl_pr, "w:tblInd", w="0", type="dxa")
    _set(tbl_pr, "w:tblLayout", type="fixed")


def window_table(doc: Any) -> tuple[Any, Any, Any]:
    """The page-1 table: (letterhead cell, address cell, side cell), each still empty."""
    side = TEXT_WIDTH_INCHES - WINDOW_WIDTH - GAP
    table = doc.add_table(rows=2, cols=2)
    _borderless(table)
    table.autofit = False
    widths = (Inches(WINDOW_WIDTH + GAP), Inches(side))
    for grid_col, width in zip(table._tbl.tblGrid.gridCol_lst, widths, strict=True):
        grid_col.w = width
    for row in table.rows:
        for cell, width in zip(row.cells, widths, strict=True):
            cell.width = width
    _row_height(table.rows[0], TOP_ROW, "exact")
    _row_height(table.rows[1], WINDOW_ROW, "atLeast")
    top = table.cell(0, 0).merge(table.cell(0, 1))
    address, beside = table.cell(1, 0), table.cell(1, 1)
    # The gap between the window and the side column: the address cell's right margin.
    _set(_set(address._tc.get_or_add_tcPr(), "w:tcMar"), "w:right", w=_twips(GAP), type="dxa")
    return top, address, beside


def drop_first_empty(cell: Any) -> None:
    """A new cell's own empty paragraph, once the writer has added the cell's text."""
    paragraphs = cell._tc.findall(qn("w:p"))
    if len(paragraphs) > 1 and not paragraphs[0].xpath("string(.)"):
        cell._tc.remove(paragraphs[0])
