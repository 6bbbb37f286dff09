"""The register in the browser: documents with filters, a respondent's history, service
and dispositions, downloads of the exact bytes issued, and the verify page.

Every page is a call into docgen.register (the same methods as `docgen history`,
`record-service`, `record-disposition`, `verify`); the desk adds no rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk import clock, queued, record_forms
from docgen.desk.web import attachment, checked_field, guarded, id_of, once, posted, render
from docgen.errors import DocgenError
from docgen.instruments.docx_checks import MAX_FINAL_BYTES
from docgen.law.deadlines import long_date
from docgen.register.queries import file_type

FORMAT_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "html": "text/html; charset=utf-8",
    "png": "image/png",  # a paper-signed certification's scan
    "jpg": "image/jpeg",
}
FILTER_LABELS = {  # the register's named lists (docgen.register.filters), as statuses
    "awaiting-service": "Awaiting service",
    "served": "Served",
    "appeal-running": "Appeal period running",
    "appeal-passed": "Appeal deadline passed",
    "remedies-overdue": "Remedies overdue",
    "stop-work-in-effect": "Stop-work in effect",
    "lifted": "Stop-work lifted",
    "superseded": "Superseded by a correction",
}
MAX_UPLOAD = 20 * 1024 * 1024
PAGE = 50  # documents listed, newest first


def register(request: Request) -> Any:
    return request.app.state.register()


@dataclass(frozen=True)
class Listed:
    """One row of the documents page."""

    number: str
    kind: str
    issued: date
    jurisdiction: str
    recorded_at: datetime
    respondent_id: int | None
    respondent: str | None
    site: str | None
    served: date | None  # the day service was complete (docgen.register.standing)
    appeal_deadline: date | None  # the kept deadline: the latest any service gave
    superseded_by: str | None


@dataclass(frozen=True)
class Wanted:
    """What the documents page lists: the register's named list (a status), a kind, a
    municipality, a search (in the number, the respondent's name, the site's address and
    tax map number), a range of issue dates, a page; ``problems`` with the range as typed
    (``typed``: from and to, shown back) list nothing until they are put right."""

    name: str | None = None
    kind: str | None = None
    search: str = ""
    page: int = 1
    jurisdiction: str | None = None
    start: date | None = None
    end: date | None = None
    typed: tuple[str, str] = ("", "")
    problems: tuple[str, ...] = ()

    def query(self, page: int | None = None) -> str:
        """The query string of this list on ``page`` (every filter kept)."""
        from urllib.parse import urlencode

        pairs = {
            "q": self.search,
            "kind": self.kind,
            "jurisdiction": self.jurisdiction,
            "filter": self.name,
            "from": self.typed[0],
            "to": self.typed[1],
        }
        pairs["page"] = str(page or self.page) if (page or self.page) > 1 else None
        return urlencode({k: v for k, v in pairs.items() if v})

    @property
    def narrowed(self) -> bool:
        return any((self.name, self.kind, self.jurisdiction, self.search, self.start, self.end))


def wanted(request: Request) -> Wanted:
    from docgen.documents import MODULES
    from docgen.law.packs import pack_names
    from docgen.register.filters import FILTERS

    params = request.query_params
    name = params.get("filter") or None
    kind = params.get("kind") or None
    where = params.get("jurisdiction") or None
    page = params.get("page", "1")
    typed = (params.get("from", "").strip()[:40], params.get("to", "").strip()[:40])
    problems: list[str] = []
    start = _range_end(typed[0], "Issued from", problems)
    end = _range_end(typed[1], "Issued to", problems)
    if start and end and start > end:
        problems.append(
            f"Issued from ({long_date(start)}) is after issued to ({long_date(end)}): no "
            "date is in that range. Swap the two dates."
        )
    return Wanted(
        name if name in FILTERS else None,
        kind if kind in MODULES else None,
        " ".join(checked_field("Search", params.get("q", "")).split())[:100],
        int(page) if page.isascii() and page.isdigit() and 0 < len(page) <= 5 else 1,
        where if where in pack_names() else None,
        start,
        end,
        typed,
        tuple(problems),
    )


def _range_end(text: str, label: str, problems: list[str]) -> date | None:
    """A date of the range as typed (YYYY-MM-DD, as a date field sends it); one that is
    impossible (February 30) or not a date goes to ``problems``, said as case dates are."""
    from pydantic import TypeAdapter, ValidationError

    from docgen.cases.common import IsoDate

    if not text:
        return None
    try:
        return TypeAdapter(IsoDate).validate_python(text)
    except ValidationError as err:
        problems.append(f"{label}: {err.errors()[0]['ctx']['error']}.")
        return None


def listing(reg: Any, want: Wanted, limit: int) -> list[Listed]:
    """The newest documents in the register's named list (docgen.register.filters), read
    in one query: the page's ids first (the filter's rules are the register's own), then
    their details, so nothing costs a query per row; the day each was served is the
    register's derived one (docgen.register.queries.served_days), read for the page only."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import aliased

    from docgen.register import db
    from docgen.register.filters import apply, kept_deadline_column
    from docgen.register.models import Document, Respondent, Site
    from docgen.register.queries import served_days
    from docgen.register.store import _today

    newest = (Document.issued.desc(), Document.id.desc())
    ids = select(Document.id).order_by(*newest).limit(limit).offset((want.page - 1) * PAGE)
    if want.kind:
        ids = ids.where(Document.kind == want.kind)
    if want.jurisdiction:
        ids = ids.where(Document.jurisdiction == want.jurisdiction)
    if want.start:
        ids = ids.where(Document.issued >= want.start)
    if want.end:
        ids = ids.where(Document.issued <= want.end)
    if want.search:
        like = "%" + want.search.replace("\\", "").replace("%", "").replace("_", "") + "%"
        ids = (
            ids.outerjoin(Respondent, Document.respondent_id == Respondent.id)
            .outerjoin(Site, Document.site_id == Site.id)
            .where(
                Document.number.ilike(like)
                | Respondent.name.ilike(like)
                | Site.address.ilike(like)
                | Site.tax_map.ilike(like)
            )
        )
    page = apply(ids, want.name, _today()).subquery()
    successor = aliased(Document)
    query = (
        select(
            Document.id,
            Document.number,
            Document.kind,
            Document.issued,
            Document.jurisdiction,
            Document.recorded_at,
            Respondent.id,
            Respondent.name,
            func.coalesce(Site.address, Site.description),
            kept_deadline_column(),
            select(successor.number)
            .where(successor.supersedes_id == Document.id)
            .scalar_subquery(),
        )
        .join(page, page.c.id == Document.id)
        .outerjoin(Respondent, Document.respondent_id == Respondent.id)
        .outerjoin(Site, Document.site_id == Site.id)
        .order_by(*newest)
    )
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        rows = session.execute(query).all()
        served = served_days(session, [row[0] for row in rows])
    return [Listed(*row[1:9], served.get(row[0]), *row[9:]) for row in rows]


def affidavits(reg: Any, document_id: int) -> list[str]:
    """The numbers of the affidavits of service recorded about a document."""
    from sqlalchemy import select

    from docgen.documents import kinds_with
    from docgen.register import db
    from docgen.register.models import Document

    proofs = (Document.about_id == document_id, Document.kind.not_in(kinds_with(lifts=True)))
    query = select(Document.number).where(*proofs).order_by(Document.id)
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        return list(session.scalars(query))


@guarded("register")
def documents(request: Request) -> Response:
    return _documents(request, wanted(request))


def _documents(request: Request, want: Wanted) -> Response:
    """The documents page; a range that is impossible or reversed lists nothing (400) and
    says why, with the filters as typed."""
    from docgen.documents import MODULES
    from docgen.law.packs import pack_names
    from docgen.register.filters import FILTERS

    rows = [] if want.problems else listing(register(request), want, PAGE + 1)
    return render(
        request,
        "documents.html.j2",
        status=400 if want.problems else 200,
        documents=rows[:PAGE],
        more=len(rows) > PAGE,
        want=want,
        kinds=tuple(MODULES),
        zones={name: clock.zone(name) for name in pack_names()},
        filters=[(name, FILTER_LABELS.get(name, name)) for name in FILTERS],
        chosen=want.name,
        page=PAGE,
    )


EXPORT_LIMIT = 10_000  # rows of one export
# A spreadsheet runs a cell starting so (";" and "|" in some locales and DDE), also after
# leading white space ("\t=cmd|...").
FORMULA = ("=", "+", "-", "@", ";", "|", "\t", "\r", "\n")
COLUMNS = (
    "number", "kind", "jurisdiction", "issued", "recorded_at", "time_zone", "respondent",
    "site", "served", "appeal_deadline", "superseded_by",
)  # fmt: skip


def _cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula is quoted
    with a leading apostrophe."""
    text = "" if value is None else str(value)
    formula = text.startswith(FORMULA) or text.lstrip(" \t\r\n").startswith(FORMULA)
    return "'" + text if formula else text


def _exported(row: Listed, here: Any) -> dict[str, Any]:
    """One row of an export: dates as YYYY-MM-DD, the moment it was recorded in the
    municipality's zone with its offset (ISO 8601), and that zone's name."""
    values = {name: getattr(row, name, None) for name in COLUMNS}
    values["recorded_at"] = row.recorded_at.astimezone(here).isoformat(timespec="seconds")
    values["time_zone"] = here.key
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in values.items()}


@guarded("register")
def export(request: Request) -> Response:
    """The documents page's list, every page of it (the same status, kind, municipality,
    search and dates), as CSV or JSON."""
    import csv
    import io
    import json

    fmt = request.path_params["fmt"]
    if fmt not in ("csv", "json"):
        return render(request, "missing.html.j2", status=404, what="page")
    want = wanted(request)
    if want.problems:
        return _documents(request, want)
    zones: dict[str, Any] = {}
    rows = [
        _exported(d, zones.setdefault(d.jurisdiction, clock.zone(d.jurisdiction)))
        for d in listing(register(request), replace(want, page=1), EXPORT_LIMIT)
    ]
    if fmt == "json":
        body = json.dumps({"documents": rows}, ensure_ascii=False, indent=1)
        media = "application/json"
    else:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        writer.writerows([_cell(row[name]) for name in COLUMNS] for row in rows)
        body, media = out.getvalue(), "text/csv; charset=utf-8"
    return Response(
        body, media_type=media, headers={"content-disposition": attachment(f"documents.{fmt}")}
    )


def _document_page(
    request: Request,
    number: str,
    error: list[str] | str = "",
    status: int = 200,
    done: str = "",
    typed_for: str = "",
    bad: set[str] | None = None,
) -> Response:
    """A document's page; with ``typed_for`` ("service", "disposition") that form keeps
    what was typed in it (a refusal never wipes a form)."""
    from docgen.desk import actions
    from docgen.documents.affidavit_of_service import MAIL
    from docgen.register.models import DISPOSITIONS, RETURN_REASONS, SERVICE_METHODS

    try:
        record = register(request).document(number)
    except DocgenError:
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
        actions=actions.for_document(request, record),
        typed=dict(posted(request)) if typed_for else {},
        typed_for=typed_for,
        bad=bad or set(),
    )


@dataclass(frozen=True)
class Download:
    """One stored file on a document's page: its link, what it is and its SHA-256."""

    stored: str  # the stored format: pdf, or copy1.pdf (docgen.register.copies)
    label: str
    sha256: str
    purpose: str = ""  # what the file is for (counsel's files: docgen.register.finals)
    to_record: bool = False  # the one file the County Clerk records


def downloads(record: Any) -> list[Download]:
    """The document's stored files, each copy named by whose it is (LAW.md § 9); with
    counsel's final, the PDF/A to record first, then the rest each saying what it is for."""
    from docgen.register.copies import copy_for, copy_of, rendition_name
    from docgen.register.finals import COUNSEL_FILES, DRAFT_PURPOSE, FINAL_PDF_A, PURPOSES
    from docgen.register.parts import part_for

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
            label = f"{file_type(stored).upper()}, {PURPOSES[stored].split(':')[0]}"
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
}


@guarded("register")
def document(request: Request) -> Response:
    done = DONE.get(request.query_params.get("done", ""), "")
    return _document_page(request, request.path_params["number"], done=done)


@guarded("register")
def download(request: Request) -> Response:
    """The stored bytes of one format, exactly as issued (never rendered again)."""
    number, fmt = request.path_params["number"], request.path_params["fmt"]
    try:
        record = register(request).document(number)
        blob = register(request).files(number).get(fmt)
    except DocgenError:
        blob = None
    kind = file_type(fmt)
    if blob is None or kind not in FORMAT_TYPES:
        return render(request, "missing.html.j2", status=404, what="file")
    from docgen.register.copies import copy_of
    from docgen.register.finals import file_name_end

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


def _text(value: Any) -> str | None:
    return str(value or "").strip() or None


@guarded("enforce")
def change(request: Request) -> Response:
    """Record service or a disposition of a document; the register's refusal is shown on
    the document's page, a success is redirected to it (a reload never records twice)."""
    number, what = request.path_params["number"], request.path_params["what"]
    if what not in record_forms.CHANGES:
        return render(request, "missing.html.j2", status=404, what="page")
    return once(request, lambda request: _change(request, number, what))


def _change(request: Request, number: str, what: str) -> Response:
    change = record_forms.CHANGES[what]
    try:
        change(register(request), number, posted(request), request.scope["visitor"].name)
    except DocgenError as err:
        error, bad = record_forms.said(err, what), record_forms.fields(err)
        return _document_page(request, number, error, 400, typed_for=what, bad=bad)
    return RedirectResponse(f"/documents/{number}?done={what}", status_code=303)


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
    from docgen.law.taglines import language_name
    from docgen.register.copies import rendition_languages

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
    from docgen.register.db import Refused

    try:
        rid = respondent_id(request)
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    chosen = _text(posted(request).get("language"))
    try:
        register(request).prefer_language(rid, chosen, by=request.scope["visitor"].name)
    except Refused as err:
        return _respondent_page(request, error=err.said(lambda _: LANGUAGE_LABEL), status=400)
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    return RedirectResponse(f"/respondents/{rid}?done=language", status_code=303)


def respondent_id(request: Request) -> int:
    """The respondent's id in the path (not a sane id: not found)."""
    found = id_of(request.path_params["id"])
    if found is None:
        raise DocgenError("no such respondent")
    return found


KNOWN = ("recipient", "copies_to", "site")  # what a new notice takes from an earlier one
# Each mailed piece has its own article number (LAW.md § 2): never carried to a new notice.
PIECE = ("certified_article",)


def _notice_from(request: Request, record: Any) -> Response:
    """A new notice draft filled with the recipient, the copies and the site of an issued
    document (the persons without the article numbers of the pieces mailed to them)."""
    from docgen.desk import drafts, forms

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
def notice_for(request: Request) -> Response:
    return once(request, _notice_for)


def _notice_for(request: Request) -> Response:
    """A new notice for a respondent in the register, filled from their latest notice or
    order (its site, its recipient and its copies; never their latest document as such,
    which is often an affidavit of service naming one person and no site)."""
    from docgen.desk import drafts
    from docgen.documents import get_kind

    try:
        history = register(request).history(respondent_id(request))
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="respondent")
    latest = next((d for d in history.documents if get_kind(d.kind).new_notice_from), None)
    if latest is not None:
        return _notice_from(request, latest)
    # The respondent's own municipality (from any record of theirs), else the visitor's.
    known = [d.jurisdiction for d in history.documents] + [o.jurisdiction for o in history.offenses]
    jurisdiction = (
        known[0] if known else drafts.default_jurisdiction(request, drafts.opening_kind())
    )
    if jurisdiction is None:  # several municipalities and nothing to go by: the clerk chooses
        return RedirectResponse("/drafts", status_code=303)
    pairs = [["recipient.name", history.respondent.name]]
    return drafts.new_draft(request, drafts.opening_kind(), jurisdiction, pairs)


@guarded("enforce")
def notice_at(request: Request) -> Response:
    return once(request, _notice_at)


def _notice_at(request: Request) -> Response:
    """A new notice at the site of an issued document (and to the same recipient)."""
    try:
        record = register(request).document(request.path_params["number"])
    except DocgenError:
        return render(request, "missing.html.j2", status=404, what="document")
    return _notice_from(request, record)


@guarded("register")
def verify_page(request: Request) -> Response:
    return _verified(request)


@guarded("register")
def verify(request: Request) -> Response:
    """Upload a PDF (or DOCX): issued by this register, byte for byte, or not."""
    upload = posted(request).get("file")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return _verified(request, error="Choose the file to verify.", status=400)
    blob = upload.file.read(MAX_UPLOAD + 1)
    if len(blob) > MAX_UPLOAD:
        error = "The file is larger than 20 MB; no document issued here is that large."
        return _verified(request, error=error, status=413)
    return _verified(request, result=register(request).verify(blob), checked=True)


def _verified(
    request: Request, result: Any = None, checked: bool = False, error: str = "", status: int = 200
) -> Response:
    return render(
        request, "verify.html.j2", status=status, result=result, checked=checked, error=error
    )


@guarded(None)
def issue(request: Request) -> Response:
    """Number, record and render a draft through the register (as `docgen issue` does),
    once however often the form is sent; only a kind the visitor's role issues (a notice
    by a clerk, an instrument by an attorney: own_draft finds no other)."""
    return once(request, _issue)


def _issue(request: Request) -> Response:
    from docgen.desk import actions, choosing, draft_files, drafts, renderers
    from docgen.errors import Problem

    draft = drafts.own_draft(request)
    if draft is None:
        return render(request, "missing.html.j2", status=404, what="draft")
    if draft.issued_as:
        return RedirectResponse(f"/documents/{draft.issued_as}", status_code=303)
    chosen = _text(posted(request).get("respondent"))
    data, asked_again = choosing.answered(request, draft, drafts.issuable(draft), chosen)
    if asked_again is not None:
        return asked_again
    final = _final(posted(request).get("final"))
    copies = posted(request).get("copies") == "1"  # a copy for each person in copies_to
    language = _text(posted(request).get("language"))  # a courtesy rendition (LAW.md § 13)
    corrects = actions.supersedes(draft)
    case_dir = draft_files.case_dir(draft)  # the photos sent from the phone
    if queued.queue_name() and case_dir is not None:
        why = (
            "the photos sent with this draft are kept by this desk, and its issues are made "
            "by a worker that cannot read them: issue it with `docgen record-inspection`"
        )
        return drafts.refused(request, draft, [Problem("photos", why)])
    if queued.queue_name():  # a worker issues it, with all the desk would issue it with
        return queued.defer_issue(request, draft, data, chosen, corrects, final, copies, language)
    by = request.scope["visitor"].name
    url = request.app.state.database_url
    try:
        tag, result = renderers.run(
            renderers.issue,
            *(url, draft.kind, data, chosen, by, corrects, final, copies, language, case_dir),
        )
    except renderers.RenderTooBig:
        raise
    except renderers.RendererLost as err:  # it may have been recorded just before
        advice = "Look for it in the register before you issue it again."
        raise renderers.RendererLost(err.why, advice) from None
    if tag == "ambiguous":
        return choosing.page(request, draft, data, result)
    if tag == "problems":
        return drafts.refused(request, draft, result)
    if tag == "refused":
        return drafts.refused(request, draft, [Problem("", result)])
    drafts.mark_issued(request, draft, result)
    return RedirectResponse(f"/documents/{result}", status_code=303)


def _final(upload: Any) -> bytes | None:
    """Counsel's final DOCX sent with Issue (an instrument's), or None when none was chosen;
    the register refuses one it cannot record (docgen.register.finals), a larger one too:
    no more than one byte past the limit is read."""
    if upload is None or isinstance(upload, str) or not upload.filename:
        return None
    return upload.file.read(MAX_FINAL_BYTES + 1)


routes = [
    Route("/documents", documents, methods=["GET"]),
    Route("/documents.{fmt}", export, methods=["GET"]),
    Route("/documents/{number}", document, methods=["GET"]),
    Route("/documents/{number}/file.{fmt}", download, methods=["GET"]),
    Route("/documents/{number}/notice", notice_at, methods=["POST"]),
    Route("/documents/{number}/{what}", change, methods=["POST"]),
    Route("/respondents/{id}", respondent, methods=["GET"]),
    Route("/respondents/{id}/notice", notice_for, methods=["POST"]),
    Route("/respondents/{id}/language", respondent_language, methods=["POST"]),
    Route("/verify", verify_page, methods=["GET"]),
    Route("/verify", verify, methods=["POST"]),
    Route("/drafts/{draft}/issue", issue, methods=["POST"]),
    Route("/drafts/{draft}/issuing", queued.issuing, methods=["GET"]),
]
