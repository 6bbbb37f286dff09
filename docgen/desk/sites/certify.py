"""The clerk's side of the contractors' certifications: sites, invitations and what came of
them (docgen.register.sites.invitations). The clerk, the officer or an administrator adds a site;
they, or the applicant or developer acting for the site (a developer's account, bound to
its sites: it reaches those sites' pages and nothing else, LAW.md § 5), invite each firm
(the link e-mailed through the municipality's mail server, or shown with a QR code to hand
over when there is none), revoke a link, and see each firm invited, opened, signed (when,
by whom, the number), expired or revoked; the SWPPP's signed certifications download as
one PDF that the register records and seals (docgen.register.sites.certification_sets). The
firms' own pages are docgen.desk.public.certify_public.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.cases.common import read_date
from docgen.desk.admin import accounts
from docgen.desk.base.web import (
    attachment,
    denied,
    guarded,
    id_of,
    once,
    posted,
    register,
    render,
)
from docgen.desk.server import renderers
from docgen.desk.sites import certify_work
from docgen.desk.sites.swppp_site import PLAN_FIELDS, site_section
from docgen.documents.fee_statement import KIND as STATEMENT
from docgen.errors import CaseInvalid
from docgen.law.packs import load_pack, pack_names
from docgen.register.plans import swppp
from docgen.register.sites import invitations
from docgen.register.sites.invitation_mail import MailFailed, link_for, message, send, smtp_of
from docgen.settings import load_settings

SITE_LABELS = {
    "project.name": "Project",
    "project.swppp": "SWPPP",
    "project.permit": "SPDES permit or NOI",
    "site.address.street": "Street",
    "site.address.city": "City",
    "site.address.state": "State",
    "site.address.zip": "ZIP code",
    "site.description": "Description of the site",
    "site": "Site",
}


def _jurisdictions() -> list[tuple[str, str]]:
    return [(name, load_pack(name).name.value) for name in pack_names()]


def _reach(request: Request) -> frozenset[int] | None:
    """The sites the visitor may reach: None for every one (a role that manages the
    certifications), else those a developer's account acts for."""
    visitor = request.scope["visitor"]
    if visitor.may("certify"):
        return None
    return accounts.sites_of(request.app.state.db, visitor.user_id)


SitePage = Callable[[Request, invitations.SiteView], Response]


def at_site(page: SitePage) -> Callable[[Request], Response]:
    """A page about the site in the path: 403 for a site the visitor does not act for
    (whether or not it exists: a developer learns nothing of other sites), 404 for no
    such site; checked before anything is read from the form or recorded."""

    @wraps(page)
    def route(request: Request) -> Response:
        site_id = id_of(request.path_params["site"])
        reach = _reach(request)
        if reach is not None and site_id not in reach:
            return denied(request, "this site is not one you act for")
        try:
            where = (
                invitations.site(register(request).engine, site_id) if site_id is not None else None
            )
        except invitations.InvitationError:
            where = None
        if where is None:
            return render(request, "missing.html.j2", status=404, what="site")
        return page(request, where)

    return route


@guarded("invite")
def site_list(request: Request) -> Response:
    return _sites_page(request, {}, [])


def _sites_page(
    request: Request, typed: dict[str, str], error: list[str], status: int = 200
) -> Response:
    reach = _reach(request)
    found = invitations.sites(register(request).engine)
    return render(
        request,
        "certification_sites.html.j2",
        status=status,
        sites=[s for s in found if reach is None or s.id in reach],
        jurisdictions=_jurisdictions(),
        typed=typed,
        error=error,
    )


@guarded("certify")
def add_site(request: Request) -> Response:
    return once(request, _add_site)


def _add_site(request: Request) -> Response:
    form = posted(request)
    typed = {k: str(v).strip() for k, v in form.items() if isinstance(v, str)}
    error = []
    began = None
    if typed.get("began"):
        try:
            began = read_date(typed["began"])
        except ValueError as err:
            error.append(f"Land development began: {err}")
    address = {k: typed.get(f"site.address.{k}", "") for k in ("street", "city", "state", "zip")}
    site: dict[str, Any] = {}
    if address["street"] or address["city"] or address["zip"]:
        site["address"] = address
    if typed.get("site.description"):
        site["description"] = typed["site.description"]
    project = {k: typed.get(f"project.{k}", "") for k in ("name", "swppp", "permit")}
    project = {k: v for k, v in project.items() if v or k == "name"}
    jurisdiction = typed.get("jurisdiction", "")
    if jurisdiction not in dict(_jurisdictions()):
        error.append("Municipality: choose one")
    if not error:
        try:
            made = invitations.add_site(
                register(request).engine, jurisdiction, project, site, began, acting_as(request)
            )
            return RedirectResponse(f"/certifications/{made}", status_code=303)
        except CaseInvalid as err:
            error = [_said(p.field, p.message) for p in err.problems]
    return _sites_page(request, typed, error, 400)


def _said(path: str, message: str) -> str:
    label = SITE_LABELS.get(path) or path.replace("_", " ")
    return f"{label}: {message}"


def acting_as(request: Request) -> str:
    """Who the visitor acts as, as the register records it (their name, or a developer's
    account by its role): the site pages' ``by``."""
    visitor = request.scope["visitor"]
    return invitations.made_as(visitor.name, visitor.role)


@guarded("invite")
@at_site
def site_page(request: Request, where: invitations.SiteView) -> Response:
    return render_site_page(request, where)


def render_site_page(
    request: Request,
    where: invitations.SiteView,
    status: int = 200,
    error: list[str] | None = None,
    typed: dict[str, str] | None = None,
    handed: dict[str, str] | None = None,
    done: str = "",
) -> Response:
    """The site's page: its invitations, its SWPPP and fees, with what went wrong
    (``error``, answered with ``status``), what was typed, a link to hand over."""
    found = invitations.invitations(register(request).engine, where.id)
    return render(
        request,
        "certification_site.html.j2",
        swppp=site_section(register(request).engine, where),
        plan_fields=PLAN_FIELDS,
        swppp_done=request.query_params.get("swppp", ""),
        fees=_states_fees(where.jurisdiction),
        status=status,
        site=where,
        invitations=found,
        signed=[i for i in found if i.number],
        expires=invitations.default_expires(where).isoformat(),
        mail=smtp_of(where.jurisdiction) is not None,
        who_signs_ref=load_pack(where.jurisdiction).part("certification").who_signs.ref,
        error=error or [],
        typed=typed or {},
        handed=handed,
        done=done,
    )


def _states_fees(jurisdiction: str) -> bool:
    """Whether the municipality's law provides a statement of fees (§ 228-79D)."""
    entry = load_pack(jurisdiction).provisions.get(STATEMENT.name)
    return bool(entry and entry.value)


@guarded("invite")
@at_site
def invite(request: Request, where: invitations.SiteView) -> Response:
    return once(request, lambda request: _invite(request, where))


def _invite(request: Request, where: invitations.SiteView) -> Response:
    form = posted(request)
    typed = {k: str(form.get(k) or "").strip() for k in ("firm", "email", "expires")}
    try:
        expires = read_date(typed["expires"])
    except ValueError as err:
        return render_site_page(request, where, 400, [f"Link works until: {err}"], typed)
    engine = register(request).engine
    try:
        made, token = invitations.invite(
            engine, where.id, typed["firm"], typed["email"], expires, acting_as(request)
        )
    except invitations.InvitationError as err:
        return render_site_page(request, where, 400, str(err).splitlines(), typed)
    base = str(request.base_url)
    local = _public_address(where.jurisdiction)
    link = link_for(where.jurisdiction, token, local or base)
    smtp = smtp_of(where.jurisdiction)
    if smtp is not None and made.email:
        plan = swppp.approved(engine, where.id)
        mail = message(
            where.jurisdiction, smtp.sender, made.email, made.firm, where.name, link, expires, plan
        )
        try:
            send(smtp, mail)
        except MailFailed as err:
            return render_site_page(request, where, 200, [str(err)], handed=_handed(made, link))
        invitations.mark_mailed(engine, made.id)
        done = f"The invitation was e-mailed to {made.firm} at {made.email}."
        return render_site_page(request, where, done=done)
    return render_site_page(request, where, handed=_handed(made, link))


def _public_address(jurisdiction: str) -> str | None:
    local = load_settings(jurisdiction)
    verification = local.settings.verification if local is not None else None
    return verification.address if verification is not None else None


def _handed(made: invitations.InvitationView, link: str) -> dict[str, str]:
    """The link shown once, with its QR code (an SVG data URI: the page allows data:
    images and nothing else from outside)."""
    # xml, segno, urllib take 11 ms to import: loaded on first use
    import segno

    qr = segno.make(link, error="m")
    return {"firm": made.firm, "link": link, "qr": qr.svg_data_uri(scale=4, border=2)}


@guarded("invite")
@at_site
def revoke(request: Request, where: invitations.SiteView) -> Response:
    return once(request, lambda request: _revoke(request, where))


def _revoke(request: Request, where: invitations.SiteView) -> Response:
    wanted = id_of(str(posted(request).get("invitation") or ""))
    ours = {i.id for i in invitations.invitations(register(request).engine, where.id)}
    if wanted is None or wanted not in ours:
        return render_site_page(request, where, 400, ["Invitation: not one of this site's"])
    try:
        invitations.revoke(register(request).engine, wanted, acting_as(request))
    except invitations.InvitationError as err:
        return render_site_page(request, where, 400, [str(err)])
    return RedirectResponse(f"/certifications/{where.id}", status_code=303)


@guarded("invite")
@at_site
def all_certifications(request: Request, where: invitations.SiteView) -> Response:
    """The SWPPP's signed certifications as one PDF, each as issued, in the order signed:
    recorded and sealed by the register, so Verify and the public check know it."""
    url = request.app.state.database_url
    tag, body = renderers.run(certify_work.certification_set, url, where.id, acting_as(request))
    if tag != "pdf":
        return render_site_page(request, where, 404 if tag == "unsigned" else 503, [body])
    name = f"{where.name}-contractor-certifications-{date.today().isoformat()}.pdf"
    return Response(
        body, media_type="application/pdf", headers={"content-disposition": attachment(name)}
    )


routes = [
    Route("/certifications", site_list, methods=["GET"]),
    Route("/certifications", add_site, methods=["POST"]),
    Route("/certifications/{site}", site_page, methods=["GET"]),
    Route("/certifications/{site}/invite", invite, methods=["POST"]),
    Route("/certifications/{site}/revoke", revoke, methods=["POST"]),
    Route("/certifications/{site}/all.pdf", all_certifications, methods=["GET"]),
]
