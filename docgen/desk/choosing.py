"""Which respondent is this: the desk's page for a draft whose party the register cannot
match with certainty (docgen.register.respondents: a near name, a look-alike, the same
name at another address).

The clerk chooses; nothing is preselected and nothing is merged silently. Beside each
answer is the penalty it would make the issue state (§ 228-79C(4): the offense number
counts that record's prior convictions), computed as the draft's figures compute it, so
the issued document states what the page showed. A record chosen names the document as
the register holds it; the name as typed is kept on the document, and recorded as
another name of the record, only when the clerk ticks "keep the name as typed".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from docgen import api
from docgen.cases.common import Address
from docgen.desk.database import Draft
from docgen.desk.web import posted, render
from docgen.documents import get_kind
from docgen.documents.base import party_field
from docgen.errors import DocgenError
from docgen.register.respondents import NEW, parse_id


@dataclass(frozen=True)
class Choice:
    """One answer to "which respondent is this?" and the penalty that answer would make
    the issue state: the offense number counts that record's prior convictions
    (§ 228-79C(4), through the pack; LAW.md § 4), a new respondent has none."""

    candidate: Any  # the register's Candidate; None: a new respondent
    penalty: dict[str, Any] | None  # api.penalty's; None until the dates it needs are typed

    @property
    def value(self) -> str:
        """The answer as the "Which respondent is this?" form posts it."""
        return NEW if self.candidate is None else str(self.candidate.id)


def choices(
    register: Any, jurisdiction: str, data: dict[str, Any], candidates: list[Any]
) -> list[Choice]:
    """Each candidate record, and a new respondent, with the penalty it would give."""
    found = [
        Choice(c, penalty_with(data, priors_of(register, jurisdiction, data, c.id)))
        for c in candidates
    ]
    return [*found, Choice(None, penalty_with(data, []))]


def penalty_with(data: dict[str, Any], priors: list[dict[str, Any]]) -> dict[str, Any] | None:
    """api.penalty of the draft with these priors; None while the case cannot give one."""
    try:
        return api.penalty({**data, "prior_offenses": priors})
    except DocgenError:
        return None


def priors_of(
    register: Any, jurisdiction: str, data: dict[str, Any], respondent: int | None
) -> list[dict[str, Any]]:
    """The prior offenses an issue would read from the register for ``respondent`` (a new
    respondent, None, has none) as of the draft's issue date."""
    if respondent is None:
        return []
    try:
        as_of = date.fromisoformat(str(data.get("issued")))
    except ValueError:
        return []
    return register.priors(respondent, jurisdiction, as_of)


def party_of(kind: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """The typed party the kind is addressed to (its recipient, its owner), or None."""
    key = party_field(get_kind(kind))
    party = data.get(key) if key is not None else None
    return party if isinstance(party, dict) else None


def match(register: Any, kind: str, data: dict[str, Any]) -> tuple[Any, list[Any]]:
    """(the record an issue would take without asking, or None; every record the draft's
    party may be): (None, []) while no party is named."""
    party = party_of(kind, data)
    if party is None or not party.get("name"):
        return None, []
    try:
        address = Address.model_validate(party["address"]) if "address" in party else None
    except ValidationError:
        address = None
    return register.match(str(party["name"]), address)


def question(register: Any, kind: str, data: dict[str, Any]) -> list[Any]:
    """The records the case's party may be, when which one it is is a question (else [])."""
    taken, candidates = match(register, kind, data)
    return candidates if taken is None else []


def typed_name(kind: str, data: dict[str, Any]) -> str:
    """The party's name as typed in the draft ("" when none is)."""
    return str((party_of(kind, data) or {}).get("name") or "")


def named_as(kind: str, data: dict[str, Any], name: str) -> dict[str, Any]:
    """``data`` with its party named ``name``: the register's record the clerk chose, so
    the issued document names whom the register holds it against (LAW.md § 2(a))."""
    key = party_field(get_kind(kind))
    if key is None or not isinstance(data.get(key), dict):
        return data
    return {**data, key: {**data[key], "name": name}}


UNANSWERED = "choose one of the records, or a new respondent; nothing was issued"


def page(
    request: Request,
    draft: Draft,
    data: dict[str, Any],
    candidates: list[Any],
    error: str = "",
) -> Response:
    """The question, each answer with its penalty; with ``error``, answered 400."""
    form = posted(request)
    register = request.app.state.register()
    return render(
        request,
        "choose_respondent.html.j2",
        status=400 if error else 200,
        draft=draft,
        choices=choices(register, draft.jurisdiction, data, candidates),
        typed=typed_name(draft.kind, data),
        copies=form.get("copies") == "1",
        language=str(form.get("language") or "").strip() or None,
        error=error,
    )


def answered(
    request: Request, draft: Draft, data: dict[str, Any], chosen: str | None
) -> tuple[dict[str, Any], Response | None]:
    """The draft's case as the clerk's answer has it issued (a record chosen: named as
    the register holds it, unless the name as typed is kept), or the page asked again
    with the field's error (no answer, or no such record)."""
    form = posted(request)
    if chosen is None:
        if form.get("_choosing") == "1":  # the page was sent with no answer
            return data, _asked_again(request, draft, data, UNANSWERED)
        return data, None
    if chosen.lower() == NEW or form.get("keep_name") == "1":
        return data, None
    number = parse_id(chosen)
    try:
        if number is None:
            raise DocgenError(chosen)
        record = request.app.state.register().respondent(number)
    except DocgenError:
        error = f"{chosen} is no record in the register; choose one of those listed"
        return data, _asked_again(request, draft, data, error)
    return named_as(draft.kind, data, record.name), None


def _asked_again(request: Request, draft: Draft, data: dict[str, Any], error: str) -> Response:
    """The question asked again, its field saying what was wrong with the answer."""
    candidates = question(request.app.state.register(), draft.kind, data)
    return page(request, draft, data, candidates, error)
