"""Which respondent is this: the desk's page for a draft whose party the register cannot
match with certainty (docgen.register.people.respondents: a near name, a look-alike, the same
name at another address).

The clerk chooses; nothing is preselected and nothing is merged silently. Beside each
answer of a kind whose penalty reads the history is the penalty it would make the issue
state (§ 228-79C(4): the offense number counts that record's prior convictions), computed
as the draft's figures compute it, so the issued document states what the page showed;
another kind's question shows no figure. A record chosen names the document as the
register holds it; the name as typed is kept on the document, and recorded as another
name of the record, only when the clerk ticks "keep the name as typed".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from docgen.cases.common import Address
from docgen.desk.base.database import Draft
from docgen.desk.base.web import posted, render
from docgen.documents import get_kind
from docgen.documents.kind import party_field
from docgen.errors import DocgenError
from docgen.register.people.choices import choices, priced
from docgen.register.people.respondents import NEW, parse_id
from docgen.register.storage.records import Candidate

if TYPE_CHECKING:
    from docgen.register import Register


def party_of(kind: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """The typed party the kind is addressed to (its recipient, its owner), or None."""
    key = party_field(get_kind(kind))
    party = data.get(key) if key is not None else None
    return party if isinstance(party, dict) else None


def match(
    register: Register, kind: str, data: dict[str, Any]
) -> tuple[Candidate | None, list[Candidate]]:
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


def question(register: Register, kind: str, data: dict[str, Any]) -> list[Candidate]:
    """The records the case's party may be, when which one it is is a question (else [])."""
    taken, candidates = match(register, kind, data)
    return candidates if taken is None else []


def typed_name(kind: str, data: dict[str, Any]) -> str:
    """The party's name as typed in the draft ("" when none is)."""
    return str((party_of(kind, data) or {}).get("name") or "")


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
        choices=choices(register, draft.jurisdiction, data, candidates, priced(draft.kind)),
        priced=priced(draft.kind),
        typed=typed_name(draft.kind, data),
        copies=form.get("copies") == "1",
        language=str(form.get("language") or "").strip() or None,
        error=error,
    )


def answered(
    request: Request, draft: Draft, data: dict[str, Any], chosen: str | None
) -> Response | None:
    """None when the clerk's answer (or no question) lets the draft be issued; else the
    page asked again with the field's error (no answer, or no such record). The register
    names the document as the record chosen is held (docgen.register.people.choices.named_as),
    unless :func:`keeps_name`."""
    if chosen is None:
        if posted(request).get("_choosing") == "1":  # the page was sent with no answer
            return _asked_again(request, draft, data, UNANSWERED)
        return None
    if chosen.lower() == NEW:
        return None
    number = parse_id(chosen)
    try:
        if number is None:
            raise DocgenError(chosen)
        request.app.state.register().respondent(number)
    except DocgenError:
        error = f"{chosen} is no record in the register; choose one of those listed"
        return _asked_again(request, draft, data, error)
    return None


def keeps_name(request: Request, chosen: str | None) -> bool:
    """The clerk chose a record and ticked "keep the name as typed": the document keeps
    the typed name, recorded as another name of that record (never said of a new one)."""
    picked = chosen is not None and chosen.lower() != NEW
    return picked and posted(request).get("keep_name") == "1"


def _asked_again(request: Request, draft: Draft, data: dict[str, Any], error: str) -> Response:
    """The question asked again, its field saying what was wrong with the answer."""
    candidates = question(request.app.state.register(), draft.kind, data)
    return page(request, draft, data, candidates, error)
