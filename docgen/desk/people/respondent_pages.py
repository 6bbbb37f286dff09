"""A respondent's page: their history in the register (documents, offenses and
dispositions), their preferred language, and a new notice for them started from their
latest notice or order.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base.web import (
    guarded,
    id_of,
    once,
    posted,
    register,
    render,
    typed,
)
from docgen.desk.documents.document_page import notice_from
from docgen.desk.drafting import drafts
from docgen.documents import get_kind
from docgen.errors import DocgenError, without_notes
from docgen.law.taglines import language_name
from docgen.register.rules.copies import rendition_languages
from docgen.register.storage.db import Refused


@guarded("register")
def respondent(request: Request) -> Response:
    done = "Preferred language saved." if request.query_params.get("done") == "language" else ""
    return _respondent_page(request, done=done)


def _respondent_page(
    request: Request, done: str = "", error: list[str] | None = None, status: int = 200
) -> Response:
    try:
        history = register(request).history(respondent_id(request))
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    return render(
        request,
        "respondent.html.j2",
        status=status,
        history=history,
        languages=_languages(history.respondent.language),
        done=done,
        error=error or [],
    )


LANGUAGE_LABEL = "Preferred language"  # the form's field, as its refusal names it


def _languages(kept: str | None) -> list[tuple[str, str]]:
    """(value, label) of the respondent's language choice (LAW.md § 13): no preference,
    English, each language docgen issues courtesy copies in (from the kinds' renditions),
    and the one kept when a case named another."""
    choices = [("", "No preference kept (English only)"), ("en", "English (no courtesy copy)")]
    choices += [(c, f"{language_name(c)}: a courtesy copy too") for c in rendition_languages()]
    if kept and kept not in {value for value, _ in choices}:
        choices.append(
            (kept, f"{language_name(kept)} ({kept}), as a case named it: no courtesy copy")
        )
    return choices


@guarded("enforce")
def respondent_language(request: Request) -> Response:
    return once(request, _respondent_language)


def _respondent_language(request: Request) -> Response:
    """Keep the language the respondent prefers, as the clerk chose it: the next document
    issued to them offers a courtesy copy in it (LAW.md § 13)."""
    try:
        rid = respondent_id(request)
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    chosen = typed(posted(request).get("language"))
    try:
        register(request).prefer_language(rid, chosen, by=request.scope["visitor"].name)
    except Refused as err:
        said = [without_notes(line) for line in err.said(lambda _: LANGUAGE_LABEL)]
        return _respondent_page(request, error=said, status=400)
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    return RedirectResponse(f"/respondents/{rid}?done=language", status_code=303)


def respondent_id(request: Request) -> int:
    """The respondent's id in the path (not a sane id: not found)."""
    found = id_of(request.path_params["id"])
    if found is None:
        raise DocgenError("no such respondent")
    return found


@guarded("enforce")
def notice_for(request: Request) -> Response:
    return once(request, _notice_for)


def _notice_for(request: Request) -> Response:
    """A new notice for a respondent in the register, filled from their latest notice or
    order (its site, its recipient and its copies; never their latest document as such,
    which is often an affidavit of service naming one person and no site)."""
    try:
        history = register(request).history(respondent_id(request))
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    latest = next((d for d in history.documents if get_kind(d.kind).new_notice_from), None)
    if latest is not None:
        return notice_from(request, latest)
    # The respondent's own municipality (from any record of theirs), else the visitor's.
    known = [d.jurisdiction for d in history.documents] + [o.jurisdiction for o in history.offenses]
    jurisdiction = (
        known[0] if known else drafts.default_jurisdiction(request, drafts.opening_kind())
    )
    if jurisdiction is None:  # several municipalities and nothing to go by: the clerk chooses
        return RedirectResponse("/drafts", status_code=303)
    pairs = [["recipient.name", history.respondent.name]]
    return drafts.new_draft(request, drafts.opening_kind(), jurisdiction, pairs)


routes = [
    Route("/respondents/{id}", respondent, methods=["GET"]),
    Route("/respondents/{id}/notice", notice_for, methods=["POST"]),
    Route("/respondents/{id}/language", respondent_language, methods=["POST"]),
]
