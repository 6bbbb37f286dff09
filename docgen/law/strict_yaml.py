"""Reading the YAML a municipality writes (its pack, its settings): safe YAML with no key
given twice, no anchor or alias and at most ``MAX_BYTES`` (a pack may come from a
stranger: ``docgen pack check`` vets it, and once installed every command reads it), and
pydantic's errors as one line per problem, each naming its key path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from pydantic import ValidationError

MAX_BYTES = 1024 * 1024  # a pack or a settings file: the largest pack is 33 KB


class StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # libyaml's when built
    """Safe YAML that refuses a key given twice in one mapping (no silent overwrite)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"line {line}: key {key!r} given twice (first at line {seen[key]})"
                )
            seen[key] = line
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


class Refused(yaml.YAMLError):
    """YAML that is well formed but not taken: an anchor or alias, or too large."""


def strict_load(text: str) -> Any:
    """``text`` read as safe YAML with :class:`StrictLoader`; Refused when it is larger
    than MAX_BYTES or names an anchor or alias (a kilobyte of aliases can stand for
    billions of values: refused before anything is built), yaml.YAMLError when malformed."""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise Refused(
            f"the file is {size / 2**20:.1f} MB; a pack or settings file is at most "
            f"{MAX_BYTES // 2**20} MB"
        )
    for event in yaml.parse(text, Loader=StrictLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            line = event.start_mark.line + 1 if event.start_mark is not None else "?"
            raise Refused(
                f"line {line}: YAML anchors and aliases (&name, *name) "
                "are not allowed; write each value out"
            )
    return yaml.load(text, Loader=StrictLoader)


def describe_errors(
    head: str,
    err: ValidationError,
    noun: str,
    needs: Callable[[str], str] | None = None,
    more: list[str] | None = None,
) -> str:
    """``head`` and one line per problem: the key path and what is wrong with it (and, for
    a missing value, what ``needs`` says of where its text is)."""
    lines = []
    for error in err.errors():
        loc = ".".join(str(p) for p in error["loc"] if not str(p).startswith("function-"))
        message = str(error["msg"]).removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = f"is not a {noun} key (a typo?)"
        elif error["type"] == "missing":
            message = "is required" + (needs(loc) if needs else "")
        lines.append(f"{loc}: {message}" if loc else message)
    lines += more or []
    count = len(lines)
    return f"{head}, {count} problem{'s' if count != 1 else ''}:\n  " + "\n  ".join(lines)
