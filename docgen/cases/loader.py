"""Read a case file (YAML or JSON) into plain data, safely.

Case data is text: dates stay strings until the models parse them (so ``2026-02-30`` is a
field error, not a crash inside the YAML parser), duplicate keys and YAML aliases are
refused (no silent overwrites, no billion-laughs expansion), and size is capped.

Numbers are read as written: only a plain whole number (``13077``, ``-5``) becomes an
int. Everything else YAML 1.1 would turn into a number stays the text of the file:
``06470`` (octal to YAML: 3384), ``0x1F``, ``1_000``, ``1:30`` (base 60) and every
decimal (``48500.10``, ``1e28``; JSON's too), so a ZIP code or tax map number is never
converted through a number, and an amount is parsed from its digits, not from a float.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from docgen.errors import CaseFileError

MAX_BYTES = 5 * 1024 * 1024


_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: a 5 MB file in well under 2 s
_STR = "tag:yaml.org,2002:str"


class _CaseLoader(_BASE):  # type: ignore[misc, valid-type]  # libyaml's loader when built
    """Safe loading without implicit timestamps, without aliases, without duplicate keys."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        # An alias is the same node met a second time: refusing it here means a
        # billion-laughs document is never expanded (the composer shares nodes).
        if node in self.constructed_objects or node in self.recursive_objects:
            raise CaseFileError(
                f"line {node.start_mark.line + 1}: YAML aliases (*name) are not allowed in "
                "case files; write the value out"
            )
        return super().construct_object(node, deep=deep)


_CaseLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(
    loader: _CaseLoader, node: yaml.MappingNode, deep: bool = False
) -> dict[Any, Any]:
    seen: dict[str, int] = {}
    for key_node, _ in node.value:
        line = key_node.start_mark.line + 1
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _STR:
            shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a collection"
            raise CaseFileError(f"line {line}: key {shown!r} must be text")
        if key_node.value in seen:
            raise CaseFileError(
                f"line {line}: duplicate key {key_node.value!r} "
                f"(first at line {seen[key_node.value]})"
            )
        seen[key_node.value] = line
    mapping: dict[Any, Any] = loader.construct_mapping(node, deep=deep)
    return mapping


_CaseLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

_PLAIN_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")


def _int_as_written(loader: _CaseLoader, node: yaml.ScalarNode) -> int | str:
    text = str(node.value)
    return int(text) if _PLAIN_INT.fullmatch(text) else text


def _float_as_written(loader: _CaseLoader, node: yaml.ScalarNode) -> str:
    return str(node.value)


_CaseLoader.add_constructor("tag:yaml.org,2002:int", _int_as_written)
_CaseLoader.add_constructor("tag:yaml.org,2002:float", _float_as_written)


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise CaseFileError(f"duplicate key {key!r}")
        out[key] = value
    return out


def parse_case_text(text: str, name: str = "<case>") -> dict[str, Any]:
    """Parse case text (JSON if it looks like JSON, else YAML) into a mapping."""
    if not text.strip():
        raise CaseFileError(f"{name}: the file is empty; a case file is a YAML or JSON mapping")
    if "\x00" in text:
        raise CaseFileError(f"{name}: binary data (NUL bytes); a case file is YAML or JSON text")
    try:
        if name.endswith(".json") or text.lstrip().startswith(("{", "[")):
            data = json.loads(
                text, object_pairs_hook=_json_pairs, parse_float=str, parse_constant=str
            )
        else:
            data = yaml.load(text, Loader=_CaseLoader)
    except CaseFileError as err:
        raise CaseFileError(f"{name}: {err}") from None
    except json.JSONDecodeError as err:
        raise CaseFileError(f"{name}: not valid JSON: {err.msg} at line {err.lineno}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        what = getattr(err, "problem", None) or str(err).splitlines()[0]
        if "nesting depth" in what:  # libyaml's own limit
            raise CaseFileError(f"{name}: nested too deeply to be a case file") from None
        raise CaseFileError(f"{name}: not valid YAML{where}: {what}") from None
    except RecursionError:
        raise CaseFileError(f"{name}: nested too deeply to be a case file") from None
    except ValueError as err:  # e.g. an integer of thousands of digits (int() refuses it)
        reason = str(err).split(";")[0]
        raise CaseFileError(f"{name}: a value cannot be read: {reason}") from None
    if not isinstance(data, dict):
        found = type(data).__name__ if data is not None else "nothing"
        raise CaseFileError(
            f"{name}: a case file must be a mapping of keys (jurisdiction, number, ...); "
            f"found {found}"
        )
    return data


KINDS_OF_FILE = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_file(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file (None when it is one)."""
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in KINDS_OF_FILE if test(mode)), "not a regular file")


def read_regular(path: str | Path, limit: int, error: type[Exception] = CaseFileError) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Devices, FIFOs and sockets are refused before anything is read (``stat``, then
    ``fstat`` of what was opened, without blocking on a FIFO), and the read stops at the
    limit as it goes: ``/dev/zero`` reports 0 bytes and never ends. Every failure is
    ``error`` naming the path."""
    path = Path(path)
    try:
        what = not_a_file(os.stat(path).st_mode)
        if what is None:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            with os.fdopen(fd, "rb") as handle:
                what = not_a_file(os.fstat(handle.fileno()).st_mode)
                if what is None:
                    blob = handle.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{path}: cannot read: no such file") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise error(f"{path}: a symbolic link that loops, not a file") from None
        raise error(f"{path}: cannot read: {err.strerror}") from None
    if what is not None:
        raise error(f"{path}: is {what}, not a file; only regular files are read")
    if len(blob) > limit:
        raise error(f"{path}: over the {limit // (1024 * 1024)} MB limit (stopped reading there)")
    return blob


def read_case_file(path: str | Path) -> dict[str, Any]:
    """Read and parse ``path``; every failure is a CaseFileError naming the file."""
    return parse_case_text(read_case_text(path), str(path))


def read_case_text(path: str | Path) -> str:
    """The text of the case file ``path`` (a regular file, size-capped, UTF-8), not yet
    parsed: what a queued job carries."""
    path = Path(path)
    raw = read_regular(path, MAX_BYTES)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CaseFileError(f"{path}: not UTF-8 text; a case file is YAML or JSON") from None
