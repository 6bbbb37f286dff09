"""Where packs come from, and which version of a pack is in force on a day.

The built-in packs are docgen/law/*.yaml; ``DOCGEN_PACKS=DIR`` adds every ``*.yaml`` in
DIR, each a jurisdiction whose id is the file's stem.

A value a local law amends is written as a list of versions, each a full value; every
version after the first gives the ``effective_from`` date of the amendment (the first is
in force until the next begins)::

    appeal_days:
      - {value: 15, ref: "§ 228-79C(1)(f)"}
      - {value: 20, ref: "Local Law 2 of 2027, § 3", effective_from: 2027-03-01}

A document uses the versions in force on its issue date (:func:`load_pack` with ``on``).
Every version is validated when the file is first loaded.

A municipal pack extends a state pack (``extends: new-york``: docgen/law/state/*.yaml), the
law every municipality of the State shares, written once (OpenFisca's extension pattern).
The pack gets each state value where it has the group the value belongs to, and the State's
own groups (:data:`STATE_GROUPS`) always. A value the pack gives again overrides the State's
only where the pack's own law says otherwise: the override cites a section of that law, or
the pack is refused; :attr:`Source.overrides` lists them for `docgen pack check`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from docgen.errors import DocgenError
from docgen.law.pack import Pack, section_needed
from docgen.law.provisions import listed_in
from docgen.law.strict_yaml import describe_errors, strict_load
from docgen.settings import LocalSettings, SettingsInvalid, load_settings, overlay

ENV = "DOCGEN_PACKS"
EFFECTIVE = "effective_from"
EXTENDS = "extends"
# Groups that are the State's law alone (proof of service, acknowledgments): every pack that
# extends the State has them, whatever its own article says.
STATE_GROUPS = frozenset({"service_proof", "acknowledgment"})
_EXTRA: dict[str, Path] = {}  # packs added for one check (`docgen pack check FILE`)


class PackInvalid(DocgenError):
    """A pack file that cannot be used: names the file, the key path and what is wrong."""


_LISTED: dict[tuple[Any, ...], dict[str, Path]] = {}  # pack_files() by what it depends on


@cache
def _builtin() -> Path:
    return Path(str(resources.files("docgen.law")))


def pack_files() -> dict[str, Path]:
    """Every known pack: id -> file. A second file with an id already taken is an error.

    Read again only when a folder's listing changed (the names in it) or another pack
    was added: a case's jurisdiction is checked against it for every case read."""
    found: dict[str, Path] = {}
    folders = [_builtin()]
    extra = os.environ.get(ENV, "").strip()
    if extra:
        folder = Path(extra)
        if not folder.is_dir():
            raise DocgenError(f"{ENV}={extra}: not a directory of pack files")
        folders.append(folder)
    key = (*((str(f), *sorted(os.listdir(f))) for f in folders), *sorted(_EXTRA.items()))
    if key in _LISTED:
        return dict(_LISTED[key])
    _LISTED.clear()
    for folder in folders:
        for path in sorted(folder.glob("*.yaml")):
            _add(found, path.stem.lower(), path)
    for name, path in _EXTRA.items():
        _add(found, name, path)
    _LISTED[key] = dict(found)
    return found


def _add(found: dict[str, Path], name: str, path: Path) -> None:
    if name in found and found[name].resolve() != path.resolve():
        raise DocgenError(f"{path}: jurisdiction {name!r} is already defined by {found[name]}")
    found[name] = path


def pack_names() -> list[str]:
    return sorted(pack_files())


def pack_file(name: str) -> Path:
    files = pack_files()
    key = str(name).strip().lower()
    if key not in files:
        raise DocgenError(f"jurisdiction: unknown jurisdiction {name!r}; known: {', '.join(files)}")
    return files[key]


def load_pack(name: str, on: date | None = None) -> Pack:
    """The pack ``name`` as in force on ``on`` (None: its latest versions), with the
    municipality's own settings (docgen.settings) in place of the values they replace."""
    source = read_pack(pack_file(name))
    return source.on(on, load_settings(source.name))


class PackReader:
    """:func:`load_pack` for one pass over many documents (a calendar of a town's
    register): each pack's file and its municipality's settings are looked at once, the
    first time the pack is asked for, instead of once per document (each look a stat of
    the file, the folder's listing and the settings file)."""

    def __init__(self) -> None:
        self._read: dict[str, tuple[Source, LocalSettings | None]] = {}
        self._packs: dict[tuple[str, date | None], Pack] = {}  # asked for thousands of times
        self._cited: dict[tuple[str, str], str] = {}

    def __call__(self, name: str, on: date | None = None) -> Pack:
        pack = self._packs.get((name, on))
        if pack is not None:
            return pack
        found = self._read.get(name)
        if found is None:
            source = read_pack(pack_file(name))
            found = self._read[name] = (source, load_settings(source.name))
        source, local = found
        pack = self._packs[name, on] = source.on(on, local)
        return pack

    def cite(self, name: str, path: str) -> str:
        """The citation of the value at ``path`` in pack ``name`` (:meth:`Pack.cite`),
        looked up once for the pass: a town's calendar cites the same few thousands of
        times."""
        cited = self._cited.get((name, path))
        if cited is None:
            cited = self._cited[name, path] = self(name).cite(path)
        return cited


def load_pack_with(local: LocalSettings, on: date | None = None) -> Pack:
    """The pack that settings ``local`` belong to, with them applied (every version)."""
    source = read_pack(pack_file(local.jurisdiction))
    for start in (None, *source.dates):
        source.on(start, local)
    return source.on(on, local)


@dataclass(frozen=True, eq=False)  # one per file read: hashed by identity
class Source:
    """A pack file read and checked: its raw data and the dates its versions start."""

    path: Path
    name: str
    data: dict[str, Any]
    dates: tuple[date, ...]
    extends: str | None = None  # the state pack it extends
    overrides: tuple[Override, ...] = ()  # the state values its own law replaces

    def on(self, day: date | None, local: LocalSettings | None = None) -> Pack:
        # The versions in force on ``day`` are those of the latest start on or before it.
        start = max((d for d in self.dates if day is None or d <= day), default=None)
        return _version(self, start, local)


@cache
def _version(source: Source, start: date | None, local: LocalSettings | None = None) -> Pack:
    data = _resolve(source.data, start)
    if local is None:
        return Pack.model_validate({"id": source.name, **data})
    try:
        return Pack.model_validate({"id": source.name, **overlay(data, local)})
    except ValidationError as err:
        what = "pack with these settings"
        raise SettingsInvalid(_describe(local.path, err, start, what)) from None


def read_pack(path: Path) -> Source:
    """The pack file at ``path``, every version validated (PackInvalid naming what is wrong)."""
    try:
        stat = path.stat()
    except OSError as err:
        raise PackInvalid(f"{path}: cannot read the pack: {err.strerror}") from None
    return _read(path, stat.st_mtime_ns, stat.st_size)


@cache
def _read(path: Path, mtime: int, size: int) -> Source:
    """Read and validate every version of the pack at ``path`` (cached until it changes)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise PackInvalid(f"{path}: cannot read the pack: {err}") from None
    try:
        data = strict_load(text)
    except yaml.YAMLError as err:
        raise PackInvalid(f"{path}: not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise PackInvalid(f"{path}: a pack is a mapping of keys to cited values")
    given = data.pop("id", None)
    name = path.stem.lower()
    if given is not None and given != name:
        raise PackInvalid(f"{path}: id: {given!r} differs from the file name ({name!r})")
    state = data.pop(EXTENDS, None)
    own = data
    overrides: list[Override] = []
    if state is not None:
        data = _extend(read_state(state, path), own, overrides)
    dates: set[date] = set()
    _collect_dates(data, "", dates, path)
    source = Source(path, name, data, tuple(sorted(dates)), state, tuple(overrides))
    law = OwnLaw.of(own)
    cited = [o.problem for o in overrides if not o.cites_own_law(law)] + foreign_refs(own, law)
    for start in (None, *source.dates):
        try:
            _version(source, start)
        except ValidationError as err:
            raise PackInvalid(_describe(path, err, start, data=own, more=cited)) from None
    if cited:
        count = len(cited)
        raise PackInvalid(
            f"{path}: invalid pack, {count} problem{'s' if count != 1 else ''}:\n  "
            + "\n  ".join(cited)
        )
    return source


@dataclass(frozen=True)
class Override:
    """A value of state law that a municipal pack gives again: where, and what each cites."""

    path: str
    state_ref: str
    refs: tuple[str, ...]  # the pack's citation (one per version)

    def cites_own_law(self, law: OwnLaw) -> bool:
        return bool(self.refs) and all(law.cites(ref) for ref in self.refs)

    @property
    def problem(self) -> str:
        given = ", ".join(repr(r) for r in self.refs) or "no reference"
        return (
            f"{self.path}: overrides New York State law ({self.state_ref}) citing {given}; a "
            "pack overrides state law only where its own law says otherwise: cite the section "
            "of the pack's own law that does, or remove the value to take the State's"
        )


_OWN = re.compile(r"\d+-\d+[A-Z]?(?:\([0-9A-Za-z]+\)|\[[0-9]+\])*")


@dataclass(frozen=True)
class OwnLaw:
    """A pack's own law as its file lists it (chapter, sections and subsections), read
    before the pack is validated, so a citation of it is checked whatever else is wrong."""

    chapter: str
    sections: str
    listed: dict[str, list[str]]

    @classmethod
    def of(cls, data: dict[str, Any]) -> OwnLaw:
        given = data.get("code")
        code: dict[str, Any] = given if isinstance(given, dict) else {}

        def value(key: str) -> Any:
            node = code.get(key)
            return node.get("value") if isinstance(node, dict) else None

        listed = value("provisions")
        listed = {
            str(k): [str(s) for s in v] if isinstance(v, list) else []
            for k, v in (listed.items() if isinstance(listed, dict) else ())
        }
        return cls(str(value("chapter") or ""), str(value("sections") or ""), listed)

    def cites(self, ref: str) -> bool:
        """Whether ``ref`` cites this law ("§ 228-79C(1)(f)", "§§ 228-77 to 228-79",
        "Ch. 228") and every provision it names is one of its own."""
        text = ref.strip()
        if text.startswith("Ch."):
            return text.removeprefix("Ch.").split(",")[0].strip() == self.chapter
        found = _OWN.findall(text) if text.startswith("§") else []
        return bool(found) and all(listed_in(cited, self.listed) for cited in found)


def foreign_refs(node: Any, law: OwnLaw, path: str = "") -> list[str]:
    """Every ``ref`` of the pack's own values that reads as a citation of its own law (it
    begins with "§" or "Ch.") but names a section that law does not have: a value copied
    from another municipality's pack and never renumbered."""
    found: list[str] = []
    if isinstance(node, dict):
        ref = node.get("ref")
        own = isinstance(ref, str) and ref.strip().startswith(("§", "Ch."))
        if own and isinstance(ref, str) and not law.cites(ref):
            found.append(
                f"{path or 'ref'}: ref {ref!r} names no provision of the pack's own law "
                f"({law.sections or 'code.sections'}); cite the section of this law the "
                "value comes from"
            )
        for key, value in node.items():
            found += foreign_refs(value, law, f"{path}.{key}".lstrip("."))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += foreign_refs(value, law, f"{path}[{i}]")
    return found


def state_folder() -> Path:
    return _builtin() / "state"


def state_names() -> list[str]:
    return sorted(p.stem for p in state_folder().glob("*.yaml"))


def read_state(name: Any, by: Path) -> dict[str, Any]:
    """The state pack ``name`` that the pack at ``by`` extends (PackInvalid if unknown)."""
    path = state_folder() / f"{name}.yaml"
    if not isinstance(name, str) or not path.is_file():
        raise PackInvalid(
            f"{by}: {EXTENDS}: {name!r} is not a state pack (known: {', '.join(state_names())})"
        )
    return _read_state(path, path.stat().st_mtime_ns)


@cache
def _read_state(path: Path, mtime: int) -> dict[str, Any]:
    try:
        data = strict_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise PackInvalid(f"{path}: cannot read the state pack: {err}") from None
    if not isinstance(data, dict):
        raise PackInvalid(f"{path}: a state pack is a mapping of keys to cited values")
    return data


def _extend(
    state: dict[str, Any], own: dict[str, Any], overrides: list[Override]
) -> dict[str, Any]:
    """``own`` with the state values it takes: in the groups it has, and the State's own."""
    merged = dict(own)
    for key, value in state.items():
        if key in own:
            merged[key] = _merge(value, own[key], key, overrides)
        elif key in STATE_GROUPS:
            merged[key] = value
    return merged


def _is_value(node: Any) -> bool:
    return (isinstance(node, dict) and "value" in node) or _is_versions(node)


def _merge(state: Any, own: Any, path: str, overrides: list[Override]) -> Any:
    if _is_versions(own) and isinstance(state, dict) and not _is_value(state):
        # a group the pack amends: the State's values go into every version of it
        return [_merge(state, version, path, overrides) for version in own]
    if _is_value(state) or _is_value(own) or not isinstance(own, dict):
        versions = own if isinstance(own, list) else [own]
        refs = tuple(v["ref"] for v in versions if isinstance(v, dict) and v.get("ref"))
        first = state[0] if isinstance(state, list) else state
        overrides.append(Override(path, str(first.get("ref", "")), refs))
        return own
    merged = dict(own)
    for key, value in state.items():
        if key in ("ref", "note") and key in own:  # a group's own citation is the pack's
            continue
        merged[key] = _merge(value, own[key], f"{path}.{key}", overrides) if key in own else value
    return merged


def _describe(
    path: Path,
    err: ValidationError,
    start: date | None,
    what: str = "pack",
    data: dict[str, Any] | None = None,
    more: list[str] | None = None,
) -> str:
    when = f" (versions in force from {start.isoformat()})" if start else ""
    code = (data or {}).get("code")
    mapped = code.get("section_map") if isinstance(code, dict) else None
    value = mapped.get("value") if isinstance(mapped, dict) else None
    sections = value if isinstance(value, dict) else {}
    return describe_errors(
        f"{path}: invalid {what}{when}",
        err,
        "pack",
        lambda loc: section_needed(loc, sections),
        more or [],
    )


def _is_versions(node: Any) -> bool:
    return (
        isinstance(node, list)
        and bool(node)
        and all(isinstance(v, dict) for v in node)
        and any(EFFECTIVE in v for v in node)
    )


def _collect_dates(node: Any, path: str, dates: set[date], file: Path) -> None:
    if _is_versions(node):
        previous: date | None = None
        for i, version in enumerate(node):
            start = version.get(EFFECTIVE)
            if i == 0:  # the original: in force until the first amendment
                _collect_dates(_bare(version), path, dates, file)
                continue
            if not isinstance(start, date):
                raise PackInvalid(
                    f"{file}: {path}[{i}].{EFFECTIVE}: give the ISO date (2027-03-01) "
                    "the amendment takes effect"
                )
            if previous is not None and start <= previous:
                raise PackInvalid(f"{file}: {path}[{i}].{EFFECTIVE}: versions go in date order")
            previous = start
            dates.add(start)
            _collect_dates(_bare(version), path, dates, file)
    elif isinstance(node, dict):
        for key, value in node.items():
            _collect_dates(value, f"{path}.{key}".lstrip("."), dates, file)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _collect_dates(value, f"{path}[{i}]", dates, file)


def _resolve(node: Any, start: date | None) -> Any:
    """``node`` with each list of versions replaced by the version in force from ``start``."""
    if _is_versions(node):
        current = node[0]
        for version in node[1:]:
            if start is not None and version[EFFECTIVE] <= start:
                current = version
        return _resolve(_bare(current), start)
    if isinstance(node, dict):
        return {k: _resolve(v, start) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(v, start) for v in node]
    return node


def _bare(version: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in version.items() if k != EFFECTIVE}


def add_pack_file(path: Path) -> str:
    """Make the pack at ``path`` known for this process (its id is the file's stem)."""
    name = path.stem.lower()
    _add(pack_files(), name, path)  # refuses an id another file already holds
    _EXTRA[name] = path
    return name


def remove_pack_file(name: str) -> None:
    _EXTRA.pop(name, None)
