"""A firm's own certification: ``/certify/TOKEN``, the link its invitation carries, open
without an account (docgen.register.sites.invitations).

The page asks for what the law requires of the firm (§ 228-78B(4)(b); § 301-71D(2)): its
address and telephone, the signer's name and title, the trained contractor and the practices
it is responsible for (GP-0-25-001), and shows the site's law's statement verbatim from the
pack, never from the request (a request carrying another statement is refused). The firm
signs electronically (its full name typed, the intent to sign affirmed: State Technology
Law art. 3) or on paper (the filled form downloaded, the signed scan uploaded). Either way
the register issues the firm's own certification; the firm name and the site are the
invitation's, never the request's.

Protected like the desk: a double-submitted CSRF token (cookie and field), a limit of
requests per address and of unknown links per address (one page for every link that
does not work, whatever the reason), a body budget of its own (docgen.desk.server.limits.CERTIFY:
the scan and the form, not the signed-in pages' 20 MB) read only once the link is known
to work, and no case data in a log line.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from docgen.cases.common import read_date
from docgen.desk.base import auth
from docgen.desk.base.web import CSRF_FIELD, attachment, checked_field, client_of, pages
from docgen.desk.server import renderers
from docgen.desk.server.limits import RateLimit
from docgen.desk.sites import certify_work
from docgen.law.deadlines import local_time
from docgen.law.packs import load_pack
from docgen.register.plans import swppp
from docgen.register.sites import certifying, invitations

log = logging.getLogger("docgen.desk.certify")

COOKIE = "docgen_certify_csrf"
INTENT = (
    "I intend this typed name to be my signature on this certification, with the same "
    "validity and effect as my handwritten signature, under New York's Electronic "
    "Signatures and Records Act (State Technology Law, article 3)."
)
# The fields of the form, by the case path under the firm's entry, with their labels.
LABELS = {
    "role": "Your firm is",
    "address.street": "Street",
    "address.city": "City",
    "address.state": "State",
    "address.zip": "ZIP code",
    "address": "Firm's address",
    "phone": "Telephone",
    "signer.name": "Signer's full name",
    "signer.title": "Signer's title",
    "trained_contractor.name": "Trained contractor",
    "trained_contractor.trained": "Date of most recent training",
    "trained_contractor": "Trained contractor",
    "responsibilities": "Practices your firm is responsible for",
    "electronic_signature.name": "Signature",
    "electronic_signature": "Signature",
    "signed": "Date you signed",
    "intent": "I intend to sign electronically",
    "statement": "Certification statement",
    "scan": "Signed scan",
}
TEXT_FIELDS = (
    "role",
    "address.street",
    "address.city",
    "address.state",
    "address.zip",
    "phone",
    "signer.name",
    "signer.title",
    "trained_contractor.name",
    "trained_contractor.trained",
    "responsibilities",
)
REQUESTS = 60  # requests per address per WINDOW
MISSES = 10  # links that do not work, per address per WINDOW
WINDOW = 600.0
MAX_FIELDS = 40
MAX_PART = 64 * 1024  # bytes of one text field


def _limits(request: Request) -> tuple[RateLimit, RateLimit]:
    state = request.app.state
    if not hasattr(state, "certify_limits"):
        state.certify_limits = (RateLimit(REQUESTS, WINDOW), RateLimit(MISSES, WINDOW))
    limits: tuple[RateLimit, RateLimit] = state.certify_limits
    return limits


def _page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = pages().get_template(f"certify/{template}").render(context)
    return HTMLResponse(html, status_code=status)


def _limited(request: Request) -> HTMLResponse:
    response = _page(request, "limited.html.j2", 429, minutes=int(WINDOW // 60))
    response.headers["retry-after"] = str(int(WINDOW))
    return response


def _invalid(request: Request) -> HTMLResponse:
    """The one page for every link that does not work (unknown, expired, revoked, used)."""
    if not _limits(request)[1].allow(client_of(request)):
        log.warning("certification links refused after repeated misses from %s", client_of(request))
        return _limited(request)
    return _page(request, "invalid.html.j2", 404)


def _engine(request: Request) -> Any:
    return request.app.state.register().engine


def _token(request: Request) -> str:
    token: str = request.path_params["token"]  # the route's {token} is text
    return token


def _statement_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _open(engine: Any, token: str) -> certifying.Opened:
    """The invitation of ``token`` with the site's approved SWPPP, which the certification
    becomes part of (§ 228-78B(4)(c); § 301-71D(3)): the page names it."""
    opened = certifying.open_link(engine, token)
    return replace(opened, plan=swppp.approved(engine, opened.site.id))


async def form_page(request: Request) -> Response:
    if not _limits(request)[0].allow(client_of(request)):
        return _limited(request)
    try:
        opened = await run_in_threadpool(_open, _engine(request), _token(request))
    except invitations.InvalidLink:
        return _invalid(request)
    csrf = request.cookies.get(COOKIE) or auth.new_csrf()
    return _form(request, opened, csrf, {}, {})


def _form(
    request: Request,
    opened: certifying.Opened,
    csrf: str,
    typed: dict[str, str],
    errors: dict[str, str],
    status: int = 200,
    template: str = "form.html.j2",
) -> HTMLResponse:
    text, ref = certifying.statement(opened.site.jurisdiction)

    pack = load_pack(opened.site.jurisdiction)
    cert = pack.part("certification")
    response = _page(
        request,
        template,
        status,
        token=_token(request),
        invitation=opened.invitation,
        site=opened.site,
        plan=opened.plan,
        part_of_swppp=cert.part_of_swppp.ref,
        municipality=pack.name.value,
        statement=text,
        statement_ref=ref,
        statement_hash=_statement_hash(text),
        who_signs=cert.who_signs,
        permit=cert.permit,
        training_years=cert.training_valid_years,
        typed=typed,
        errors=errors,
        labels=LABELS,
        intent=INTENT,
        csrf=csrf,
        csrf_field=CSRF_FIELD,
        today=invitations.today_in(opened.site.jurisdiction).isoformat(),
    )
    secure = request.app.state.secure_cookies
    response.set_cookie(
        COOKIE, csrf, httponly=True, secure=secure, samesite="strict", path="/certify"
    )
    return response


async def submit(request: Request) -> Response:
    if not _limits(request)[0].allow(client_of(request)):
        return _limited(request)
    try:  # the link first: a body sent to a link that does not work is never read
        opened = await run_in_threadpool(_open, _engine(request), _token(request))
    except invitations.InvalidLink:
        return _invalid(request)
    form = await request.form(max_files=1, max_fields=MAX_FIELDS, max_part_size=MAX_PART)
    typed: dict[str, str] = {}
    upload: bytes | None = None
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            if name == "scan":
                upload = await value.read(certifying.MAX_SCAN + 1)
        else:
            typed[name] = checked_field(name, value)
    cookie = request.cookies.get(COOKIE)
    if not auth.same_token(cookie, typed.get(CSRF_FIELD)):
        errors = {"form": "This form is out of date (or cookies are off); check it and send again."}
        return _form(request, opened, auth.new_csrf(), typed, errors, 403)
    return await run_in_threadpool(_act, request, opened, cookie or "", typed, upload)


def _act(
    request: Request,
    opened: certifying.Opened,
    csrf: str,
    typed: dict[str, str],
    upload: bytes | None,
) -> Response:
    action = typed.get("action", "")
    errors = {}
    text, _ = certifying.statement(opened.site.jurisdiction)
    if typed.get("statement") != _statement_hash(text):
        errors["statement"] = (
            "the statement sent is not the one the law gives; reload the page and read it "
            "again (nothing was recorded)"
        )
    entry = entry_of(opened, typed)
    today = invitations.today_in(opened.site.jurisdiction)
    if action == "electronic":
        entry["signed"] = today.isoformat()
        signature = " ".join(typed.get("signature", "").split())
        entry["electronic_signature"] = {
            "name": typed.get("signature", ""),
            "at": _moment(opened.site.jurisdiction),
            "intent": INTENT,
        }
        if typed.get("intent") != "yes":
            errors["intent"] = "tick the box to sign electronically, or sign on paper"
        signer = " ".join(str(typed.get("signer.name", "")).split())
        if signature and signer and signature.casefold() != signer.casefold():
            errors["electronic_signature.name"] = (
                f"type your full name exactly as under Signer's full name ({signer})"
            )
    elif action == "upload":
        try:
            signed = read_date(typed.get("signed", ""))
            if signed > today:
                errors["signed"] = f"{signed.isoformat()} is after today; give the day you signed"
            entry["signed"] = signed.isoformat()
        except ValueError as err:
            errors["signed"] = str(err)
        try:
            certifying.scan_format(upload or b"")
            entry["paper_scan"] = hashlib.sha256(upload or b"").hexdigest()
        except invitations.InvitationError as err:
            errors["scan"] = str(err).removeprefix("Signed scan: ")
    elif action not in ("paper", "download"):
        errors["form"] = "choose how to sign: electronically, or on paper"
    problems = renderers.run(certify_work.problems, certifying.case_for(opened.site, entry))[1]
    for path, message in problems:
        errors.setdefault(_field(path), message)
    if errors:
        # The paper page's own fields (the date, the scan) are fixed there; any other
        # field on the form that holds it.
        paper = action == "upload" and set(errors) <= {"signed", "scan"}
        template = "paper.html.j2" if paper else "form.html.j2"
        return _form(request, opened, csrf, typed, errors, 400, template)
    case = certifying.case_for(opened.site, entry)
    if action == "paper":
        return _form(request, opened, csrf, typed, {}, template="paper.html.j2")
    if action == "download":
        pdf = renderers.run(certify_work.paper_form, case)[1]
        name = f"{opened.invitation.firm}-contractor-certification.pdf"
        return Response(
            pdf, media_type="application/pdf", headers={"content-disposition": attachment(name)}
        )
    method = "electronic" if action == "electronic" else "paper"
    intent = INTENT if method == "electronic" else None
    url = request.app.state.database_url
    outcome, value = renderers.run(
        certify_work.sign, url, _token(request), entry, method, intent, upload
    )
    if outcome == "problems":
        return _form(request, opened, csrf, typed, {_field(p): m for p, m in value}, 400)
    if outcome == "refused":
        return _form(request, opened, csrf, typed, {"form": value}, 503)
    number, sealed = value
    return _page(
        request,
        "signed.html.j2",
        number=number,
        sealed=sealed,
        municipality=load_pack(opened.site.jurisdiction).name.value,
        firm=opened.invitation.firm,
        site=opened.site,
        token=_token(request),
        method=method,
    )


def _moment(jurisdiction: str) -> str:
    """Now on the municipality's clock, for the case's check; the register stamps the
    instant it records as the signing's (certifying.signed_at)."""
    here = invitations.zone_of(jurisdiction)
    return local_time(datetime.now(here), here)


def _field(path: str) -> str:
    """The form's field for a problem's case path (``contractors[0].address.zip``)."""
    rest = path.removeprefix("contractors[0].").removeprefix("contractors[0]")
    rest = rest.split("[")[0]
    while rest and rest not in LABELS:
        rest = rest.rpartition(".")[0]
    return rest or "form"


def entry_of(opened: certifying.Opened, typed: dict[str, str]) -> dict[str, Any]:
    """The firm's part of the case from what it typed; the firm's name is the invitation's."""

    def get(name: str) -> str:
        return typed.get(name, "")

    entry: dict[str, Any] = {
        "firm": opened.invitation.firm,
        "role": get("role") or "contractor",
        "address": {k: get(f"address.{k}") for k in ("street", "city", "state", "zip")},
        "phone": get("phone"),
        "signer": {"name": get("signer.name"), "title": get("signer.title")},
        "responsibilities": [
            line.strip() for line in get("responsibilities").split("\n") if line.strip()
        ],
    }
    trained, when = get("trained_contractor.name"), get("trained_contractor.trained")
    if trained.strip() or when.strip():
        entry["trained_contractor"] = {"name": trained, "trained": when}
    return entry


async def signed_copy(request: Request) -> Response:
    """The firm's certification as issued (its sealed PDF), for the link that signed it."""
    if not _limits(request)[0].allow(client_of(request)):
        return _limited(request)
    reg = request.app.state.register()
    found = await run_in_threadpool(certifying.signed_file, reg, _token(request))
    if found is None:
        return _invalid(request)
    number, pdf = found
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"content-disposition": attachment(f"{number}-contractor-certification.pdf")},
    )


class RedactTokens(logging.Filter):
    """A certification link's token in a logged address becomes ``****``: the server's log
    never holds a link that opens a firm's form."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub(r"\1****", a) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.msg, str):
            record.msg = _TOKEN.sub(r"\1****", record.msg)
        return True


_TOKEN = re.compile(r"(/certify/)[^/\s?]+")


def redact_logs() -> None:
    """Keep tokens out of uvicorn's access log and the desk's own (once per process)."""
    for name in ("uvicorn.access", "docgen.desk"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


routes = [
    Route("/certify/{token}", form_page, methods=["GET"]),
    Route("/certify/{token}", submit, methods=["POST"]),
    Route("/certify/{token}/certification.pdf", signed_copy, methods=["GET"]),
]
