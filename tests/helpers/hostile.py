"""Hostile finals and exhibits, built the way an attacker (or a careless edit) would: with
python-docx on the generated draft, and with zipfile where Word's own tools would not go.
Each builder returns the file's bytes; the tests show each refused or neutralised."""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from PIL import Image

from docgen import api

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "fixtures" / "maintenance-easement" / "homer-llc-two-signers.yaml"
OBSTRUCTION = "No obstruction."  # Clause 4 of the easement
PICTURE_RUNS = 2


def draft() -> bytes:
    return api.to_bytes(api.build("maintenance-easement", CASE), "docx")


def saved(document: docx.document.Document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def edited(change: Callable[[docx.document.Document], None], start: bytes | None = None) -> bytes:
    document = docx.Document(io.BytesIO(start or draft()))
    change(document)
    return saved(document)


def paragraph(document: docx.document.Document, beginning: str):
    return next(p for p in document.paragraphs if p.text.startswith(beginning))


def _revision(tag: str, text: str, number: int):
    node = OxmlElement(f"w:{tag}")
    node.set(qn("w:id"), str(900 + number))
    node.set(qn("w:author"), "Counsel")
    node.set(qn("w:date"), "2026-10-01T10:00:00Z")
    run = OxmlElement("w:r")
    t = OxmlElement("w:delText" if tag == "del" else "w:t")
    t.text = text
    t.set(qn("xml:space"), "preserve")
    run.append(t)
    node.append(run)
    return node


def tracked_changes(insertions: int = 3, deletions: int = 2, moves: int = 0) -> bytes:
    """Counsel's edits left as tracked changes in Clause 4: 'three (3)' inserted first."""

    def change(document):
        p = paragraph(document, OBSTRUCTION)._p
        words = ["three (3)", " years", " written", " shed", " fence"]
        for i in range(insertions):
            p.append(_revision("ins", words[i % len(words)], i))
        for i in range(deletions):
            p.append(_revision("del", f"five ({i + 5})", insertions + i))
        for i in range(moves):
            p.append(_revision("moveFrom", "moved words", 50 + i))

    return edited(change)


def format_change() -> bytes:
    """A run made bold with Track Changes on: a w:rPrChange."""

    def change(document):
        run = paragraph(document, "Binding on later owners.").runs[-1]._r
        r_pr = run.get_or_add_rPr()
        changed = OxmlElement("w:rPrChange")
        changed.set(qn("w:id"), "950")
        changed.set(qn("w:author"), "Counsel")
        changed.append(OxmlElement("w:rPr"))
        r_pr.append(changed)

    return edited(change)


def commented() -> bytes:
    def change(document):
        run = paragraph(document, OBSTRUCTION).runs[0]
        document.add_comment(run, text="Is a shed an obstruction?", author="Counsel")

    return edited(change)


def png(size: tuple[int, int] = (8, 8)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, format="PNG")
    return out.getvalue()


def linked_picture(url: str) -> bytes:
    """A picture Word shows from ``url`` (Insert > Picture > Link to File): its a:blip has an
    r:link to an external image relationship and no r:embed."""

    def change(document):
        run = paragraph(document, OBSTRUCTION).add_run()
        run.add_picture(io.BytesIO(png()))
        blip = run._r.xpath(".//a:blip")[0]
        rel = document.part.relate_to(url, RT.IMAGE, is_external=True)
        del blip.attrib[qn("r:embed")]
        blip.set(qn("r:link"), rel)

    return edited(change)


def field(instruction: str, simple: bool = False, start: bytes | None = None) -> bytes:
    """A field in Clause 4: complex (its instruction split across two runs, as Word often
    writes it) or simple (w:fldSimple)."""

    def change(document):
        p = paragraph(document, OBSTRUCTION)._p
        if simple:
            node = OxmlElement("w:fldSimple")
            node.set(qn("w:instr"), instruction)
            p.append(node)
            return
        half = len(instruction) // 2
        for kind, text in (
            ("begin", None),
            (None, instruction[:half]),
            (None, instruction[half:]),
            ("separate", None),
            ("end", None),
        ):
            run = OxmlElement("w:r")
            if kind:
                char = OxmlElement("w:fldChar")
                char.set(qn("w:fldCharType"), kind)
                run.append(char)
            else:
                instr = OxmlElement("w:instrText")
                instr.set(qn("xml:space"), "preserve")
                instr.text = text
                run.append(instr)
            p.append(run)

    return edited(change, start)


def rezip(
    data: bytes,
    replace: dict[str, bytes | None] | None = None,
    add: dict[str, bytes] | None = None,
    compression: int = zipfile.ZIP_DEFLATED,
) -> bytes:
    """``data`` with parts replaced (None: removed) or added."""
    replace, add = replace or {}, add or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", compression) as dst:
        for item in src.infolist():
            if item.filename in replace:
                if replace[item.filename] is not None:
                    dst.writestr(item.filename, replace[item.filename])
                continue
            dst.writestr(item, src.read(item.filename))
        for name, blob in add.items():
            dst.writestr(name, blob)
    return out.getvalue()


def part(data: bytes, name: str) -> bytes:
    return zipfile.ZipFile(io.BytesIO(data)).read(name)


def with_part(data: bytes, name: str, change: Callable[[str], str]) -> bytes:
    return rezip(data, replace={name: change(part(data, name).decode("utf-8")).encode("utf-8")})


def vba_project() -> bytes:
    """What a VBA project's bytes look like: an OLE compound file whose directory names the
    VBA storage and the _VBA_PROJECT stream (UTF-16 names, as [MS-CFB] writes them)."""
    directory = b"".join(
        name.encode("utf-16-le").ljust(64, b"\0") + b"\0" * 64
        for name in ("Root Entry", "VBA", "_VBA_PROJECT", "dir", "PROJECT")
    )
    return b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + directory


def renamed_vba_project() -> bytes:
    """A macro project stored as a picture: its name and content type say PNG."""
    return rezip(draft(), add={"word/media/image9.png": vba_project()})


def doctype() -> bytes:
    def change(xml: str) -> str:
        declaration, rest = xml.split("?>", 1)
        entity = '<!DOCTYPE w:document [<!ENTITY secret SYSTEM "file:///etc/hostname">]>'
        return f"{declaration}?>{entity}{rest}"

    return with_part(draft(), "word/document.xml", change)


def no_content_types() -> bytes:
    return rezip(draft(), replace={"[Content_Types].xml": None})


def odd_page_size() -> bytes:
    page = 'w:w="12240"'
    return with_part(draft(), "word/document.xml", lambda x: x.replace(page, 'w:w="12240.0"'))


def external_relationship(part_name: str, kind: str, target: str) -> bytes:
    """``part_name``'s relationships with one more, to ``target`` outside the file."""
    relationship = (
        f'<Relationship Id="rId999" Type="{kind}" Target="{target}" TargetMode="External"/>'
        "</Relationships>"
    )
    return with_part(draft(), part_name, lambda x: x.replace("</Relationships>", relationship))


def remote_template(url: str) -> bytes:
    kind = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"
    data = draft()
    rels = "word/_rels/settings.xml.rels"
    if rels not in zipfile.ZipFile(io.BytesIO(data)).namelist():
        empty = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships '
            'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            "</Relationships>"
        )
        data = rezip(data, add={rels: empty.encode()})
    relationship = (
        f'<Relationship Id="rId999" Type="{kind}" Target="{url}" TargetMode="External"/>'
        "</Relationships>"
    )
    return with_part(data, rels, lambda x: x.replace("</Relationships>", relationship))


def ole_link(target: str) -> bytes:
    kind = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject"
    return external_relationship("word/_rels/document.xml.rels", kind, target)


def zip_bomb(megabytes: int, name: str = "word/media/fill.bin") -> bytes:
    """The draft with a part of ``megabytes`` MB of zeros (it packs about a thousand times)."""
    out = io.BytesIO(draft())
    with (
        zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open(name, "w", force_zip64=True) as stream,
    ):
        for _ in range(megabytes):
            stream.write(b"\0" * (1024 * 1024))
    return out.getvalue()


def document_bomb(megabytes: int) -> bytes:
    """The draft whose word/document.xml is ``megabytes`` MB of blank space inside its body
    (well-formed XML that a parser and LibreOffice read whole): about a thousand times
    smaller zipped."""
    data = draft()
    xml = part(data, "word/document.xml")
    head, tail = xml.split(b"<w:body>", 1)
    out = io.BytesIO(rezip(data, replace={"word/document.xml": None}))
    with (
        zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("word/document.xml", "w", force_zip64=True) as stream,
    ):
        stream.write(head + b"<w:body>")
        for _ in range(megabytes):
            stream.write(b" " * (1024 * 1024))
        stream.write(tail)
    return out.getvalue()


def lying_directory(megabytes: int = 16) -> bytes:
    """A part whose directory states it inflates to 1,000 bytes, while it inflates to
    ``megabytes`` MB: caught while inflating, never trusted."""
    data = zip_bomb(megabytes, "word/media/liar.bin")
    blob = bytearray(data)
    # The central directory's record for the part (PK 1 2): its uncompressed size at 24.
    record = data.find(b"PK\x01\x02", zipfile.ZipFile(io.BytesIO(data)).start_dir)
    while data[record + 46 : record + 46 + 19] != b"word/media/liar.bin":
        record = data.find(b"PK\x01\x02", record + 46)
    struct.pack_into("<I", blob, record + 24, 1000)
    return bytes(blob)


HOSTILE_FINALS: dict[str, tuple[Callable[[], bytes], str]] = {
    # what it is: (how to build it, what the refusal says)
    "tracked changes": (tracked_changes, "3 insertions and 2 deletions remain"),
    "a format change": (format_change, "1 format change remains"),
    "a comment": (commented, "1 comment remains"),
    "a linked picture": (lambda: linked_picture("http://127.0.0.1:9/map.png"), "linked picture"),
    "a file:// picture": (lambda: linked_picture("file:///etc/hostname"), "linked picture"),
    "an INCLUDEPICTURE field": (
        lambda: field('INCLUDEPICTURE "http://127.0.0.1:9/x.png" \\d'),
        "a field that fetches",
    ),
    "an INCLUDETEXT field": (
        lambda: field('INCLUDETEXT "/etc/hostname"', simple=True),
        "a field that fetches",
    ),
    "a LINK field": (lambda: field('LINK Excel.Sheet.12 "C:\\\\x.xlsx" ""'), "fetches"),
    "a remote template": (lambda: remote_template("http://127.0.0.1:9/t.dotx"), "a template"),
    "an OLE link": (lambda: ole_link("file:///etc/hostname"), "a linked object"),
    "a renamed VBA project": (renamed_vba_project, "macro-enabled (a VBA project, in word/media"),
    "a DOCTYPE": (doctype, "declares a DOCTYPE"),
    "no content types": (no_content_types, "has no [Content_Types].xml"),
    "an odd page size": (odd_page_size, "page width is written '12240.0'"),
    "a zip bomb by size": (lambda: zip_bomb(40), "would inflate to 41,943,040 bytes"),
    "a zip bomb by ratio": (lambda: zip_bomb(16), "times (from"),
    "a zip bomb in the document": (lambda: document_bomb(24), "word/document.xml would inflate"),
    "a lying zip directory": (lying_directory, "damaged DOCX file"),
}


# -- exhibits ----------------------------------------------------------------------------------
MAP = ROOT / "tests" / "data" / "exhibits" / "canal-landing-easement-area.png"


def map_pdf() -> bytes:
    """The survey map as a one-page PDF (as a scanner or a CAD program exports it): the
    genuine exhibit beside the bombs below."""
    import io

    from PIL import Image

    out = io.BytesIO()
    with Image.open(MAP) as image:
        image.convert("RGB").save(out, format="PDF", resolution=150)
    return out.getvalue()


def pdf(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (numbered from 1; the first the catalog), with its xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<</Length %d%s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def pdf_page_bomb(side_points: int = 5000) -> bytes:
    """The tiny PDF bomb: one blank page so large that drawing it at 200 dpi takes a
    gigabyte and more (about 190 bytes)."""
    return (
        b"%%PDF-1.0\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]"
        b"/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 %d %d]>>endobj\n"
        b"trailer<</Root 1 0 R>>\n" % (side_points, side_points)
    )


def pdf_image_bomb() -> bytes:
    """A letter page drawing an image that declares 60,000 x 60,000 pixels."""
    import zlib

    pixels = zlib.compress(b"\0" * 3000, 9)
    image = stream(
        pixels,
        b"/Type/XObject/Subtype/Image/Width 60000/Height 60000"
        b"/ColorSpace/DeviceGray/BitsPerComponent 8/Filter/FlateDecode",
    )
    return pdf(
        [
            b"<</Type/Catalog/Pages 2 0 R>>",
            b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
            b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</XObject<</I 5 0 R>>>>"
            b"/Contents 4 0 R>>",
            stream(b"q 612 0 0 792 0 0 cm /I Do Q"),
            image,
        ]
    )


def pdf_stream_bomb(megabytes: int = 300) -> bytes:
    """A letter page whose content stream inflates to ``megabytes`` MB of spaces."""
    import zlib

    packer = zlib.compressobj(9)
    packed = b"".join(packer.compress(b" " * 2**20) for _ in range(megabytes)) + packer.flush()
    return pdf(
        [
            b"<</Type/Catalog/Pages 2 0 R>>",
            b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
            b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R>>",
            stream(packed, b"/Filter/FlateDecode"),
        ]
    )


def pdf_many_pages(pages: int = 250) -> bytes:
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))
    return pdf(
        [
            b"<</Type/Catalog/Pages 2 0 R>>",
            b"<</Type/Pages/Kids[%s]/Count %d>>" % (kids, pages),
            *[b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>" for _ in range(pages)],
        ]
    )


PDF_BOMBS: dict[str, tuple[Callable[[], bytes], str]] = {
    "a page 69 inches square": (pdf_page_bomb, "first page is 69 x 69 in"),
    "an image of 60,000 x 60,000 pixels": (pdf_image_bomb, "60,000 x 60,000 pixels"),
    "a stream inflating to 300 MB": (pdf_stream_bomb, "streams inflate past 128 MB"),
    "250 pages": (pdf_many_pages, "a PDF of 250 pages"),
}
