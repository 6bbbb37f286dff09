"""Which respondent is this: each answer to the question the register asks when a case's
party is not matched with certainty (docgen.register.people.respondents), with the penalty that
answer would make the issue state, and the case as the answer has it issued.

One place for those figures: the desk's draft figures, its preview and its "Which
respondent is this?" page, and the refusal of `docgen issue` (so the command line and the
desk never disagree with each other, nor with the issued document: LAW.md § 4, § 2(a)).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from docgen import api
from docgen.documents import get_kind
from docgen.documents.kind import party_field
from docgen.documents.pipeline import jurisdiction_of
from docgen.errors import DocgenError
from docgen.register.people.respondents import NEW
from docgen.register.storage.db import RegisterError
from docgen.register.storage.records import Candidate


class Priors(Protocol):
    """What the answers read of the register (docgen.register.store.Register gives it)."""

    def priors(self, respondent: int, jurisdiction: str, as_of: date) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class Choice:
    """One answer to "which respondent is this?" and the penalty that answer would make
    the issue state: the offense number counts that record's prior convictions
    (§ 228-79C(4), through the pack; LAW.md § 4), a new respondent has none."""

    candidate: Candidate | None  # None: a new respondent
    penalty: dict[str, Any] | None  # api.penalty's; None until the dates it needs are typed

    @property
    def value(self) -> str:
        """The answer as the "Which respondent is this?" form posts it."""
        return NEW if self.candidate is None else str(self.candidate.id)

    def would_give(self) -> str:
        """What this answer makes the issue state, in words (the desk's _choices macro
        says the same in HTML)."""
        p = self.penalty
        if p is None:
            return "the penalty once the dates it needs are in the case"
        counted = len(p["counted_priors"])
        return (
            f"offense number {p['offense_number']} ({counted} prior conviction"
            f"{'' if counted == 1 else 's'} counted), penalty ${p['total_fine_min']} to "
            f"${p['total_fine_max']} in all, or imprisonment up to "
            f"{p['imprisonment_max_months']} months, or both ({p['citation']})"
        )


def choices(
    register: Priors,
    jurisdiction: str,
    data: dict[str, Any],
    candidates: list[Candidate],
    priced: bool = True,
) -> list[Choice]:
    """Each candidate record, and a new respondent, with the penalty it would give; not
    ``priced`` (a kind whose penalty reads no history: :func:`priced`), with none."""
    if not priced:
        return [*(Choice(c, None) for c in candidates), Choice(None, None)]
    found = [
        Choice(c, penalty_with(data, priors_of(register, jurisdiction, data, c.id)))
        for c in candidates
    ]
    return [*found, Choice(None, penalty_with(data, []))]


def priced(kind: str) -> bool:
    """Whose record it is changes what ``kind`` states: its penalty reads the respondent's
    history (§ 228-79C(4)); the question of any other kind shows no figure."""
    return get_kind(kind).reads_history


def penalty_with(data: dict[str, Any], priors: list[dict[str, Any]]) -> dict[str, Any] | None:
    """api.penalty of the case with these priors; None while the case cannot give one."""
    try:
        return api.penalty({**data, "prior_offenses": priors})
    except DocgenError:
        return None


def priors_of(
    register: Priors, jurisdiction: str, data: dict[str, Any], respondent: int | None
) -> list[dict[str, Any]]:
    """The prior offenses an issue would read from the register for ``respondent`` (a new
    respondent, None, has none) as of the case's issue date."""
    if respondent is None:
        return []
    try:
        as_of = date.fromisoformat(str(data.get("issued")))
    except ValueError:
        return []
    return register.priors(respondent, jurisdiction, as_of)


def named_as(kind: str, data: dict[str, Any], name: str) -> dict[str, Any]:
    """``data`` with its party named ``name``: the register's record the clerk chose, so
    the issued document names whom the register holds it against (LAW.md § 2(a))."""
    key = party_field(get_kind(kind))
    if key is None or not isinstance(data.get(key), dict):
        return data
    return {**data, key: {**data[key], "name": name}}


def refuse_keep_name(chosen: int | str | None) -> None:
    """Keeping the name as typed is said of a record chosen by its id, never alone."""
    if chosen is None or str(chosen).strip().lower() == NEW:
        raise RegisterError(
            "--keep-typed-name: keeps the name as typed on the document and records it as "
            "another name of the record chosen; give that record's id with --respondent ID "
            "(LAW.md § 2(a): the document names whom the register holds it against)"
        )


def asked(
    register: Priors, kind: str, data: dict[str, Any], name: str, candidates: list[Candidate]
) -> str:
    """The refusal of an issue whose respondent is a question: each candidate (id, name,
    addresses, why) with the offense number and penalty it would give (:func:`choices`,
    as the desk shows them; none for a kind whose penalty reads no history), and the
    options that answer it."""
    try:
        jurisdiction = jurisdiction_of(data).id
    except DocgenError:
        jurisdiction = ""  # no priors are read: the issue refuses the case for it anyway
    figures = priced(kind)
    lines = []
    for choice in choices(register, jurisdiction, data, candidates, figures):
        who = str(choice.candidate) if choice.candidate is not None else "a new respondent"
        lines.append(f"{who}; this would give {choice.would_give()}" if figures else who)
    listed = "\n  ".join(lines)
    return (
        f"respondent {name!r} is not matched with certainty; the register holds:\n  {listed}\n"
        "answer with one of:\n"
        "  --respondent ID: that record, named on the document as the register holds it"
        f"{' (its history gives the penalty)' if figures else ''}\n"
        f"  --respondent ID --keep-typed-name: that record, the document keeping {name!r}, "
        "recorded as another name of that record\n"
        "  --respondent new: a different person or firm"
    )
