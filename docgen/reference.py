"""The reference pages of the documentation, written from the code so they cannot drift:
every command with its options (from the click commands themselves) and every case file's
fields (from each kind's JSON Schema, with the provision each field serves).

``mkdocs build`` adds them to the site through ``docs/hooks.py``; ``docgen reference
OUT`` would be the same two functions. Markdown only: each page is plain text a reader can
also open in the repository.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

# A JSON Schema object as `docgen schema` prints it (its keys: properties, $ref, anyOf...)
Schema = dict[str, Any]
# One field of a case file: path, type in words, required, provision, description
Field = tuple[str, str, bool, str, str]


def commands_page(main: click.Group) -> str:
    """Every command and subcommand: usage, help and options, in the CLI's own words."""
    out = [
        "# Commands",
        "",
        "Every `docgen` command, with its options, as `docgen COMMAND --help` prints them "
        "(this page is written from the commands themselves when the site is built).",
        "",
    ]
    for path, command in _walk(main, ["docgen"]):
        context = click.Context(command, info_name=" ".join(path))
        out += [f"## `{' '.join(path)}`", "", "```text", command.get_usage(context), "```", ""]
        if command.help:
            out += [_plain(command.help), ""]
        rows = []
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                names = ", ".join(f"`{o}`" for o in (*param.opts, *param.secondary_opts))
                help_text = _cell(param.help or "")
                if param.show_default and param.default not in (None, False, ()):
                    help_text += f" (default: {_cell(str(param.default))})"
                rows.append(f"| {names} | {help_text} |")
            elif isinstance(param, click.Argument):
                rows.append(f"| `{param.human_readable_name}` | argument |")
        if rows:
            out += ["| option | meaning |", "| --- | --- |", *rows, ""]
    return "\n".join(out)


def _walk(group: click.Command, path: list[str]) -> list[tuple[list[str], click.Command]]:
    found = [(path, group)]
    if isinstance(group, click.Group):
        context = click.Context(group)
        for name in group.list_commands(context):
            sub = group.get_command(context, name)
            if sub is not None and not sub.hidden:
                found += _walk(sub, [*path, name])
    return found


def case_files_page(kinds: list[dict[str, Any]], schema: Callable[[str, str], Schema]) -> str:
    """Each kind's case-file fields: path, type, whether required, the provision each
    field serves in every law that provides the kind, and what it is for, from
    ``schema(kind, jurisdiction)``: the JSON Schema ``docgen schema`` prints."""
    out = [
        "# Case files",
        "",
        "The fields of each kind's case file (YAML or JSON), from the JSON Schema that "
        "`docgen schema KIND --jurisdiction J` prints. A field marked required must be "
        "given; the provision column names the section of each law a field serves. Unknown "
        "keys are refused.",
        "",
    ]
    for row in kinds:
        kind, laws = row["kind"], row["jurisdictions"]
        cited = {j: _fields(found, found, "", set()) for j in laws for found in [schema(kind, j)]}
        if not cited:
            continue
        out += [f"## {kind}", "", f"{_cell(row['summary'])} ({', '.join(laws)})", ""]
        out += ["| field | type | required | provision | description |"]
        out += ["| --- | --- | --- | --- | --- |"]
        first = cited[laws[0]]
        for i, (path, type_, required, _provision, description) in enumerate(first):
            provisions = [f"{j}: {cited[j][i][3]}" for j in laws if cited[j][i][3]]
            out.append(
                f"| `{path}` | {type_} | {'yes' if required else ''} | "
                f"{_cell('; '.join(provisions))} | {_cell(description)} |"
            )
        out.append("")
    return "\n".join(out)


def _fields(root: Schema, node: Schema, prefix: str, seen: set[str]) -> list[Field]:
    """(path, type, required, provision, description) of every field below ``node``."""
    rows: list[Field] = []
    required = set(node.get("required", ()))
    for name, field in node.get("properties", {}).items():
        path = f"{prefix}{name}"
        target, kind = _resolve(root, field)
        provision = field.get("provision") or target.get("provision") or ""
        description = field.get("description") or target.get("description") or ""
        rows.append((path, kind, name in required, provision, description))
        ref = _ref_name(field)
        if target.get("properties") and ref not in seen:
            inner = f"{path}[]." if kind.startswith("list") else f"{path}."
            rows += _fields(root, target, inner, seen | ({ref} if ref else set()))
    return rows


def _ref_name(field: Schema) -> str | None:
    """The definition a field refers to (itself, its items, or one of its anyOf)."""
    for candidate in (field, field.get("items", {}), *field.get("anyOf", ())):
        if isinstance(candidate, dict) and "$ref" in candidate:
            ref: str = candidate["$ref"]
            return ref
        if isinstance(candidate, dict) and "$ref" in candidate.get("items", {}):
            inner: str = candidate["items"]["$ref"]
            return inner
    return None


def _resolve(root: Schema, field: Schema) -> tuple[Schema, str]:
    """The object a field holds (its $ref followed) and its type in words."""
    options = [o for o in field.get("anyOf", [field]) if o.get("type") != "null"]
    first = options[0] if options else field
    if first.get("type") == "array":
        item, kind = _resolve(root, first.get("items", {}))
        return item, f"list of {kind}"
    if "$ref" in first:
        target = root["$defs"][first["$ref"].rsplit("/", 1)[1]]
        return target, target.get("title", "object")
    if "enum" in first:
        return first, " or ".join(f"`{v}`" for v in first["enum"])
    kind = first.get("format") or first.get("type") or "any"
    return first, kind


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _plain(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines()).replace("\b\n", "")
