"""Turn pydantic's errors into docgen Problems: ``field.path: what is wrong (provision)``."""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from docgen.errors import CaseInvalid, Problem
from docgen.law.pack import Pack

M = TypeVar("M", bound=BaseModel)


def field_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The BaseModel inside an annotation such as ``list[Remedy] | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, list, tuple, typing.Annotated):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found:
                return found
    return None


def provision_for(model: type[BaseModel], loc: tuple[Any, ...], pack: Pack | None) -> str:
    """The deepest provision recorded along ``loc`` in the model's field metadata."""
    found = ""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None or isinstance(part, int):
            continue
        info = current.model_fields.get(str(part))
        if info is None:
            break
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if extra.get("provision"):
            found = str(extra["provision"])
        current = _model_in(info.annotation)
    if found.startswith("@"):
        found = pack.cite(found[1:]) if pack is not None else ""
    return found


_MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not a key this document accepts (see `docgen schema KIND`)",
}


def _message(error: dict[str, Any]) -> str:
    kind = error["type"]
    if kind in _MESSAGES:
        return _MESSAGES[kind]
    msg = str(error["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    if kind in ("string_type", "date_type", "int_type", "list_type", "dict_type", "model_type"):
        msg += f"; found {type(error.get('input')).__name__}"
    return msg


def problems_from(err: ValidationError, model: type[BaseModel], pack: Pack | None) -> list[Problem]:
    problems = []
    for error in err.errors():
        loc = tuple(
            p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-"))
        )
        problems.append(Problem(field_path(loc), _message(error), provision_for(model, loc, pack)))
    return problems


def validate(model: type[M], data: dict[str, Any], pack: Pack | None, source: str = "") -> M:
    """``model`` built from ``data``, or CaseInvalid listing every problem at once."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise CaseInvalid(problems_from(err, model, pack), source) from None
