"""Stage 2a, after WeasyPrint: what its tagged PDF leaves out of a table's structure.

WeasyPrint tags a header cell /TH but writes no /Scope (its issue #2508), so nothing in the
PDF says whether "Observed" heads a column or "Project" a row: a screen reader cannot read
a cell with its header, and PDF/UA-1 (ISO 14289-1 § 7.5) requires the association. It also
gives header cells identifiers (/ID) without the structure tree's /IDTree that PDF 1.7
(ISO 32000-1 § 14.7.2, Table 322) requires to look them up, and gives each data cell of a
table with row headers an empty /Headers, which says "no headers" where the scope would
say which.

This step adds them, from the table's own shape, as HTML reads a ``<th>`` without a
``scope`` (the "auto" state): a header cell in the table's header rows (/THead), or in a row
of header cells only, heads its column; a header cell in a row that holds data cells heads
its row. It runs on every PDF before it is signed; a PDF without header cells is returned
unchanged. pikepdf (QPDF) edits the objects and writes the file again: it keeps every
object WeasyPrint wrote, and its deterministic /ID keeps "same case in, same bytes out".
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pikepdf

TH = pikepdf.Name("/TH")
TR = pikepdf.Name("/TR")
THEAD = pikepdf.Name("/THead")
TABLE_OWNER = pikepdf.Name("/Table")
COLUMN = pikepdf.Name("/Column")
ROW = pikepdf.Name("/Row")


def add_table_scopes(pdf: bytes) -> bytes:
    """``pdf`` with a /Scope on every header cell, the /IDTree of its element identifiers
    and no empty /Headers; the same bytes when it has no header cell."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        tree = doc.Root.get("/StructTreeRoot")
        if tree is None:
            return pdf
        elements = list(_elements(tree))
        headers = [e for e in elements if e.get("/S") == TH]
        if not headers:
            return pdf
        for cell in headers:
            _attributes(cell)[pikepdf.Name("/Scope")] = scope_of(cell)
        for element in elements:
            attributes = element.get("/A")
            if isinstance(attributes, pikepdf.Dictionary) and _empty(attributes.get("/Headers")):
                del attributes[pikepdf.Name("/Headers")]
        identified = {str(e.ID): e for e in elements if "/ID" in e}
        if identified and "/IDTree" not in tree:
            names = pikepdf.NameTree.new(doc)
            for identifier in sorted(identified):
                names[identifier] = identified[identifier]
            tree[pikepdf.Name("/IDTree")] = names.obj
        out = io.BytesIO()
        doc.save(out, deterministic_id=True)
        return out.getvalue()


def scope_of(cell: pikepdf.Dictionary) -> pikepdf.Name:
    """/Column for a header cell of a header row (in /THead, or a row of header cells
    only); /Row for a header cell beside data cells."""
    row = cell.get("/P")
    if row is None or row.get("/S") != TR:
        return COLUMN
    group = row.get("/P")
    if group is not None and group.get("/S") == THEAD:
        return COLUMN
    cells = [k for k in _kids(row) if isinstance(k, pikepdf.Dictionary) and "/S" in k]
    return COLUMN if all(k.S == TH for k in cells) else ROW


def _elements(node: Any) -> Iterator[pikepdf.Dictionary]:
    """Every structure element under ``node``, parents before children."""
    for kid in _kids(node):
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield kid
            yield from _elements(kid)


def _kids(node: Any) -> list[Any]:
    kids = node.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _attributes(cell: pikepdf.Dictionary) -> pikepdf.Dictionary:
    """The cell's attribute dictionary owned by /Table (made when it has none)."""
    found = cell.get("/A")
    candidates = list(found) if isinstance(found, pikepdf.Array) else [found]
    for attributes in candidates:
        if isinstance(attributes, pikepdf.Dictionary) and attributes.get("/O") == TABLE_OWNER:
            return attributes
    table = pikepdf.Dictionary(O=TABLE_OWNER)
    if found is None:
        cell[pikepdf.Name("/A")] = table
    elif isinstance(found, pikepdf.Array):
        found.append(table)
    else:
        cell[pikepdf.Name("/A")] = pikepdf.Array([found, table])
    return table


def _empty(value: Any) -> bool:
    return isinstance(value, pikepdf.Array) and len(value) == 0
