"""Issuing a draft from the desk: the respondent chosen where the match is a question, the
correction it makes, counsel's final where the kind takes one, and the register's issue
(in a rendering process of the desk's, or by the queue's worker).
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base import forms
from docgen.desk.base.web import (
    document_url,
    guarded,
    once,
    posted,
    render,
    typed,
)
from docgen.desk.documents import actions
from docgen.desk.drafting import choosing, draft_files, drafts
from docgen.desk.issuing import queued
from docgen.desk.server import renderers
from docgen.errors import CaseInvalid, Problem
from docgen.instruments.docx_checks import MAX_FINAL_BYTES
from docgen.register import Issue
from docgen.render.processes import RendererLost, RenderTooBig


@guarded(None)
def issue(request: Request) -> Response:
    """Number, record and render a draft through the register (as `docgen issue` does),
    once however often the form is sent; only a kind the visitor's role issues (a notice
    by a clerk, an instrument by an attorney: own_draft finds no other)."""
    return once(request, _issue)


def _issue(request: Request) -> Response:
    draft = drafts.own_draft(request)
    if draft is None:
        return render(request, "missing.html.j2", status=404, what="draft")
    if draft.issued_as:
        return RedirectResponse(issued_at(request, draft), status_code=303)
    chosen = typed(posted(request).get("respondent"))
    data = drafts.issuable(draft)
    asked_again = choosing.answered(request, draft, data, chosen)
    if asked_again is not None:
        return asked_again
    asked = Issue(
        respondent=chosen,
        keep_name=choosing.keeps_name(request, chosen),  # else named as the record is held
        supersedes=actions.supersedes(draft),
        jurisdiction=draft.jurisdiction,  # whose number it corrects, where two share it
        final=_final(posted(request).get("final")),
        copies=posted(request).get("copies") == "1",  # a copy for each person in copies_to
        language=typed(posted(request).get("language")),  # a courtesy rendition (LAW.md § 13)
    )
    case_dir = draft_files.case_dir(draft)  # the photos sent from the phone, the exhibit
    if queued.queue_name():  # a worker issues it, with all the desk would issue it with
        register = request.app.state.register()  # the match is a read: asked here, so the
        if chosen is None and (candidates := choosing.question(register, draft.kind, data)):
            return choosing.page(request, draft, data, candidates)  # job carries the answer
        try:  # its photos carried in its job
            return queued.defer_issue(request, draft, data, asked, case_dir, _uploaded(draft))
        except CaseInvalid as err:  # as the register would refuse it: nothing is queued
            return drafts.refused(request, draft, err.problems)
    by = request.scope["visitor"].name
    url = request.app.state.database_url
    try:
        tag, result = renderers.run(renderers.issue, url, draft.kind, data, asked, by, case_dir)
    except RenderTooBig:
        raise
    except RendererLost as err:  # it may have been recorded just before
        advice = "Look for it in the register before you issue it again."
        raise RendererLost(err.why, advice) from None
    if tag == "ambiguous":
        return choosing.page(request, draft, data, result)
    if tag == "problems":
        return drafts.refused(request, draft, result)
    if tag == "refused":
        return drafts.refused(request, draft, [Problem("", result)])
    drafts.mark_issued(request, draft, result)
    return RedirectResponse(document_url(request, result, draft.jurisdiction), status_code=303)


def issued_at(request: Request, draft: Any) -> str:
    """The address of the document a draft was issued as (of the draft's municipality)."""
    return document_url(request, draft.issued_as, draft.jurisdiction)


def _uploaded(draft: Any) -> dict[str, str]:
    """The files uploaded to the draft's file fields ({field: the name the desk made})."""
    typed = forms.values(draft.fields)
    paths = forms.uploads(forms.form_for(draft.kind, draft.jurisdiction))
    return {path: typed[path] for path in paths if typed.get(path)}


def _final(upload: UploadFile | str | None) -> bytes | None:
    """Counsel's final DOCX sent with Issue (an instrument's), or None when none was chosen;
    the register refuses one it cannot record (docgen.register.matter.finals), a larger one too:
    no more than one byte past the limit is read."""
    if upload is None or isinstance(upload, str) or not upload.filename:
        return None
    return upload.file.read(MAX_FINAL_BYTES + 1)


routes = [
    Route("/drafts/{draft}/issue", issue, methods=["POST"]),
    Route("/drafts/{draft}/issuing", queued.issuing, methods=["GET"]),
]
