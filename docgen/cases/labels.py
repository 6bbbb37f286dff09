"""The words a clerk reads for a case's fields: each field's label, its place on the form
("Remedy 1, measure", counted from 1), a choice in words, and a check's problem said with
them ("Remedy 1, measure: missing. § ... requires it.").

One source for the desk's forms (docgen.desk.base.forms) and for ``docgen check --labels``: a
label is the case model's own (the field's ``title`` where its name is not plain words,
else its name in words); what the field is for is its description, shown as the hint.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from docgen.errors import Problem

# A choice whose value is not plain words (a slug or an abbreviation), in words; any other
# value is said with its dashes and underscores as spaces.
CHOICE_WORDS = {
    "llc": "limited liability company",
    "certified-mail": "certified mail, return receipt requested",
    "first-class-mail": "first-class mail",
    "personal": "personal delivery",
    "posting": "posting at the site, with a copy mailed",
}


def choice(value: str) -> str:
    """A choice in words, capitalised as an option of a list: "Letter of credit"."""
    words = CHOICE_WORDS.get(value) or re.sub(r"[-_]+", " ", value)
    return words[:1].upper() + words[1:]


def label(key: str, info: FieldInfo | None) -> str:
    """A field's label, lower case unless its title says otherwise: "continued through"."""
    if info is not None and info.title:
        return info.title
    return key.replace("_", " ")


def capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def model_in(annotation: Any) -> type[BaseModel] | None:
    """The BaseModel inside an annotation such as ``list[Remedy] | None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, list, tuple, typing.Annotated):
        for arg in typing.get_args(annotation):
            found = model_in(arg)
            if found:
                return found
    return None


def one_of(model: type[BaseModel]) -> str:
    """What one row of a repeating group of models is, from its model: "owner signer"."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", model.__name__).lower()


def singular(words: str) -> str:
    """One item of a list named in the plural: notices -> notice, responsibilities ->
    responsibility (a name not in the plural stays as it is: allowed work)."""
    if words.endswith("ies"):
        return words[:-3] + "y"
    if words.endswith("s") and not words.endswith("ss"):
        return words[:-1]
    return words


def row(key: str, info: FieldInfo | None) -> str:
    """What one row of the list field ``key`` is: "remedy", "notice"."""
    model = model_in(info.annotation) if info is not None else None
    return one_of(model) if model is not None else singular(label(key, info))


_STEP = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def steps(path: str) -> list[str | int]:
    """``remedies[0].measure`` -> ["remedies", 0, "measure"]."""
    return [int(i) if i else name for i, name in _STEP.findall(path)]


def place(model: type[BaseModel], path: str) -> str:
    """Where a field is as the form shows it, rows counted from 1: ``remedies[0].measure``
    -> "Remedy 1, measure"; ``recipient.address.zip`` -> "Recipient, address, ZIP code"."""
    parts: list[str] = []
    current: type[BaseModel] | None = model
    info: FieldInfo | None = None
    key = ""
    for step in steps(path):
        if isinstance(step, int):
            if parts:
                parts[-1] = f"{row(key, info)} {step + 1}"
            continue
        key = step
        info = current.model_fields.get(step) if current is not None else None
        parts.append(label(step, info))
        current = model_in(info.annotation) if info is not None else None
    return capital(", ".join(parts))


def _field_at(model: type[BaseModel], path: str) -> FieldInfo | None:
    current: type[BaseModel] | None = model
    info: FieldInfo | None = None
    for step in steps(path):
        if isinstance(step, str):
            info = current.model_fields.get(step) if current is not None else None
            current = model_in(info.annotation) if info is not None else None
    return info


def _literals(annotation: Any) -> list[str]:
    if typing.get_origin(annotation) is typing.Literal:
        return [str(v) for v in typing.get_args(annotation)]
    return [v for arg in typing.get_args(annotation) for v in _literals(arg)]


def choices_at(model: type[BaseModel], path: str) -> list[str]:
    """The values the field at ``path`` is chosen from (none: it is not a choice)."""
    info = _field_at(model, path)
    return _literals(info.annotation) if info is not None else []


# A reference to the design notes behind a rule: for the reader of the code, not the clerk.
_NOTE = r"LAW\.md § \d+(?:, reading \d+)?"
_NOTES = re.compile(rf" ?\({_NOTE}\)|;? ?{_NOTE}")


def without_notes(text: str) -> str:
    """``text`` without its references to the design notes ("(§ 228-79C(2); LAW.md § 3)"
    -> "(§ 228-79C(2))")."""
    return _NOTES.sub("", text).replace(" ()", "")


def said(problem: Problem, model: type[BaseModel]) -> str:
    """What is wrong, in the clerk's words (beside the field, whose label is shown)."""
    problem = Problem(
        problem.field, without_notes(problem.message), without_notes(problem.provision)
    )
    message = for_person(problem.message, model)
    if message == "is required" or message.startswith("is required: "):
        rest = message.removeprefix("is required").removeprefix(": ")
        why = f"{problem.provision} requires it" if problem.provision else "it is required"
        return f"missing. {capital(rest) + '; ' if rest else ''}{why}."
    if message.startswith("Input should be "):  # a choice not among the list's
        message = "choose one of " + message.removeprefix("Input should be ")
    for value in choices_at(model, problem.field):
        quoted = rf"'{re.escape(value)}'|(?<![\w'-]){re.escape(value)}(?![\w'-])"
        message = re.sub(quoted, choice(value).lower(), message)
    return f"{message} ({problem.provision})" if problem.provision else message


# A case field's path as a check writes it ("remedies[0].due", "owner.organized_in",
# "copies_to"): at the start of a message before its colon, or anywhere as a dotted path.
_LEADING_PATH = re.compile(r"^([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*): ")
_INLINE_PATH = re.compile(r"(?<![\w.])([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)+)(?![\w(])")


def is_path(model: type[BaseModel], path: str) -> bool:
    """Whether ``path`` names a field of ``model`` ("remedies[0].due")."""
    current: type[BaseModel] | None = model
    for step in steps(path):
        if isinstance(step, int):
            continue
        info = current.model_fields.get(step) if current is not None else None
        if info is None:
            return False
        current = model_in(info.annotation)
    return True


def for_person(text: str, model: type[BaseModel]) -> str:
    """A check's message (a warning, a refusal) in the form's words: each field named by
    its label and place on the form ("remedies[0].due: ..." -> "Remedy 1, due: ...";
    "(easement.exhibit)" -> "(Easement, exhibit)"), without the design notes' references."""
    text = without_notes(text)
    lead = _LEADING_PATH.match(text)
    if lead and is_path(model, lead.group(1)):
        text = f"{place(model, lead.group(1))}: {text[lead.end() :]}"

    def named(match: re.Match[str]) -> str:
        path = match.group(1)
        return place(model, path) if is_path(model, path) else path

    return _INLINE_PATH.sub(named, text)


def in_words(problem: Problem, model: type[BaseModel]) -> str:
    """The whole problem as the clerk reads it: "Remedy 1, measure: missing. ..."."""
    text = said(problem, model)
    return f"{place(model, problem.field)}: {text}" if problem.field else capital(text)
