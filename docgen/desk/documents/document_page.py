"""One issued document's page: its files (the exact bytes issued), its service, returns
and dispositions with their forms, what may be done with it (docgen.desk.base.offers), the
changes recorded on it, and a new notice started from it.

Every form is a call into docgen.register (the same methods as `docgen record-service`,
`record-disposition`); the desk adds no rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base import forms, offers
from docgen.desk.base.web import (
    FORMAT_TYPES,
    Page,
    attachment,
    chosen,
    document_url,
    guarded,
    once,
    posted,
    register,
    render,
    shared_numbers,
)
from docgen.desk.documents import record_forms
from docgen.desk.drafting import drafts
from docgen.documents import KINDS
from docgen.documents.affidavit_of_service import MAIL
from docgen.errors import DocgenError
from docgen.register.matter.finals import (
    COUNSEL_FILES,
    DRAFT_PURPOSE,
    FINAL_PDF_A,
    NAMES,
    PURPOSES,
    file_name_end,
)
from docgen.register.reading.queries import file_type
from docgen.register.rules.copies import copy_for, copy_of, rendition_name
from docgen.register.rules.parts import part_for
from docgen.register.storage import db
from docgen.register.storage.models import DISPOSITIONS, RETURN_REASONS, SERVICE_METHODS, Document


def affidavits(reg: Any, document_id: int) -> list[str]:
    """The numbers of the affidavits of service recorded about a document."""
    # Not the other documents about it: a lifting, an appeal's steps, an extension letter.
    others = [k for k in KINDS if KINDS[k].lifts or KINDS[k].appeal_step or KINDS[k].extends]
    proofs = (Document.about_id == document_id, Document.kind.not_in(others))
    query = select(Document.number).where(*proofs).order_by(Document.id)
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        return list(session.scalars(query))


def document_page(
    request: Request,
    number: str,
    error: list[str] | str = "",
    status: int = 200,
    done: str = "",
    typed_for: str = "",
    bad: set[str] | None = None,
    asked: record_forms.Asked | None = None,
) -> Response:
    """A document's page; with ``typed_for`` ("service", "disposition") that form keeps
    what was typed in it (a refusal never wipes a form); ``asked``: the question a refused
    step asks next, beside its field, focus there."""
    try:
        record = register(request).document(number, chosen(request))
    except DocgenError:
        if (choosing := choice_of(request, number)) is not None:
            return choosing
        return render(request, "missing.html.j2", status=404, what="document")
    return render(
        request,
        "document.html.j2",
        status=status,
        doc=record,
        files=downloads(record),
        affidavits=affidavits(register(request), record.id),
        methods=SERVICE_METHODS,
        dispositions=DISPOSITIONS,
        reasons=RETURN_REASONS,
        open=[
            (i, s)
            for i, s in enumerate(record.services)
            if s.method in MAIL and s.outcome is None and s.received is None
        ],
        labels=record_forms.FORMS,
        error=[error] if isinstance(error, str) and error else error,
        done=done,
        may_serve=request.scope["visitor"].may("enforce"),
        actions=offers.for_document(request, record),
        typed=dict(posted(request)) if typed_for else {},
        typed_for=typed_for,
        bad=bad or set(),
        asked=asked,
    )


def choice_of(request: Request, number: str) -> Response | None:
    """The page offering each municipality's document numbered ``number`` when its address
    names none and two municipalities share the number (never a guess: an action posted to
    that address did nothing); None when the number is not shared."""
    if chosen(request) is not None or number not in shared_numbers(request):
        return None
    tail = request.url.path.removeprefix(f"/documents/{number}")
    posting = request.method != "GET"
    found = [
        (d, document_url(request, d.number, d.jurisdiction, "" if posting else tail))
        for d in register(request).holders(number)
    ]
    return render(request, "choose_document.html.j2", status=300, number=number,
                  found=found, posting=posting)  # fmt: skip


def addressed(page: Page) -> Page:
    """``page`` of a document, or the choice of the municipalities' documents when its
    address names a number two municipalities share and not which one's it is."""

    @wraps(page)
    def choosing(request: Request) -> Response:
        choice = choice_of(request, request.path_params["number"])
        return choice if choice is not None else page(request)

    return choosing


@dataclass(frozen=True)
class Download:
    """One stored file on a document's page: its link, what it is and its SHA-256."""

    stored: str  # the stored format: pdf, or copy1.pdf (docgen.register.rules.copies)
    label: str
    sha256: str
    purpose: str = ""  # what the file is for (counsel's files: docgen.register.matter.finals)
    to_record: bool = False  # the one file the County Clerk records


def downloads(record: Any) -> list[Download]:
    """The document's stored files, each copy named by whose it is (LAW.md § 9); with
    counsel's final, the PDF/A to record first, then the rest each saying what it is for."""

    def order(stored: str) -> tuple[int, int, int]:  # counsel's, the original's, each copy's
        if stored in COUNSEL_FILES:
            return (0, COUNSEL_FILES.index(stored), 0)
        copy = copy_of(stored)
        return (1, copy[0] + 1 if copy else 0, list(FORMAT_TYPES).index(file_type(stored)))

    finalized = FINAL_PDF_A in record.hashes
    found = []
    for stored in sorted(record.hashes, key=order):
        digest = record.hashes[stored]
        whose = copy_for(record.case, stored)
        part = part_for(record.kind, record.case, stored)
        if whose:
            label = f"the copy for {whose}, {file_type(stored).upper()}"
        elif (language := rendition_name(stored)) is not None:
            label = f"the {language} courtesy copy, {file_type(stored).upper()}"
        elif stored in COUNSEL_FILES:
            label = f"{file_type(stored).upper()}, {NAMES[stored]}"
        elif part:
            label = f"the part of {part}, {file_type(stored).upper()}"
        elif stored.startswith("scan."):
            label = f"the signed scan, {file_type(stored).upper()}"
        else:
            label = stored.upper()
        purpose = PURPOSES.get(stored, DRAFT_PURPOSE if finalized else "")
        found.append(Download(stored, f"Download {label}", digest, purpose, stored == FINAL_PDF_A))
    return found


# What a page says after a change it was redirected from (a reload never repeats it).
DONE = {
    "service": "Service recorded.",
    "disposition": "Disposition recorded.",
    "receipt": "Return receipt recorded on its mailing and annexed to its affidavit.",
    "returned": "Returned mailing recorded: it completes no service. Serve again by another means.",
    "appeal": "Appeal recorded and its acknowledgment issued.",
    "hearing": "Notice of hearing issued.",
    "decision": "Decision on the appeal recorded and issued.",
    "extend": "Later date granted and its letter issued.",
}


@guarded("register")
@addressed
def document(request: Request) -> Response:
    done = DONE.get(request.query_params.get("done", ""), "")
    return document_page(request, request.path_params["number"], done=done)


@guarded("register")
@addressed
def download(request: Request) -> Response:
    """The stored bytes of one format, exactly as issued (never rendered again)."""
    number, fmt = request.path_params["number"], request.path_params["fmt"]
    try:
        record = register(request).document(number, chosen(request))
        blob = register(request).files(number, record.jurisdiction).get(fmt)
    except DocgenError:
        blob = None
    kind = file_type(fmt)
    if blob is None or kind not in FORMAT_TYPES:
        return render(request, "missing.html.j2", status=404, what="file")
    copy = copy_of(fmt)  # named as `issue --copies`, `issue --final` and `export` name them
    part = f"copy-{copy[0] + 1}" if copy else fmt.split(".")[0]
    name = f"{record.number}-{record.kind}" + ("" if fmt == kind else f"-{part}")
    if (end := file_name_end(fmt)) is not None:
        name = f"{record.number}-{record.kind}-{end}".rsplit(".", 1)[0]
    return Response(
        blob,
        media_type=FORMAT_TYPES[kind],
        headers={"content-disposition": attachment(f"{name}.{kind}")},
    )


@guarded("enforce")
@addressed
def change(request: Request) -> Response:
    """Record service or a disposition of a document; the register's refusal is shown on
    the document's page, a success is redirected to it (a reload never records twice)."""
    number, what = request.path_params["number"], request.path_params["what"]
    if what not in record_forms.CHANGES:
        return render(request, "missing.html.j2", status=404, what="page")
    return once(request, lambda request: _change(request, number, what))


def _change(request: Request, number: str, what: str) -> Response:
    change = record_forms.CHANGES[what]
    visitor, where = request.scope["visitor"].name, chosen(request)
    try:
        change(register(request), number, posted(request), visitor, where)
    except DocgenError as err:
        error, bad = record_forms.said(err, what), record_forms.fields(err)
        return document_page(request, number, error, 400, typed_for=what, bad=bad)
    return RedirectResponse(document_url(request, number, where, done=what), status_code=303)


KNOWN = ("recipient", "copies_to", "site")  # what a new notice takes from an earlier one


# Each mailed piece has its own article number (LAW.md § 2): never carried to a new notice.
PIECE = ("certified_article",)


def notice_from(request: Request, record: Any) -> Response:
    """A new notice draft filled with the recipient, the copies and the site of an issued
    document (the persons without the article numbers of the pieces mailed to them)."""

    def person(p: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in p.items() if k not in PIECE}

    known = {k: record.case[k] for k in KNOWN if record.case.get(k)}
    if "recipient" in known:
        known["recipient"] = person(known["recipient"])
    if "copies_to" in known:
        known["copies_to"] = [person(p) for p in known["copies_to"]]
    recipient = known.get("recipient")
    if isinstance(recipient, dict) and record.respondent is not None:
        # The language the register keeps now (LAW.md § 13), not the one the earlier case
        # said: the clerk may have changed it on the respondent's page since.
        recipient = {k: v for k, v in recipient.items() if k != "language"}
        if record.respondent.language:
            recipient["language"] = record.respondent.language
        known["recipient"] = recipient
    pairs = forms.pairs_of(known)
    return drafts.new_draft(request, drafts.opening_kind(), record.jurisdiction, pairs)


@guarded("enforce")
@addressed
def notice_at(request: Request) -> Response:
    return once(request, _notice_at)


def _notice_at(request: Request) -> Response:
    """A new notice at the site of an issued document (and to the same recipient)."""
    try:
        record = register(request).document(request.path_params["number"], chosen(request))
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="document")
    return notice_from(request, record)


routes = [
    Route("/documents/{number}", document, methods=["GET"]),
    Route("/documents/{number}/file.{fmt}", download, methods=["GET"]),
    Route("/documents/{number}/notice", notice_at, methods=["POST"]),
    Route("/documents/{number}/{what}", change, methods=["POST"]),
]
