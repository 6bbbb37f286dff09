"""Walk a kind's case model and a case's data together, for the hostile-input tests.

``field_kind`` names what a model field accepts ("text" for Text/Line, "date", "money",
"bare-str" for an unguarded ``str``, ...); ``leaves`` yields every value of a case with
its path and that kind, so a test can replace every text field of any kind, present or
future, with hostile or generated text. ``get_in``/``set_in``/``del_in`` edit the data.
"""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, PlainValidator, WrapValidator
from pydantic.fields import FieldInfo

from docgen import values
from docgen.cases import common

Path = tuple[str | int, ...]

_VALIDATED = {
    common._clean_text: "text",
    common._iso_date: "date",
    common._money: "money",
    common._zip: "zip",
    values._phone: "phone",
    common._jurisdiction: "jurisdiction",
}
_VALIDATORS = (AfterValidator, BeforeValidator, PlainValidator, WrapValidator)


def _flatten(metadata: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in metadata:
        out.append(item)
        if isinstance(item, FieldInfo):
            out += _flatten(list(item.metadata))
    return out


def _scalar_kind(tp: Any, metadata: list[Any]) -> str:
    meta = _flatten(metadata)
    for item in meta:
        if isinstance(item, _VALIDATORS) and item.func in _VALIDATED:
            return _VALIDATED[item.func]
    if typing.get_origin(tp) is Literal:
        return "literal"
    if tp is str:
        if any(getattr(item, "pattern", None) for item in meta):
            return "pattern"
        if any(isinstance(item, _VALIDATORS) for item in meta):
            return "validated-str"
        return "bare-str"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return "model"
    return getattr(tp, "__name__", str(tp))


def field_kinds(tp: Any, metadata: list[Any] | None = None) -> set[str]:
    """Every scalar kind an annotation can hold (through Optional, list, Annotated...)."""
    metadata = list(metadata or [])
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        inner, *extra = typing.get_args(tp)
        return field_kinds(inner, metadata + extra)
    if origin in (typing.Union, types.UnionType):
        return set().union(
            *(field_kinds(a, metadata) for a in typing.get_args(tp) if a is not type(None))
        )
    if origin in (list, tuple, set, frozenset):
        return set().union(*(field_kinds(a) for a in typing.get_args(tp) if a is not Ellipsis))
    if origin is dict:
        return set().union(*(field_kinds(a) for a in typing.get_args(tp)))
    return {_scalar_kind(tp, metadata)}


def models_in(tp: Any) -> list[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for arg in typing.get_args(tp) for m in models_in(arg)]


def model_fields(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, set[str]]]:
    """(dotted field path, kinds) for every field of ``model`` and the models inside it."""
    for name, info in model.model_fields.items():
        path = f"{prefix}{name}"
        yield path, field_kinds(info.annotation, list(info.metadata))
        for inner in models_in(info.annotation):
            yield from model_fields(inner, f"{path}.")


def _field_of(model: type[BaseModel] | None, key: str) -> tuple[Any, list[Any]] | None:
    if model is None or key not in model.model_fields:
        return None
    info = model.model_fields[key]
    return info.annotation, list(info.metadata)


def leaves(model: type[BaseModel], data: Any, path: Path = ()) -> Iterator[tuple[Path, Any, str]]:
    """(path, value, kind) for every scalar in ``data``, kind read from ``model``."""
    yield from _walk(data, (model, []), path)


def _walk(data: Any, ann: tuple[Any, list[Any]] | None, path: Path) -> Iterator[Any]:
    tp, meta = ann if ann else (None, [])
    if isinstance(data, dict):
        model = next(iter(models_in(tp)), None) if tp is not None else None
        for key, value in data.items():
            yield from _walk(value, _field_of(model, key), (*path, key))
    elif isinstance(data, list):
        item_ann = _item_annotation(tp)
        for index, value in enumerate(data):
            yield from _walk(value, item_ann, (*path, index))
    else:
        kinds = field_kinds(tp, meta) - {"model", "NoneType"} if tp is not None else {"?"}
        kind = "text" if "text" in kinds else (sorted(kinds)[0] if kinds else "?")
        yield path, data, kind


def _item_annotation(tp: Any) -> tuple[Any, list[Any]] | None:
    if tp is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (list, tuple):
        args = typing.get_args(tp)
        return (args[0], []) if args else None
    if origin in (typing.Union, types.UnionType, typing.Annotated):
        for arg in typing.get_args(tp):
            found = _item_annotation(arg) if not isinstance(arg, FieldInfo) else None
            if found:
                return found
    return None


def text_paths(model: type[BaseModel], data: Any) -> list[Path]:
    return [path for path, value, kind in leaves(model, data) if kind == "text"]


def dotted(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def get_in(data: Any, path: Path) -> Any:
    for part in path:
        data = data[part]
    return data


def set_in(data: Any, path: Path, value: Any) -> Any:
    """A deep copy of ``data`` with the value at ``path`` replaced."""
    out = copy.deepcopy(data)
    target = out
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return out


def del_in(data: Any, path: Path) -> Any:
    out = copy.deepcopy(data)
    target = out
    for part in path[:-1]:
        target = target[part]
    del target[path[-1]]
    return out
