"""Jurisdiction packs: the law of one municipality as cited data.

A pack is a YAML file beside this module. Every value sits in a mapping that carries
``ref``, the provision it comes from; :func:`uncited` finds any that does not. Adding a
municipality that adopted the same model law is a new file, not new code.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import yaml

from docgen.errors import DocgenError, UnsupportedKind


class Node:
    """Read-only attribute access over a pack mapping (templates use ``pack.name.value``)."""

    __slots__ = ("_data", "_path")

    def __init__(self, data: dict[str, Any], path: str = ""):
        self._data = data
        self._path = path

    def __getattr__(self, key: str) -> Any:
        try:
            return _wrap(self._data[key], f"{self._path}.{key}".lstrip("."))
        except KeyError:
            raise AttributeError(
                f"pack has no {self._path + '.' if self._path else ''}{key}"
            ) from None

    def __getitem__(self, key: str) -> Any:
        # KeyError, as a mapping should: Jinja turns it into its (strict) undefined, so a
        # template's typo becomes a RenderError naming the key, not a traceback.
        try:
            return self.__getattr__(key)
        except AttributeError as err:
            raise KeyError(str(err)) from None

    def __contains__(self, key: str) -> bool:
        return key in self._data

    def get(self, key: str, default: Any = None) -> Any:
        return self.__getattr__(key) if key in self._data else default

    def keys(self):
        return self._data.keys()

    def __repr__(self) -> str:
        return f"Node({self._path or 'pack'})"


def _wrap(value: Any, path: str) -> Any:
    if isinstance(value, dict):
        return Node(value, path)
    if isinstance(value, list):
        return [_wrap(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


class Pack(Node):
    """One jurisdiction: ``pack.id``, ``pack.value("name")``, ``pack.ref("penalties")``."""

    __slots__ = ()

    @property
    def id(self) -> str:
        return self._data["id"]

    def lookup(self, dotted: str) -> Any:
        node: Any = self
        for part in dotted.split("."):
            node = getattr(node, part)
        return node

    def value(self, dotted: str) -> Any:
        return self.lookup(dotted).value

    def ref(self, dotted: str) -> str:
        return self.lookup(dotted).ref

    def provides(self, kind: str) -> bool:
        return bool(self._data["provisions"].get(kind, {}).get("value"))

    def require(self, kind: str) -> str:
        """The citation behind ``kind``, or UnsupportedKind naming what the article lacks."""
        entry = self._data["provisions"].get(kind)
        if entry and entry.get("value"):
            return entry["ref"]
        code = self.value("code.title")
        why = entry.get("note") if entry else f"no {kind} provision"
        raise UnsupportedKind(
            f"{self.value('name')} cannot issue a {kind}: the {code} "
            f"({self.value('code.sections')}) has {why}. docgen does not borrow another "
            "municipality's provisions."
        )


def pack_names() -> list[str]:
    folder = resources.files("docgen.law")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


@cache
def load_pack(name: str) -> Pack:
    """The pack called ``name`` (``homer``, ``macedon``); an unknown name is a DocgenError."""
    key = str(name).strip().lower()
    if key not in pack_names():
        raise DocgenError(
            f"jurisdiction: unknown jurisdiction {name!r}; known: {', '.join(pack_names())}"
        )
    text = (resources.files("docgen.law") / f"{key}.yaml").read_text(encoding="utf-8")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # packs are our own, trusted data
    return Pack(yaml.load(text, Loader=loader))


def uncited(data: Any, path: str = "", cited: bool = False) -> Iterator[str]:
    """Paths of pack values with no ``ref`` on them or on an enclosing mapping."""
    if isinstance(data, dict):
        has_ref = cited or bool(data.get("ref"))
        for key, value in data.items():
            if key in ("ref", "note", "id"):
                continue
            yield from uncited(value, f"{path}.{key}".lstrip("."), has_ref)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from uncited(value, f"{path}[{i}]", cited)
    elif not cited:
        yield path
