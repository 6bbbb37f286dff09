"""The gate counsel's DOCX passes before anything reads it as Word (LAW.md § 8; DESIGN.md,
wave 4: files from outside pass one gate before any parser).

Stage one reads only the zip's directory: how many parts, how large each is once inflated,
how far it inflates (a zip bomb declares its size there, or lies and is caught inflating),
no encrypted or duplicated part. Stage two inflates each part, bounded by what the
directory declared, and reads the XML parts with a parser that loads no DTD, expands no
entity and opens no network address; a DOCTYPE is refused outright. Stage three reads what
Word would act on when the file is opened: a macro project (by content type, relationship
and content, whatever the part is called), embedded or linked objects, relationships to
anything outside the file (linked pictures, linked files, remote templates), fields that
fetch (INCLUDEPICTURE, INCLUDETEXT, LINK, DDE), and what makes the text not yet final:
tracked changes and comments, counted, with the first places quoted.

Every refusal is a FinalRefused naming the file, what is wrong and what to do in Word.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from docgen.errors import DocgenError

OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an encrypted Office file, or a VBA project
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"

# Limits read from the zip's directory before anything is inflated. A 100-page instrument's
# word/document.xml is about 1 MB, its whole package a few; pictures are stored, not
# inflated. The ratio applies to parts large enough to matter: Word's XML inflates 5 to 30
# times, a zip bomb a thousand.
MAX_FINAL_BYTES = 20 * 1024 * 1024  # the file itself, as uploaded (the desk's upload limit)
MAX_PARTS = 1000
MAX_PART_BYTES = 32 * 1024 * 1024
MAX_TOTAL_BYTES = 96 * 1024 * 1024
MAX_RATIO = 200
RATIO_FROM_BYTES = 256 * 1024

MACRO_TYPES = ("macroenabled", "vbaproject", "vbadata", "activex")
EMBEDDED_TYPES = ("oleobject", "/package", "activex", "control")
VBA_NAMES = ("_VBA_PROJECT".encode("utf-16-le"), "VBA\0".encode("utf-16-le"))
HYPERLINK = "/relationships/hyperlink"  # a link the reader may follow; never fetched on open
FETCHING_FIELDS = re.compile(r"^\s*(INCLUDEPICTURE|INCLUDETEXT|LINK|DDEAUTO|DDE|IMPORT)\b", re.I)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:|^\\\\|^//", re.I)

# Tracked changes, as Word writes them (ECMA-376 Part 1, § 17.13.5), by what they are.
REVISIONS = {
    "insertion": ("ins", "cellIns", "customXmlInsRangeStart"),
    "deletion": ("del", "cellDel", "customXmlDelRangeStart"),
    "move": ("moveFrom",),
    "format change": (
        "rPrChange",
        "pPrChange",
        "sectPrChange",
        "tblPrChange",
        "tblPrExChange",
        "trPrChange",
        "tcPrChange",
        "tblGridChange",
        "numberingChange",
        "cellMerge",
    ),
}
PLACES_QUOTED = 3


class FinalRefused(DocgenError):
    """A final DOCX that cannot stand as the instrument to record; the message says why."""


@dataclass
class Package:
    """A DOCX that passed the gate: its parts inflated, its XML parsed safely."""

    name: str
    parts: dict[str, bytes]
    content_types: dict[str, str] = field(default_factory=dict)  # part name -> type
    _xml: dict[str, Any] = field(default_factory=dict)

    def xml(self, part: str) -> Any:
        """The parsed root of ``part`` (parsed once, by the safe parser)."""
        if part not in self._xml:
            self._xml[part] = parse(self.parts[part], self.name, part)
        return self._xml[part]

    def xml_parts(self) -> Iterator[str]:
        for part in self.parts:
            kind = self.content_types.get(part, "")
            if part.endswith((".xml", ".rels")) or kind.endswith(("+xml", "/xml")):
                yield part

    def word_parts(self) -> Iterator[str]:
        """The WordprocessingML parts: the body, headers, footers, notes, comments."""
        for part in self.xml_parts():
            if "wordprocessingml" in self.content_types.get(part, "") or (
                part.startswith("word/") and part.endswith(".xml")
            ):
                yield part


def inspect(data: bytes, name: str = "the final") -> Package:
    """The DOCX ``data`` opened safely and checked; FinalRefused says what is wrong."""
    if len(data) > MAX_FINAL_BYTES:
        raise FinalRefused(
            f"{name} is larger than {_mb(MAX_FINAL_BYTES)}; an instrument's Word file is far "
            "smaller: save it again without embedded media"
        )
    if data.startswith(OLE):
        raise FinalRefused(
            f"{name} is encrypted (password-protected); save it from Word without a "
            "password, the clerk must be able to open it"
        )
    package = Package(name, inflate(data, name))
    if "[Content_Types].xml" not in package.parts:
        raise FinalRefused(
            f"{name} is not a Word document: it has no [Content_Types].xml (every .docx "
            "Word saves has one); open it in Word and save it again as a Word Document (.docx)"
        )
    if "word/document.xml" not in package.parts:
        raise FinalRefused(f"{name} is not a DOCX file: it has no word/document.xml")
    package.content_types = content_types(package)
    for part in package.xml_parts():
        package.xml(part)  # every XML part parses, and none declares a DOCTYPE
    refuse_active_content(package)
    refuse_outside_references(package)
    refuse_unfinished(package)
    return package


def read_final(path: Path) -> bytes:
    """The file at ``path``, read no further than the limit (inspect refuses it then)."""
    with path.open("rb") as stream:
        return stream.read(MAX_FINAL_BYTES + 1)


def inflate(data: bytes, name: str) -> dict[str, bytes]:
    """Every part of the zip, refused from the directory before inflating anything when a
    limit is passed, and again while inflating if the directory understated a size."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
        raise FinalRefused(f"{name} is not a DOCX file (Word's .docx format)") from None
    if len(entries) > MAX_PARTS:
        raise FinalRefused(
            f"{name} holds {len(entries):,} parts, more than the {MAX_PARTS:,} a Word document "
            "has; it is not a document docgen can open safely"
        )
    names = [entry.filename for entry in entries]
    if len(set(names)) != len(names):
        raise FinalRefused(f"{name} has two parts of the same name; it is a damaged DOCX file")
    total = sum(entry.file_size for entry in entries)
    for entry in entries:
        if entry.flag_bits & 0x1:
            raise FinalRefused(f"{name} has an encrypted part ({entry.filename}); save it again")
        bomb(name, entry.filename, entry.file_size, entry.compress_size)
    if total > MAX_TOTAL_BYTES:
        raise FinalRefused(
            f"{name} would inflate to {total:,} bytes, more than the {_mb(MAX_TOTAL_BYTES)} a "
            "Word document needs; it is refused unread (a zip bomb)"
        )
    parts = {}
    for entry in entries:
        if entry.is_dir():
            continue
        try:
            with archive.open(entry) as stream:
                blob = stream.read(entry.file_size + 1)
        except (zipfile.BadZipFile, NotImplementedError, ValueError, EOFError, OSError) as err:
            raise FinalRefused(f"{name} is a damaged DOCX file ({entry.filename}: {err})") from None
        if len(blob) > entry.file_size:
            raise FinalRefused(
                f"{name}'s part {entry.filename} inflates beyond the size its directory "
                "states; it is refused unread (a zip bomb)"
            )
        parts[entry.filename] = blob
    return parts


def bomb(name: str, part: str, size: int, packed: int) -> None:
    """Refuse a part whose declared size or ratio passes the limits."""
    if size > MAX_PART_BYTES:
        raise FinalRefused(
            f"{name}'s part {part} would inflate to {size:,} bytes, more than the "
            f"{_mb(MAX_PART_BYTES)} any part of a Word document needs; it is refused unread "
            "(a zip bomb)"
        )
    if size > RATIO_FROM_BYTES and size > MAX_RATIO * max(packed, 1):
        raise FinalRefused(
            f"{name}'s part {part} would inflate {size // max(packed, 1):,} times (from "
            f"{packed:,} to {size:,} bytes), more than the {MAX_RATIO} times Word's own files "
            "do; it is refused unread (a zip bomb)"
        )


def parse(blob: bytes, name: str, part: str) -> Any:
    """``part`` parsed with no DTD, no entities and no network; a DOCTYPE is refused."""
    head = blob[:4096].lstrip(b"\xef\xbb\xbf")
    if b"<!doctype" in blob.lower() or head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FinalRefused(
            f"{name}'s part {part} declares a DOCTYPE (or is not UTF-8), which Word never "
            "writes; open the file in Word and save it again as a Word Document (.docx)"
        )
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        root = etree.fromstring(blob, parser)
    except etree.XMLSyntaxError as err:
        raise FinalRefused(f"{name}'s part {part} is damaged XML ({err})") from None
    if root.getroottree().docinfo.doctype:
        raise FinalRefused(f"{name}'s part {part} declares a DOCTYPE, which Word never writes")
    return root


def content_types(package: Package) -> dict[str, str]:
    """Each part's content type, from its Override or its extension's Default."""
    root = package.xml("[Content_Types].xml")
    defaults = {
        (node.get("Extension") or "").lower(): node.get("ContentType") or ""
        for node in root.iter(f"{CT}Default")
    }
    overrides = {
        (node.get("PartName") or "").lstrip("/"): node.get("ContentType") or ""
        for node in root.iter(f"{CT}Override")
    }
    return {
        part: overrides.get(part, defaults.get(part.rsplit(".", 1)[-1].lower(), ""))
        for part in package.parts
    }


def relationships(package: Package) -> Iterator[tuple[str, Any]]:
    for part in package.parts:
        if part.endswith(".rels"):
            for node in package.xml(part).iter(f"{RELS}Relationship"):
                yield part, node


def refuse_active_content(package: Package) -> None:
    """A macro project or an embedded object, found by content type, relationship type and
    content: a VBA project is an OLE file holding a VBA storage, whatever it is named."""
    name = package.name
    kinds = package.content_types.values()
    declared = [kind for kind in kinds if any(m in kind.lower() for m in MACRO_TYPES)]
    declared += [
        node.get("Type", "")
        for _, node in relationships(package)
        if "vba" in node.get("Type", "").lower()
    ]
    named = [part for part in package.parts if "vbaproject" in part.lower()]
    hidden = [
        part
        for part, blob in package.parts.items()
        if blob.startswith(OLE) and any(vba in blob for vba in VBA_NAMES)
    ]
    if declared or named or hidden:
        where = (hidden or named or ["its content types"])[0]
        raise FinalRefused(
            f"{name} is macro-enabled (a VBA project, in {where}); save it from Word as a "
            "Word Document (.docx) without macros, then upload it again"
        )
    embedded = [
        part
        for part, kind in package.content_types.items()
        if any(e in kind.lower() for e in EMBEDDED_TYPES) or package.parts[part].startswith(OLE)
    ]
    if embedded:
        raise FinalRefused(
            f"{name} holds an embedded object ({embedded[0]}); a recorded instrument is text "
            "and pictures only: delete the object in Word (or paste it as a picture), then "
            "upload it again"
        )


def refuse_outside_references(package: Package) -> None:
    """Relationships to anything outside the file, and fields that fetch when updated."""
    name = package.name
    for part, node in relationships(package):
        kind, target = node.get("Type", ""), node.get("Target", "")
        external = (node.get("TargetMode") or "").lower() == "external"
        if external and kind.endswith(HYPERLINK):
            continue
        if external or SCHEME.match(target.strip()):
            raise FinalRefused(
                f"{name} refers to {_what_is_linked(kind)} outside the file ({_quoted(target)}, "
                f"in {part}); Word would fetch it when the file is opened. Insert the picture "
                "or text into the document itself (or remove the link), then upload it again"
            )
    for part in package.word_parts():
        for instruction in field_instructions(package.xml(part)):
            if FETCHING_FIELDS.match(instruction):
                raise FinalRefused(
                    f"{name} has a field that fetches a file or address when it is updated "
                    f"({_quoted(instruction.strip())}, in {part}); delete the field (or paste "
                    "what it shows as text or a picture), then upload it again"
                )


def _what_is_linked(kind: str) -> str:
    kind = kind.rsplit("/", 1)[-1]
    return {
        "image": "a linked picture",
        "attachedTemplate": "a template attached from",
        "oleObject": "a linked object",
        "subDocument": "a linked subdocument",
        "frame": "a linked frame",
    }.get(kind, "a linked file")


def field_instructions(root: Any) -> Iterator[str]:
    """Every field's instruction: a simple field's ``w:instr``, and a complex field's
    ``w:instrText`` runs joined from its begin to its separate (nested fields apart)."""
    for node in root.iter(f"{W}fldSimple"):
        yield node.get(f"{W}instr", "")
    open_fields: list[list[str]] = []
    for node in root.iter(f"{W}fldChar", f"{W}instrText"):
        if node.tag == f"{W}instrText":
            if open_fields:
                open_fields[-1].append(node.text or "")
            continue
        kind = node.get(f"{W}fldCharType")
        if kind == "begin":
            open_fields.append([])
        elif kind in ("separate", "end") and open_fields:
            yield "".join(open_fields[-1])
            open_fields[-1] = []
            if kind == "end":
                open_fields.pop()
    for pending in open_fields:
        yield "".join(pending)


def refuse_unfinished(package: Package) -> None:
    """Tracked changes and comments: counted, and the first places quoted."""
    counts: dict[str, int] = {}
    places: list[tuple[str, str]] = []
    document = package.xml("word/document.xml")
    for part in package.word_parts():
        if part.endswith(("comments.xml", "commentsExtended.xml", "commentsIds.xml")):
            continue
        root = package.xml(part)
        clauses = clause_numbers(root) if root is document else {}
        for what, tags in REVISIONS.items():
            for node in root.iter(*(f"{W}{tag}" for tag in tags)):
                counts[what] = counts.get(what, 0) + 1
                places.append(_place(node, part, clauses))
    comments = sum(
        len(package.xml(part).findall(f"{W}comment"))
        for part in package.word_parts()
        if part.endswith("comments.xml")
    )
    marked = list(document.iter(f"{W}commentRangeStart", f"{W}commentReference"))
    if comments or marked:
        counts["comment"] = max(comments, len({node.get(f"{W}id") for node in marked}))
        clauses = clause_numbers(document)
        places += [_place(node, "word/document.xml", clauses) for node in marked[:1]]
    if not counts:
        return
    listed = [_count(n, what) for what, n in counts.items()]
    remain = "remains" if sum(counts.values()) == 1 else "remain"
    todo = []
    if set(counts) - {"comment"}:
        todo.append("accept or reject each change (Review, Accept or Reject)")
    if "comment" in counts:
        todo.append("delete the comments")
    raise FinalRefused(
        f"{package.name} is not final yet: {_and(listed)} {remain}{_first(places)}; "
        f"{' and '.join(todo)} in Word, then upload it again"
    )


def _first(places: list[tuple[str, str]]) -> str:
    """The first places, those in one clause together: ", first in Clause 4: 'a', 'b'"."""
    grouped: dict[str, list[str]] = {}
    for where, said in places[:PLACES_QUOTED]:
        grouped.setdefault(where, []).append(said)
    if not grouped:
        return ""
    return ", first " + "; ".join(f"{where}: {', '.join(said)}" for where, said in grouped.items())


def clause_numbers(root: Any) -> dict[Any, int]:
    """Each numbered paragraph of the clauses and the number of the clause it belongs to:
    the clauses are the Word list whose first item carries a clause bookmark (Clause_...),
    counted at its top level, so a clause counsel inserted in Word counts too."""
    paragraphs = list(root.iter(f"{W}p"))
    first = next(
        (
            p
            for p in paragraphs
            if any(
                (b.get(f"{W}name") or "").startswith("Clause_") for b in p.iter(f"{W}bookmarkStart")
            )
        ),
        None,
    )
    list_id = _numbering(first)[0] if first is not None else None
    numbers: dict[Any, int] = {}
    count = 0
    for p in paragraphs:
        num, level = _numbering(p)
        if list_id is None or num != list_id:
            continue
        if level == "0":
            count += 1
        if count:
            numbers[p] = count
    return numbers


def _numbering(p: Any) -> tuple[str | None, str | None]:
    num = p.find(f"{W}pPr/{W}numPr/{W}numId")
    level = p.find(f"{W}pPr/{W}numPr/{W}ilvl")
    return (
        num.get(f"{W}val") if num is not None else None,
        level.get(f"{W}val", "0") if level is not None else "0",
    )


def _place(node: Any, part: str, clauses: dict[Any, int]) -> tuple[str, str]:
    """Where a change is ("in Clause 4", "in the paragraph beginning ...") and what it says."""
    paragraph = next((a for a in node.iterancestors(f"{W}p")), None)
    whole = _text(paragraph) if paragraph is not None else ""
    said = _text(node) if node.tag not in (f"{W}commentRangeStart", f"{W}commentReference") else ""
    quoted = _quoted(said or whole) if said or whole else "(an empty paragraph)"
    if paragraph is not None and paragraph in clauses:
        return f"in Clause {clauses[paragraph]}", quoted
    if part != "word/document.xml":
        return f"in {part.removeprefix('word/').removesuffix('.xml')}", quoted
    if whole and said and said != whole:
        return f"in the paragraph beginning {_quoted(whole, 30)}", quoted
    return "at", quoted


def _text(node: Any) -> str:
    return "".join(t.text or "" for t in node.iter(f"{W}t", f"{W}delText")).strip()


def _quoted(text: str, most: int = 60) -> str:
    text = " ".join(text.split())
    return f"'{text[:most]}…'" if len(text) > most else f"'{text}'"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _mb(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB"


def without_outside_references(data: bytes) -> bytes:
    """A copy of a checked DOCX with every relationship to outside the file removed (a
    hyperlink too): what LibreOffice is given, so that nothing it opens can reach out even
    if a check above were to miss one."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for entry in source.infolist():
            blob = source.read(entry)
            if entry.filename.endswith(".rels"):
                blob = _rels_without_outside(blob, entry.filename)
            copy.writestr(entry, blob)
    return out.getvalue()


def _rels_without_outside(blob: bytes, part: str) -> bytes:
    root = parse(blob, "the copy for LibreOffice", part)
    for node in list(root.iter(f"{RELS}Relationship")):
        external = (node.get("TargetMode") or "").lower() == "external"
        if external or SCHEME.match((node.get("Target") or "").strip()):
            node.getparent().remove(node)
    made: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    return made
