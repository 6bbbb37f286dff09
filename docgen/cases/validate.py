"""Turn pydantic's errors into docgen Problems: ``field.path: what is wrong (provision)``."""

from __future__ import annotations

import copy
import difflib
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from docgen.cases.labels import model_in
from docgen.errors import CaseInvalid, Problem
from docgen.law.pack import Pack
from docgen.law.provisions import cited_by, cited_problems

M = TypeVar("M", bound=BaseModel)


def field_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


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
        current = model_in(info.annotation)
    return cited_by(found, pack)


_MESSAGES = {
    "missing": "is required",
    "extra_forbidden": "is not a key this document accepts (see `docgen schema KIND`)",
}


def _message(error: ErrorDetails) -> str:
    kind = error["type"]
    if kind in _MESSAGES:
        return _MESSAGES[kind]
    msg = str(error["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    if kind in ("string_type", "date_type", "int_type", "list_type", "dict_type", "model_type"):
        msg += f"; found {type(error.get('input')).__name__}"
    return msg


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model that holds the last key of ``loc``."""
    current: type[BaseModel] | None = model
    for part in loc[:-1]:
        if current is None or isinstance(part, int):
            continue
        info = current.model_fields.get(str(part))
        current = model_in(info.annotation) if info else None
    return current


def _did_you_mean(model: type[BaseModel], loc: tuple[Any, ...]) -> str:
    """ "; did you mean prior_offenses?" for a misspelled key, or nothing."""
    holder = _model_at(model, loc)
    if holder is None or not loc or not isinstance(loc[-1], str):
        return ""
    close = difflib.get_close_matches(loc[-1], list(holder.model_fields), n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""


def problems_from(err: ValidationError, model: type[BaseModel], pack: Pack | None) -> list[Problem]:
    problems = []
    for error in err.errors():
        loc = tuple(
            p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-"))
        )
        message, provision = _message(error), provision_for(model, loc, pack)
        if error["type"] == "extra_forbidden":
            refused = getattr(_model_at(model, loc), "REFUSED", {}).get(loc[-1])
            if refused:
                message, provision = refused[0], cited_by(refused[1], pack)
            else:
                message += _did_you_mean(model, loc)
        problems.append(Problem(field_path(loc), message, provision))
    return problems


def validate(model: type[M], data: dict[str, Any], pack: Pack | None, source: str = "") -> M:
    """``model`` built from ``data``, or CaseInvalid listing every problem at once."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise CaseInvalid(problems_from(err, model, pack), source) from None


def _existing_path(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """The longest prefix of ``loc`` that names a value present in ``data``."""
    path: tuple[Any, ...] = ()
    node = data
    for part in loc:
        in_dict = isinstance(node, dict) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            node = node[part]
        else:
            break
        path += (part,)
    return path


def _remove(data: Any, paths: list[tuple[Any, ...]]) -> None:
    """Delete each path from ``data`` (list items from the last, so indexes stay right)."""

    def key(path: tuple[Any, ...]) -> list[tuple[int, Any]]:
        return [(0, x) if isinstance(x, int) else (1, str(x)) for x in path]

    for path in sorted(paths, key=key, reverse=True):
        node = data
        for part in path[:-1]:
            node = node[part]
        if isinstance(node, list):
            node.pop(path[-1])
        else:
            node.pop(path[-1], None)


def _overlaps(field: str, pruned: list[str]) -> bool:
    for path in pruned:
        list_of = path.split("[")[0] if "[" in path else None
        if field == path or field.startswith((path + ".", path + "[")) or path.startswith(field):
            return True
        if list_of and field.startswith(list_of + "["):  # indexes moved when an item went
            return True
    return False


def partial(
    model: type[M], data: dict[str, Any], err: ValidationError
) -> tuple[M, list[str]] | None:
    """``model`` built from ``data`` without the parts pydantic refused, and the field paths
    of those parts, so the kind's legal checks can run beside the type errors; None when
    what is left is not a case at all (a required top-level key is missing or wrong)."""
    work = copy.deepcopy(data)
    pruned: list[str] = []
    for _ in range(4):
        targets = []
        for error in err.errors():
            # The refused value, or for a missing key the object that lacks it.
            path = _existing_path(work, tuple(error["loc"]))
            if not path:
                return None
            targets.append(path)
        targets = list(dict.fromkeys(targets))
        pruned += [field_path(p) for p in targets]
        _remove(work, targets)
        try:
            return model.model_validate(work), pruned
        except ValidationError as again:
            err = again
    return None


def validate_and_check(
    model: type[M],
    data: dict[str, Any],
    pack: Pack | None,
    check: Any,
    source: str = "",
) -> M:
    """``model`` from ``data`` with ``check(case)`` passed, or CaseInvalid listing every
    problem at once: type errors and, on what is left, the legal checks together."""
    try:
        case = model.model_validate(data)
    except ValidationError as err:
        problems = problems_from(err, model, pack)
        rest = partial(model, data, err)
        if rest is not None:
            built, pruned = rest
            problems += [p for p in check(built) if not _overlaps(p.field, pruned)]
        raise CaseInvalid(cited_problems(problems, pack), source) from None
    problems = check(case)
    if problems:
        raise CaseInvalid(cited_problems(problems, pack), source)
    return case
