"""Reading the YAML a municipality writes (its pack, its settings): safe YAML with no key
given twice, and pydantic's errors as one line per problem, each naming its key path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from pydantic import ValidationError


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
