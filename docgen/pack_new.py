"""`docgen pack new NAME`: a skeleton pack with every value a municipality's law must give.

The skeleton is written from the pack model itself (docgen.law.pack), so it never lags
behind it: every group and value, each ``value`` and ``ref`` left blank, and beside each a
comment saying what the law's text must say there and which section of the model law
holds it. The values the State's law gives (the state pack it extends) are left out: the
municipality's law overrides them only where it says otherwise. `docgen pack check`
refuses the skeleton until every blank is filled.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from docgen.errors import DocgenError
from docgen.law.pack import ELEMENTS, MODEL_SECTIONS, SECTION_OF, Cited, Pack
from docgen.law.packs import read_state, state_folder, state_names

STATE = "new-york"
# What each top-level value is, where the model gives no docstring of its own.
SAYS = {
    "name": "the municipality as its documents name it ('Village of ...', 'Town of ...')",
    "short_name": "how the documents name it after first mention ('Village', 'Town')",
    "county": "the county whose County Clerk records its easements and agreements",
    "counsel": "who approves easements for the municipality, in the law's words",
    "officer": "the title of the officer the law charges with enforcing it",
    "provisions": "each document kind: true with the section that provides it, or false "
    "with a note saying what the law lacks",
    "code.chapter": "the chapter of the municipal code that holds the law",
    "code.article": "its article, if the law is an article of a chapter (remove if not)",
    "code.title": "the law's title as documents cite it",
    "code.sections": "its sections ('§§ 86-1 to 86-4')",
    "code.provisions": "each section and every subsection as the adopted text numbers them",
    "code.violable": "the provisions a person can violate (not findings, purpose or definitions)",
    "code.not_violable": "the parts that bind no one, each named ('86-1A': 'the findings')",
    "code.section_map": "the model law's sections -> this law's provisions that hold them",
    "enforcement.remedies_added": "remedies the law adds to the model's (appearance "
    "tickets), each cited",
}


def skeleton(name: str, kinds: Sequence[str]) -> str:
    """The text of a skeleton pack for the municipality ``name``, listing ``kinds``."""
    state = _state_data()
    lines = [
        f"# The stormwater law of {name}, as a docgen pack: fill every value with the law's",
        "# own words and every `ref` with the section it comes from; remove a group the law",
        "# does not have and say so under `provisions` (value: false, with a note).",
        "# `docgen pack check` renders every kind the pack provides when nothing is blank.",
        f"extends: {STATE}  # New York State law, written once: docgen/law/state/{STATE}.yaml",
    ]
    for key, field in Pack.model_fields.items():
        if key == "id":
            continue
        lines += _node(key, field.annotation, 0, key, state, _says(key, field), kinds)
    return "\n".join(lines) + "\n"


def pack_id(name: str) -> str:
    """The id a new pack file is named by (its stem), or an error saying what one is."""
    stem = name.strip().lower()
    if not stem or not stem.replace("-", "").replace("_", "").isalnum():
        raise DocgenError(f"pack new: {name!r}: a pack's id is lower-case letters, digits, - or _")
    return stem


def _state_data() -> dict[str, Any]:
    if STATE not in state_names():
        raise DocgenError(f"no state pack {STATE!r} in {state_folder()}")
    return read_state(STATE, state_folder())


def _says(path: str, field: Any) -> str:
    said = SAYS.get(path) or (field.description or "")
    model = _model_of(field.annotation)
    if not said and model is not None and model.__doc__:
        said = " ".join(model.__doc__.split())
    keys = [k for k in SECTION_OF if path == k or path.startswith(k + ".")]
    if keys:
        held = SECTION_OF[max(keys, key=len)]
        said += f"{'; ' if said else ''}the model law's {held} section"
    return said


def _model_of(annotation: Any) -> type[BaseModel] | None:
    for arg in (annotation, *typing.get_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def _is_cited(model: type[BaseModel]) -> bool:
    return issubclass(model, Cited) or "value" in model.model_fields


def _node(
    key: str, annotation: Any, depth: int, path: str, state: Any, says: str, kinds: Sequence[str]
) -> list[str]:
    pad = "  " * depth
    comment = f"  # {says}" if says else ""
    given = state.get(key) if isinstance(state, dict) else None
    if isinstance(given, dict) and "value" in given:
        return []  # the State's value: the municipality's law overrides it only if it must
    inner_state = state.get(key) if isinstance(state, dict) else None
    model = _model_of(annotation)
    if path == "provisions":
        return [f"{pad}{key}:{comment}"] + [
            f'{pad}  {kind}: {{value: false, ref: ""}}' for kind in kinds
        ]
    if path == "enforcement.elements":
        return [f"{pad}{key}:{comment}", f'{pad}  ref: ""'] + [
            f'{pad}  {element}: {{value: "", ref: ""}}  # as the law letters it: the ref ends '
            "in its letter, (a) or A; remove an element the law does not list"
            for element in ELEMENTS
        ]
    if path == "code.section_map":
        return [f"{pad}{key}:{comment}", f'{pad}  ref: ""', f"{pad}  value:"] + [
            f'{pad}    {section}: ""' for section in MODEL_SECTIONS
        ]
    if typing.get_origin(annotation) is dict:
        return [f"{pad}{key}: {{}}{comment}"]
    if model is None or _is_cited(model):
        return [f'{pad}{key}: {{value: {_blank(model)}, ref: ""}}{comment}']
    children = []
    for name, field in model.model_fields.items():
        if name in ("ref", "note"):
            continue
        children += _node(
            name,
            field.annotation,
            depth + 1,
            f"{path}.{name}",
            inner_state,
            _says(f"{path}.{name}", field),
            kinds,
        )
    if not children:  # a group the State's law gives whole
        return []
    ref = [f'{pad}  ref: ""'] if "ref" in model.model_fields else []
    return [f"{pad}{key}:{comment}", *ref, *children]


def _blank(model: type[BaseModel] | None) -> str:
    if model is None:
        return '""'
    value = model.model_fields["value"].annotation
    origin = typing.get_origin(value)
    if origin is typing.Annotated:
        value = typing.get_args(value)[0]
        origin = typing.get_origin(value)
    if origin in (list, tuple):
        return "[]"
    if origin is dict:
        return "{}"
    if isinstance(value, types.UnionType):
        return '""'
    if value is int:
        return "0"
    if value is bool:
        return "false"
    return '""'
