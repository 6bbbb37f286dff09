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
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import ValidationError

from docgen.errors import DocgenError
from docgen.law.pack import Pack

if TYPE_CHECKING:
    from docgen.settings import LocalSettings

ENV = "DOCGEN_PACKS"
EFFECTIVE = "effective_from"
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
    from docgen.settings import load_settings

    source = read_pack(pack_file(name))
    return source.on(on, load_settings(source.name))


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

    def on(self, day: date | None, local: LocalSettings | None = None) -> Pack:
        # The versions in force on ``day`` are those of the latest start on or before it.
        start = max((d for d in self.dates if day is None or d <= day), default=None)
        return _version(self, start, local)


@cache
def _version(source: Source, start: date | None, local: LocalSettings | None = None) -> Pack:
    data = _resolve(source.data, start)
    if local is None:
        return Pack.model_validate({"id": source.name, **data})
    from docgen.settings import SettingsInvalid, overlay

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
        data = yaml.load(text, Loader=StrictLoader)
    except yaml.YAMLError as err:
        raise PackInvalid(f"{path}: not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise PackInvalid(f"{path}: a pack is a mapping of keys to cited values")
    given = data.pop("id", None)
    name = path.stem.lower()
    if given is not None and given != name:
        raise PackInvalid(f"{path}: id: {given!r} differs from the file name ({name!r})")
    dates: set[date] = set()
    _collect_dates(data, "", dates, path)
    source = Source(path, name, data, tuple(sorted(dates)))
    for start in (None, *source.dates):
        try:
            _version(source, start)
        except ValidationError as err:
            raise PackInvalid(_describe(path, err, start)) from None
    return source


class StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML that refuses a key given twice in one mapping (no silent overwrite)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"line {line}: key {key!r} given twice (first at line {seen[key]})"
                )
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def _describe(path: Path, err: ValidationError, start: date | None, what: str = "pack") -> str:
    when = f" (versions in force from {start.isoformat()})" if start else ""
    return describe_errors(f"{path}: invalid {what}{when}", err, "pack")


def describe_errors(head: str, err: ValidationError, noun: str) -> str:
    """``head`` and one line per problem: the key path and what is wrong with it."""
    lines = []
    for error in err.errors():
        loc = ".".join(str(p) for p in error["loc"] if not str(p).startswith("function-"))
        message = str(error["msg"]).removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = f"is not a {noun} key (a typo?)"
        elif error["type"] == "missing":
            message = "is required"
        lines.append(f"{loc}: {message}" if loc else message)
    count = len(lines)
    return f"{head}, {count} problem{'s' if count != 1 else ''}:\n  " + "\n  ".join(lines)


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
