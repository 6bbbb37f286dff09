"""`docgen pack check FILE`: is a pack file ready to use?

The file is loaded as a jurisdiction (its id is the file's stem): every version is
validated against the pack model (types, a ``ref`` on every value, the texts each kind
prints), then every kind the pack claims is rendered, in every format, from the kind's first
sample case with the case's jurisdiction set to this pack.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from docgen.errors import DocgenError
from docgen.law.packs import add_pack_file, load_pack, pack_files, remove_pack_file


def check_pack_file(path: Path, echo: Callable[[str], None] = print) -> int:
    """Check the pack at ``path``; echo one line per finding. The number of failures."""
    from docgen import api
    from docgen.demo import sample_cases
    from docgen.documents import get_kind
    from docgen.documents.base import missing_groups

    if not path.is_file():
        raise DocgenError(f"{path}: no such pack file")
    known = pack_files()
    name = path.stem.lower()
    added = name not in known or known[name].resolve() != path.resolve()
    if added:
        add_pack_file(path)
    try:
        pack = load_pack(name)
        echo(f"{path}: valid pack {name!r} ({pack.name.value}); every value cited")
        failures = 0
        claimed = pack.kinds()
        for kind in claimed:
            missing = missing_groups(get_kind(kind), pack)
            if missing:
                failures += 1
                echo(
                    f"FAILED {kind} is provided ({pack.provisions[kind].ref}) but the pack "
                    f"has no {', '.join(missing)} (what a {kind} prints)"
                )
                continue
            for sample in [p for k, p in sample_cases() if k == kind][:1]:
                data, _ = api.load(sample)
                data["jurisdiction"] = name
                try:
                    doc = api.build(kind, data)
                    for fmt in api.FORMATS:
                        api.to_bytes(doc, fmt)
                except DocgenError as err:
                    failures += 1
                    echo(f"FAILED {kind} from {sample.name}: {err}")
                    continue
                echo(f"{kind:<26} renders (pdf, docx, html) from {sample.name}")
        unclaimed = [k for k in pack.provisions if not pack.provides(k)]
        for kind in unclaimed:
            echo(f"{kind:<26} not provided: {pack.provisions[kind].note or 'no provision'}")
        return failures
    finally:
        if added:
            remove_pack_file(name)
