"""`docgen pack check FILE`: is a pack file ready to use, by itself? (And `--settings`:
is a municipality's settings file, with its signing key's files, right for its pack?)

The file is loaded as a jurisdiction (its id is the file's stem): every version is
validated against the pack model (types, a ``ref`` on every value, the texts each kind
prints, references to its own law), and the state law it extends is listed with every
value it overrides. Then every kind the pack provides is rendered, in every format, from
the kind's first sample case, moved into this pack: its jurisdiction set to the pack, and
each provision it cites renumbered through the two packs' section maps (the model law's
sections, ``code.section_map``), so a pack that numbers the model law its own way is proven
with the same cases.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography import x509

from docgen import api
from docgen.demo import sample_cases
from docgen.documents import get_kind
from docgen.documents.pipeline import missing_groups
from docgen.documents.swppp_review import fitted_to
from docgen.errors import DocgenError
from docgen.kinds import MODULES
from docgen.law.pack import SWPPP_PARTS, Pack
from docgen.law.packs import (
    add_pack_file,
    load_pack,
    load_pack_with,
    pack_files,
    read_pack,
    remove_pack_file,
)
from docgen.law.provisions import within
from docgen.law.year import CATEGORY_IDS, describe_start
from docgen.settings import LocalSettings, SettingsInvalid, address_problem, read_settings
from docgen.signing.keys import describe, read_certificate, usable

_CITED = re.compile(r"\b(\d+-\d+)((?:[A-Z]|\(\w+\)|\[\d+\])*)")


def check_pack_file(path: Path, echo: Callable[[str], None] = print) -> int:
    """Check the pack at ``path``; echo one line per finding. The number of failures."""
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
        source = read_pack(path)
        if source.extends:
            echo(f"extends {source.extends!r}: the State's law, written once")
        for override in source.overrides:
            echo(
                f"overrides {override.path} ({override.state_ref}) with {', '.join(override.refs)}"
            )
        failures = 0
        if pack.swppp is not None:
            parts = {p: sum(i.part == p for i in pack.swppp.items) for p in SWPPP_PARTS}
            echo(
                f"swppp list ({pack.swppp.ref}): {len(pack.swppp.items)} items, each with its "
                f"id, words and citation, ids unique ("
                + ", ".join(f"{n} {p}" for p, n in parts.items() if n)
                + ")"
            )
        if pack.year is not None:
            mapped = pack.year.form_items
            runs = describe_start(pack.year.starts.value)
            echo(
                f"year ({pack.year.starts.ref}): reporting period {runs}"
                f"; {len(mapped)} of {len(CATEGORY_IDS)} categories mapped to the State "
                "form's item numbers"
                + (": " + ", ".join(f"{c} {i.value}" for c, i in mapped.items()) if mapped else "")
            )
        for kind in pack.kinds():
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
                try:
                    data = fitted_to(kind, moved_into(data, pack), pack)
                    doc = api.build(kind, data)
                    for fmt in api.FORMATS:
                        api.to_bytes(doc, fmt)
                except DocgenError as err:
                    failures += 1
                    echo(f"FAILED {kind} from {sample.name}: {err}")
                    continue
                echo(f"{kind:<26} renders (pdf, docx, html) from {sample.name}")
        failures += len(unissuable(pack, echo))
        for kind in [k for k in MODULES if not pack.provides(k)]:
            entry = pack.provisions.get(kind)
            why = (entry.note or "no provision") if entry else UNLISTED
            echo(f"{kind:<26} not provided: {why}")
        return failures
    finally:
        if added:
            remove_pack_file(name)


UNLISTED = "the pack does not list it under provisions"


def unissuable(pack: Pack, echo: Callable[[str], None]) -> list[str]:
    """The kinds ``pack`` provides but could never issue, each echoed as a failure: a step
    provided without what it is issued upon (a lien without the statement of cost, a
    decision on appeal without the notice of hearing; LAW.md § 14)."""
    found = []
    for kind in pack.kinds():
        for upon in get_kind(kind).issued_upon:
            if not any(pack.provides(k) for k in upon):
                found.append(kind)
                titles = " or ".join(get_kind(k).title.lower() for k in upon)
                echo(
                    f"FAILED {kind} is provided ({pack.provisions[kind].ref}) but the pack "
                    f"provides no {titles}, which it is issued upon: none could be issued"
                )
    return found


def moved_into(data: dict[str, Any], pack: Pack) -> dict[str, Any]:
    """A sample case of another jurisdiction as a case of ``pack``: every provision it cites
    renumbered from its pack's sections to ``pack``'s (DocgenError naming one that no section
    map carries across)."""
    origin = load_pack(str(data.get("jurisdiction", "")))
    if origin.id == pack.id:
        return data
    pairs = section_pairs(origin, pack)

    def move(value: Any) -> Any:
        if isinstance(value, str):
            return _CITED.sub(lambda found: renumbered(found, origin, pairs), value)
        if isinstance(value, dict):
            return {k: move(v) for k, v in value.items()}
        if isinstance(value, list):
            return [move(v) for v in value]
        return value

    return {**move(data), "jurisdiction": pack.id}


def section_pairs(origin: Pack, pack: Pack) -> list[tuple[str, str]]:
    """(origin's provision, pack's provision) for each model section both maps hold, the
    narrowest first."""
    theirs = origin.code.section_map.value if origin.code.section_map else {}
    ours = pack.code.section_map.value if pack.code.section_map else {}
    pairs = [(theirs[key], ours[key]) for key in theirs if key in ours]
    return sorted(pairs, key=lambda pair: -len(pair[0]))


def renumbered(found: re.Match[str], origin: Pack, pairs: list[tuple[str, str]]) -> str:
    cited = found[0]
    if found[1] not in origin.code.provisions.value:  # not a section of the law (a date)
        return cited
    for theirs, ours in pairs:
        if within(cited, theirs):
            return ours + cited[len(theirs) :]
    raise DocgenError(
        f"§ {cited} of the sample's law is held by no model section that both packs map "
        f"(code.section_map of {origin.id!r} and of this pack): map the model section that "
        "holds it"
    )


def check_settings_file(path: Path, echo: Any = print) -> LocalSettings:
    """Validate the settings at ``path`` against its jurisdiction's pack (``docgen pack
    check``): its keys and values, each value against the pack value it replaces, and the
    signing key's files (the key itself is opened, with its passphrase, when issuing)."""
    if not path.is_file():
        raise SettingsInvalid(f"{path}: no such settings file")
    local = read_settings(path.resolve(), path.stat().st_mtime_ns, path.stat().st_size)
    pack = load_pack_with(local)
    echo(f"{path}: valid settings for {pack.id!r} ({pack.name.value})")
    problem = address_problem(local)
    if problem is not None:
        echo(f"warning: {problem}; a desk reached from other machines will not start")
    if local.settings.signing is not None:
        trust_root = read_certificate(local.settings.signing.certificate)
        for line in describe(trust_root):
            echo(f"trust root {line}")
        usable_key = local.settings.signing.key
        if not usable_key.is_file():
            raise SettingsInvalid(f"{path}: signing.key: no such file {usable_key}")
        if not _authority(trust_root):  # a pilot's own certificate: it signs too
            usable(trust_root, where=f"{path}: signing.certificate")
    return local


def _authority(certificate: Any) -> bool:
    try:
        return bool(certificate.extensions.get_extension_for_class(x509.BasicConstraints).value.ca)
    except x509.ExtensionNotFound:
        return False
