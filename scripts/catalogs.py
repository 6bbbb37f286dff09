"""The translation catalogs from the templates: `make catalogs`.

Extracts every message of the templates ({% trans %} blocks and ``_()``, whitespace
trimmed as the environment renders them) and of docgen/render's Python (``gettext``) into
docgen/locale/docgen.pot, then updates each language's catalog (docgen/locale/<language>/
LC_MESSAGES/docgen.po) from it: a new message is added untranslated, a message no
template says any more is kept as obsolete (#~) for the translator to reuse, and every
translation already made is kept. tests/test_catalogs.py fails while any message lacks
its translation. Babel's own commands (pybabel extract/update) do the same; this keeps
their options in one place.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from pydantic import BaseModel

from docgen.api import build
from docgen.documents import KINDS
from docgen.law.deadlines import FLAG_DAY, LIBRARY_NAMES, WEEKDAYS
from docgen.law.pack import Cited, Pack
from docgen.law.packs import load_pack, pack_names
from docgen.render import language

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "docgen" / "locale"
METHODS = [
    ("templates/**.j2", "jinja2.ext:babel_extract"),
    ("docgen/render/**.py", "python"),
]
OPTIONS = {
    "templates/**.j2": {
        "extensions": "jinja2.ext.i18n",
        "trimmed": "true",
        "newstyle_gettext": "true",
        "trim_blocks": "true",
        "lstrip_blocks": "true",
    }
}
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
# Messages a template looks up by a value rather than says (``_(party.role)``, the offense
# number's ordinal, why a day is closed), each with where the value comes from.
LOOKED_UP = {
    "docgen/cases:role": ("landowner", "developer", "applicant"),
    "docgen/documents/penalty_statement.py:offense_words": (
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
    ),
    "docgen/law/deadlines.py:WEEKDAYS": WEEKDAYS,
    "docgen/law/deadlines.py:LIBRARY_NAMES": (
        *sorted({name for name in LIBRARY_NAMES.values() if name}),
        FLAG_DAY,
    ),
}
# The pack values a served document prints through ``law`` or ``said`` (its words in a
# courtesy copy come from the catalog unless the pack gives its own).
PACK_PARTS = ("name", "short_name", "officer", "enforcement", "penalties", "inspection", "offices")


def template_messages() -> Catalog:
    """Every message the templates and the renderer say, with where each is said."""
    found = Catalog(project="docgen", domain="docgen", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, METHODS, options_map=OPTIONS, keywords=KEYWORDS
    ):
        if filename.startswith(("templates/", "docgen/render/")):
            found.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for where, words in LOOKED_UP.items():
        for word in words:
            found.add(word, None, [(where, 0)])
    for jurisdiction in pack_names():
        for path, words in pack_words(load_pack(jurisdiction)):
            found.add(words, None, [(f"docgen/law/{jurisdiction}.yaml:{path}", 0)])
    for kind, fixture in served_fixtures():
        with language.gathering() as gathered, language.speaking("es"):
            build(kind, fixture)
        for message in gathered:
            if message not in found:
                found.add(message, None, [(str(fixture.relative_to(ROOT)), 0)])
    return found


def pack_words(pack: Pack) -> list[tuple[str, str]]:
    """(where, words) of each cited text of ``pack``'s parts a served document prints."""
    out = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, Cited) and isinstance(value.value, str):
            if not path.startswith("offices."):  # an address, a telephone, hours: as set
                out.append((path, value.value))
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                walk(getattr(value, name), f"{path}.{name}" if path else name)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}.{key}")

    for part in PACK_PARTS:
        walk(getattr(pack, part, None), part)
    return out


def served_fixtures() -> list[tuple[str, Path]]:
    """(kind, fixture) of every sample case of a kind with courtesy renditions."""
    return [
        (name, fixture)
        for name, kind in KINDS.items()
        if getattr(kind, "renditions", ())
        for fixture in sorted((ROOT / "fixtures" / name).glob("*.yaml"))
    ]


def _written(path: Path, catalog: Catalog, **options: Any) -> None:
    """``catalog`` written to ``path`` only where a message changed: the dates Babel stamps
    in the header are not a change (the files stay as they are when nothing else is)."""
    out = io.BytesIO()
    write_po(out, catalog, width=100, **options)
    made = out.getvalue()
    if not path.exists() or _undated(path.read_bytes()) != _undated(made):
        path.write_bytes(made)


def _undated(po: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation|PO-Revision)-Date: [^"]*"', b"", po)


def main() -> int:
    messages = template_messages()
    _written(LOCALE / "docgen.pot", messages, omit_header=False, sort_output=False)
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/docgen.po")):
        language = po_path.parent.parent.name
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        catalog.update(messages, update_header_comment=False, no_fuzzy_matching=True)
        _written(po_path, catalog, include_previous=False)
        missing = sum(1 for m in catalog if m.id and not m.string)
        print(f"{po_path.relative_to(ROOT)}: {len(catalog)} messages, {missing} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
