"""A kind's form, built from its case model; typed values back into case data.

Every input is named by its field path exactly as a Problem names it
(``recipient.address.street``, ``violations[0].observed``), so an error from ``check``
lands beside the input it is about. Labels are the field descriptions the case models
carry (the law's words), each with the provision recorded beside the field; nested models
become fieldsets, lists of models repeating groups, dates native date inputs.

A draft keeps exactly what was typed, as (name, value) pairs: nothing is parsed away
before it is saved, and :func:`case_data` turns it into a case (blank inputs left out,
so a missing value is reported by the law's own check, not defaulted).
"""

from __future__ import annotations

import itertools
import re
import types
import typing
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any, Literal

from annotated_types import MaxLen
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from docgen.cases import labels
from docgen.cases.agreement import FILE
from docgen.documents import get_kind
from docgen.errors import Problem, cited, without_notes
from docgen.law.packs import load_pack

# Fields the desk and the register fill: the jurisdiction is chosen when the draft is
# started; on issue the register assigns the number and reads the prior offenses from its
# own record (`docgen issue` refuses a case that types them; earlier convictions are
# entered with `docgen register import-history`).
SET_BY_DESK = ("jurisdiction", "number", "prior_offenses")
# Print first, serve second (LAW.md § 2): a served kind's service is recorded on the issued
# document, one event per person served, so its draft does not ask for it; the only
# service date and last day the desk shows are the register's, derived from those events
# (docgen.register.storage.standing). A case file typed for the command line keeps its `served`.
RECORDED_AS_EVENTS = ("served",)
DRAFT_NUMBER = "DRAFT"
LINE_MAX = 500  # longer text gets a text area
MAX_DEPTH = 12  # steps in a field's path: recipient.address.street is 3, a row index one more
MAX_ROW = 99  # the last row index of a repeating group (100 rows)


@dataclass(frozen=True)
class Node:
    """One input, fieldset or repeating group of a form."""

    key: str
    label: str  # the field's label (docgen.cases.labels), shown and named in its errors
    citation: str = ""
    # text, textarea, date, select, number, decimal, tel, group, repeat; upload: a file the
    # case names, sent to the draft (docgen.desk.drafting.uploads), never typed
    widget: str = "text"
    required: bool = False
    choices: tuple[str, ...] = ()
    children: tuple[Node, ...] = ()
    item: Node | None = None  # a repeating group's row
    hint: str = ""  # what the field is for: the case model's description

    @property
    def options(self) -> list[tuple[str, str]]:
        """(value, words) of each choice: "llc" -> "Limited liability company"."""
        return [(c, labels.choice(c)) for c in self.choices]


def _unwrap(annotation: Any) -> tuple[Any, list[Any], bool]:
    """(bare type, metadata, optional) of an annotation like ``Annotated[str, ...] | None``."""
    metadata: list[Any] = []
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation, *extra = typing.get_args(annotation)
            metadata += extra
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            optional = optional or len(args) < len(typing.get_args(annotation))
            annotation = args[0]
        else:
            return annotation, metadata, optional


def _max_length(metadata: list[Any]) -> int | None:
    for item in metadata:
        if isinstance(item, MaxLen):
            return item.max_length
        if isinstance(item, FieldInfo):
            found = _max_length(list(item.metadata))
            if found:
                return found
    return None


def _label(key: str, info: FieldInfo) -> str:
    return labels.capital(labels.label(key, info))


def _citation(info: FieldInfo, pack_id: str, inherited: str) -> str:
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    provision = str(extra.get("provision") or "")
    if provision.startswith("@"):
        provision = load_pack(pack_id).cite(provision[1:])
    return practice(provision, pack_id) or inherited


def practice(provision: str, pack_id: str) -> str:
    """A citation as a person reads it (docgen.errors.cited): a law's provision as it is;
    a reading docgen chose named as the municipality's practice ("<its name> practice"),
    never the project's notes; a term of the model maintenance agreement said so."""
    return cited(provision, f"{load_pack(pack_id).name.value} practice")


def _node(key: str, info: FieldInfo, pack_id: str, inherited: str) -> Node:
    bare, metadata, optional = _unwrap(info.annotation)
    metadata += list(info.metadata)
    label = _label(key, info)
    citation = _citation(info, pack_id, inherited)
    required = info.is_required() and not optional
    hint = without_notes(info.description or "")
    if typing.get_origin(bare) is list:
        (item_type,) = typing.get_args(bare)
        row_type, row_meta, _ = _unwrap(item_type)
        one = labels.capital(labels.row(key, info))
        if isinstance(row_type, type) and issubclass(row_type, BaseModel):
            row = _group(key, one, row_type, pack_id, citation, required=True)
        else:
            row = _scalar(key, one, citation, row_type, row_meta, True, key)
        return Node(key, label, citation, "repeat", required, item=row, hint=hint)
    if isinstance(bare, type) and issubclass(bare, BaseModel):
        node = _group(key, label, bare, pack_id, citation, required)
    else:
        node = _scalar(key, label, citation, bare, metadata, required, key)
    return Node(**{**node.__dict__, "hint": hint})


def _scalar(
    key: str, label: str, citation: str, bare: Any, metadata: list[Any], required: bool, name: str
) -> Node:
    if typing.get_origin(bare) is Literal:
        choices = tuple(str(c) for c in typing.get_args(bare))
        return Node(key, label, citation, "select", required, choices)
    if bare is date:
        widget = "date"
    elif bare is int:
        widget = "number"
    elif bare is Decimal:
        widget = "decimal"
    elif name == "phone":
        widget = "tel"
    elif any(item is FILE for item in metadata):
        widget = "upload"
    else:
        limit = _max_length(metadata)
        widget = "textarea" if limit is not None and limit > LINE_MAX else "text"
    return Node(key, label, citation, widget, required)


def _group(
    key: str, label: str, model: type[BaseModel], pack_id: str, citation: str, required: bool
) -> Node:
    children = tuple(
        _node(name, info, pack_id, citation)
        for name, info in model.model_fields.items()
        if not _signers_own(info)
    )
    return Node(key, label, citation, "group", required, children=children)


def _signers_own(info: FieldInfo) -> bool:
    """A field only the signer fills in, through its own link (an electronic signature,
    a paper scan's hash: docgen.desk.public.certify_public), never a clerk's form."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    return bool(extra.get("signers_own"))


def not_asked(kind: str) -> tuple[str, ...]:
    """The case fields a draft of ``kind`` does not ask for: those the desk and the
    register fill, and for a served kind its service (recorded as events after issue)."""
    return SET_BY_DESK + (RECORDED_AS_EVENTS if get_kind(kind).served else ())


@cache
def form_for(kind: str, jurisdiction: str) -> Node:
    """The form of ``kind`` for ``jurisdiction``: a group of everything the case model
    takes that the draft asks for."""
    spec = get_kind(kind)
    top = _group("", spec.title, spec.model, jurisdiction, "", True)
    kept = tuple(child for child in top.children if child.key not in not_asked(kind))
    return Node("", top.label, "", "group", True, children=kept)


# -- typed values -> case data -------------------------------------------------------------

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[[0-9]{1,2}\])*)$")


def _steps(name: str) -> list[str | int] | None:
    """The path of a field's name (None: not a path a form of the desk names)."""
    steps: list[str | int] = []
    for segment in name.split("."):
        match = _SEGMENT.fullmatch(segment)
        if not match:
            return None
        steps.append(match.group(1))
        steps += [int(i) for i in re.findall(r"\[([0-9]+)\]", match.group(2))]
    return steps if len(steps) <= MAX_DEPTH else None


def _put(tree: dict[str, Any], steps: list[str | int], value: str) -> None:
    node: Any = tree
    for step, following in itertools.pairwise(steps):
        default: Any = {} if isinstance(following, str) else {"__list__": True}
        node = node.setdefault(step, default)
        if not isinstance(node, dict):
            return  # the same name used as a value and as a group: keep the first
    node.setdefault(steps[-1], value)


def _pruned(node: Any) -> Any:
    """Blank values and empty groups left out; numbered rows become lists, in order."""
    if isinstance(node, str):
        return node.strip() or None
    if node.pop("__list__", False):
        rows = [_pruned(node[i]) for i in sorted(k for k in node if isinstance(k, int))]
        return [row for row in rows if row is not None] or None
    out = {k: v for k, v in ((k, _pruned(v)) for k, v in node.items()) if v is not None}
    return out or None


def case_data(kind: str, jurisdiction: str, pairs: list[list[str]]) -> dict[str, Any]:
    """The case a draft's typed (name, value) pairs describe (names starting with _ are
    the page's own: which fields were visited, review mode; a field the draft does not
    ask for is left out, should an older draft or a crafted post hold it)."""
    tree: dict[str, Any] = {}
    skipped = not_asked(kind)
    for name, value in pairs:
        steps = _steps(name)
        if steps and isinstance(steps[0], str) and steps[0] not in skipped and name[0] != "_":
            _put(tree, steps, value.replace("\r\n", "\n").replace("\r", "\n"))
    data = _pruned(tree) or {}
    data["jurisdiction"] = jurisdiction
    if get_kind(kind).numbered:
        data["number"] = DRAFT_NUMBER
    return data


def pairs_of(data: Any, path: str = "") -> list[list[str]]:
    """Case data as the (name, value) pairs a filled-in form posts (the inverse of
    :func:`case_data`): to start a draft from what the register already knows."""
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in pairs_of(v, f"{path}.{k}" if path else k)]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in pairs_of(v, f"{path}[{i}]")]
    return [[path, "" if data is None else str(data)]]


def values(pairs: list[list[str]]) -> dict[str, str]:
    """Each input's typed value by name (the first, should a name come twice)."""
    out: dict[str, str] = {}
    for name, value in pairs:
        out.setdefault(name, value)
    return out


def rows(pairs: list[list[str]], path: str) -> int:
    """How many rows of the repeating group ``path`` the draft holds (at least one)."""
    pattern = re.compile(re.escape(path) + r"\[([0-9]{1,2})\]")
    found = [int(m.group(1)) for name, _ in pairs if (m := pattern.match(name))]
    return max(found, default=0) + 1


def with_row(pairs: list[list[str]], path: str) -> list[list[str]]:
    """The pairs with one more (empty) row in the repeating group ``path`` (none past the
    last row a group holds)."""
    count = rows(pairs, path)
    return [*pairs, [f"{path}[{count}]", ""]] if count <= MAX_ROW else pairs


def without_row(pairs: list[list[str]], path: str, index: int) -> list[list[str]]:
    """The pairs with row ``index`` of ``path`` removed and the later rows moved up."""
    pattern = re.compile(re.escape(path) + r"\[([0-9]+)\](.*)$", re.S)
    out = []
    for name, value in pairs:
        match = pattern.match(name)
        if not match:
            out.append([name, value])
        elif int(match.group(1)) != index:
            row = int(match.group(1))
            row = row - 1 if row > index else row
            out.append([f"{path}[{row}]{match.group(2)}", value])
    return out


# -- problems beside their inputs ------------------------------------------------------------


def input_id(path: str) -> str:
    return "f-" + (re.sub(r"[^A-Za-z0-9]+", "-", path).strip("-") or "form")


def add_button_id(path: str) -> str:
    """The id of the Add another button of the repeating group ``path``."""
    return input_id(path) + "-add"


def node_of(form: Node, path: str) -> Node | None:
    """The form's node at ``path`` ("remedies", "violations[0].nature"), if it has one."""
    node: Node | None = form
    for step in re.sub(r"\[\d+\]", "", path).split("."):
        if node is None:
            return None
        if node.widget == "repeat":
            node = node.item
        node = next((c for c in (node.children if node else ()) if c.key == step), None)
    return node


def first_input_id(node: Node, path: str) -> str:
    """The id of the first field a keyboard reaches in ``node`` shown at ``path``."""
    if node.widget == "group" and node.children:
        child = node.children[0]
        return first_input_id(child, f"{path}.{child.key}")
    if node.widget == "repeat" and node.item is not None:
        return first_input_id(node.item, f"{path}[0]")
    return input_id(path)


def focus_after_add(form: Node, path: str, pairs: list[list[str]]) -> str:
    """Where focus goes once a row is added to ``path``: the new row's first field."""
    node = node_of(form, path)
    row = f"{path}[{rows(pairs, path) - 1}]"
    if node is None or node.item is None:
        return input_id(row)
    return first_input_id(node.item, row)


def focus_after_remove(form: Node, path: str, index: int) -> str:
    """Where focus goes once row ``index`` of ``path`` is removed: the first field of the
    row before it, or (the first row removed) the group's Add another button."""
    node = node_of(form, path)
    if index <= 0 or node is None or node.item is None:
        return add_button_id(path)
    return first_input_id(node.item, f"{path}[{index - 1}]")


@dataclass
class Errors:
    """The problems of a check, each under the input (or fieldset) it names, said in the
    words of the form's labels (docgen.cases.labels)."""

    model: type[BaseModel]
    by_field: dict[str, list[Problem]] = field(default_factory=dict)
    ordered: list[tuple[Problem, str]] = field(default_factory=list)  # (problem, where shown)

    def at(self, path: str) -> list[Problem]:
        return self.by_field.get(path, [])

    def said(self, problem: Problem) -> str:
        """What is wrong, beside the field (whose label is shown there)."""
        return labels.said(problem, self.model)

    def in_words(self, problem: Problem) -> str:
        """The problem with the field's label and place: "Remedy 1, measure: missing..."."""
        return labels.in_words(problem, self.model)


def errors_of(problems: list[Problem], paths: set[str], kind: str) -> Errors:
    """Problems keyed by the nearest path the form shows (``number`` and others: the form)."""
    errors = Errors(get_kind(kind).model)
    for problem in problems:
        path = problem.field
        while path and path not in paths:
            path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path) if re.search(r"[.\[]", path) else ""
        errors.by_field.setdefault(path, []).append(problem)
        errors.ordered.append((problem, path))
    return errors


def uploads(node: Node, prefix: str = "") -> dict[str, Node]:
    """The form's file fields (outside repeating groups) by path: each takes an upload."""
    out: dict[str, Node] = {}
    for child in node.children:
        path = f"{prefix}.{child.key}" if prefix else child.key
        if child.widget == "upload":
            out[path] = child
        elif child.widget == "group":
            out |= uploads(child, path)
    return out


def paths_of(node: Node, pairs: list[list[str]], prefix: str = "") -> list[str]:
    """Every input and fieldset path the form shows for these pairs, in page order."""
    out: list[str] = []
    for child in node.children:
        path = f"{prefix}.{child.key}" if prefix else child.key
        out.append(path)
        if child.widget == "group":
            out += paths_of(child, pairs, path)
        elif child.widget == "repeat" and child.item is not None:
            for i in range(rows(pairs, path)):
                row_path = f"{path}[{i}]"
                out.append(row_path)
                if child.item.widget == "group":
                    out += paths_of(child.item, pairs, row_path)
    return out
