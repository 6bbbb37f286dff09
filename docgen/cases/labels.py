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

from docgen.errors import CaseInvalid, Problem, cited, without_notes

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


def said(problem: Problem, model: type[BaseModel]) -> str:
    """What is wrong, in the clerk's words (beside the field, whose label is shown), its
    provision cited as a person reads it (docgen.errors.cited: never the design notes)."""
    problem = Problem(problem.field, without_notes(problem.message), cited(problem.provision))
    message = for_person(problem.message, model)
    if message == "is required" or message.startswith("is required: "):
        rest = message.removeprefix("is required").removeprefix(": ")
        why = f"{capital(problem.provision)} requires it" if problem.provision else "it is required"
        return f"missing. {capital(rest) + '; ' if rest else ''}{why}."
    choices = choices_at(model, problem.field)
    if message.startswith("Input should be "):
        message = _should_be(message, model, problem.field, bool(choices))
    if message.startswith("String should match pattern "):  # said by what the field is
        info = _field_at(model, problem.field)
        what = info.description if info is not None else ""
        message = f"should be: {what}" if what else "is not written as this field is"
    message = message.replace("String should have ", "should have ")
    for value in choices:
        quoted = rf"'{re.escape(value)}'|(?<![\w'-]){re.escape(value)}(?![\w'-])"
        message = re.sub(quoted, choice(value).lower(), message)
    return f"{message} ({problem.provision})" if problem.provision else message


# What a value of the wrong type is said to be (pydantic's "Input should be a valid list;
# found str", docgen.cases.validate) in the clerk's words.
_TYPE = re.compile(r"^Input should be (?P<wanted>.+?)(?:; found (?P<found>\w+))?$")
_WANTED = {
    "a valid string": "text",
    "a valid list": "a list",
    "a valid integer": "a whole number",
    "a valid number": "a number",
    "a valid decimal": "a number",
    "a valid boolean": "yes or no",
    "a valid date": "a date",
    "a valid dictionary": "a group of fields",
}
_FOUND = {"str": "text", "int": "a number", "float": "a number", "Decimal": "a number",
          "bool": "yes or no", "list": "a list", "dict": "a group of fields",
          "NoneType": "nothing", "date": "a date"}  # fmt: skip


def _should_be(message: str, model: type[BaseModel], path: str, chosen: bool) -> str:
    """pydantic's "Input should be ..." as the clerk reads it: "choose one of ..." for a
    choice; "should be its parts (name, title), not text" for a group of fields given as
    one value; "should be a list, not text"."""
    found = _TYPE.match(message)
    if found is None:
        return message
    wanted, given = found["wanted"], found["found"]
    if chosen:  # a value not among the field's choices
        return f"choose one of {wanted}"
    info = _field_at(model, path)
    group = model_in(info.annotation) if info is not None else None
    if wanted.startswith("a valid dictionary") and group is not None:
        parts = [label(k, i) for k, i in group.model_fields.items() if i.is_required()]
        wanted = f"its parts ({', '.join(parts)})" if parts else "its parts"
    words = f"should be {_WANTED.get(wanted, wanted)}"
    return f"{words}, not {_FOUND.get(given, given)}" if given else words


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


def reworded(err: CaseInvalid, model: type[BaseModel]) -> CaseInvalid:
    """``err`` with each problem said as the desk says it (:func:`in_words`): for the
    command line, which names a case's fields as the desk's form does."""
    return CaseInvalid(err.problems, err.source, lambda p: in_words(p, model), err.kind)
