"""Contractors certify for themselves (§ 228-78B(4); § 301-71D): sites, invitations, and the
certification each firm signs through its own link.

A site (:class:`~docgen.register.storage.models.CertificationSite`) is the land development
activity whose SWPPP gathers the certifications. The clerk or officer invites each firm
responsible for erosion and sediment control or post-construction practices: the link
carries a token of 256 random bits (``secrets.token_urlsafe``); the register keeps only
its SHA-256, so a copy of the database opens no link. A link works for its one firm and
site, until the last day the inviter set, unless revoked or used: an expired, revoked,
used or unknown token is the same :class:`InvalidLink`, which says nothing of which. A
link made by a developer's desk account ends with that account: removing the account
revokes its open links (:func:`revoke_made_by`, docgen.desk.admin.accounts), and a link whose
developer's account is gone opens nothing even so.

Signing issues the firm's own contractor certification through the register (one
transaction: the number, the sealed PDF, the invitation marked used, a paper scan kept as
a file of the document with its SHA-256), so `docgen verify` and the public check answer
for it like any issued document: docgen.register.sites.certifying, the firm's side.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import ValidationError
from sqlalchemy import Engine, select

from docgen.cases.certification import Contractor, Project
from docgen.cases.common import Site as SiteModel
from docgen.documents.contractor_certification import signed_late
from docgen.errors import CaseInvalid, DocgenError, Problem
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.storage import db
from docgen.register.storage.audit import record
from docgen.register.storage.models import (
    CertificationSite,
    DeskUser,
    Document,
    Invitation,
)

# The desk roles whose links end with their account: a developer identifies its site's
# firms (§ 228-78B(4)(a)) only while it acts for the site (docgen.desk.base.auth.SITE_BOUND).
# A clerk's or officer's link is the municipality's and outlives the account.
ENDS_WITH_ACCOUNT = ("developer",)
TOKEN_BYTES = 32  # 256 bits: guessing is hopeless, whatever the rate limit
LONGEST = 366  # days an invitation may run
DEFAULT_DAYS = 30  # days an invitation runs unless the inviter says
EMAIL = re.compile(r"[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")


class InvalidLink(DocgenError):
    """An invitation's token that opens nothing: unknown, expired, revoked or used alike."""

    def __init__(self) -> None:
        super().__init__("this link is not valid")


class InvitationError(DocgenError):
    """A refused invitation, site or scan: names the field and what is wrong."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


@dataclass(frozen=True)
class SiteView:
    id: int
    jurisdiction: str
    project: dict[str, Any]
    site: dict[str, Any]
    began: date | None

    @property
    def label(self) -> str:
        return SiteModel.model_validate(self.site).label()

    @property
    def name(self) -> str:
        return str(self.project["name"])


@dataclass(frozen=True)
class InvitationView:
    """An invitation as the site's page lists it (never its token)."""

    id: int
    site_id: int
    firm: str
    email: str | None
    expires: date
    created_at: datetime
    created_by: str
    mailed_at: datetime | None
    opened_at: datetime | None
    revoked_at: datetime | None
    signed_at: datetime | None
    signed_by: str | None
    method: str | None
    number: str | None
    status: str  # invited, opened, signed, expired, revoked
    late: bool = False  # dated after land development began (§ 228-78B(4)(a); § 301-71D(1))


def site_view(row: CertificationSite) -> SiteView:
    """The site as the pages and the firm's form show it."""
    return SiteView(row.id, row.jurisdiction, row.project, row.site, row.began)


def status_of(row: Invitation, today: date) -> str:
    if row.document_id is not None:
        return "signed"
    if row.revoked_at is not None:
        return "revoked"
    if row.expires < today:
        return "expired"
    return "opened" if row.opened_at is not None else "invited"


def invitation_view(
    row: Invitation, number: str | None, today: date, late: bool = False
) -> InvitationView:
    """The invitation as the site's page shows it: its status ``today``, the number it
    signed, whether that was after the work began (``late``)."""
    return InvitationView(
        row.id,
        row.site_id,
        row.firm,
        row.email,
        row.expires,
        row.created_at,
        row.created_by,
        row.mailed_at,
        row.opened_at,
        row.revoked_at,
        row.signed_at,
        row.signed_by,
        row.method,
        number,
        status_of(row, today),
        late,
    )


def now() -> datetime:
    """This instant, in the machine's zone: when a link is opened or signed."""
    return datetime.now().astimezone()


def zone_of(jurisdiction: str) -> ZoneInfo:
    """The municipality's time zone (its pack's), in which every moment of signing is shown."""
    return ZoneInfo(load_pack(jurisdiction).part("certification").time_zone.value)


def today_in(jurisdiction: str) -> date:
    """The municipality's date (its pack's time zone), never the server's."""
    return municipal_today(load_pack(jurisdiction))


_today = today_in


# -- sites -------------------------------------------------------------------------------


def add_site(
    engine: Engine,
    jurisdiction: str,
    project: dict[str, Any],
    site: dict[str, Any],
    began: date | None,
    by: str,
) -> int:
    """A new site whose firms may be invited; its project and site are checked as the
    certification's own fields (every problem at once, by field)."""
    pack = load_pack(jurisdiction)
    problems = []
    try:
        checked_project = Project.model_validate({**project, "began": began})
    except Exception as err:
        problems += _problems("project", err)
    try:
        checked_site = SiteModel.model_validate(site)
        if not checked_site.given():
            problems.append(
                Problem("site", "needs an address or another identifying description", "")
            )
    except Exception as err:
        problems += _problems("site", err)
    if problems:
        raise CaseInvalid(problems, "the site")
    with db.write_session(engine) as session:
        row = CertificationSite(
            jurisdiction=pack.id,
            project=checked_project.model_dump(mode="json", exclude_none=True, exclude={"began"}),
            site=checked_site.model_dump(mode="json", exclude_none=True),
            began=began,
            created_at=now(),
            created_by=by,
        )
        session.add(row)
        session.flush()
        record(session, by, "add", "certification-site", row.id, {"jurisdiction": pack.id})
        return row.id


def _problems(prefix: str, err: Exception) -> list[Problem]:
    if not isinstance(err, ValidationError):
        raise err
    return [
        Problem(
            ".".join([prefix, *(str(p) for p in e["loc"])]),
            e["msg"].removeprefix("Value error, "),
            "",
        )
        for e in err.errors()
    ]


def sites(engine: Engine) -> list[SiteView]:
    with db.read_session(engine) as session:
        rows = session.scalars(select(CertificationSite).order_by(CertificationSite.id.desc()))
        return [site_view(r) for r in rows]


def site(engine: Engine, site_id: int) -> SiteView:
    with db.read_session(engine) as session:
        row = session.get(CertificationSite, site_id)
        if row is None:
            raise InvitationError(f"site {site_id}: no such site in this register")
        return site_view(row)


# -- invitations -------------------------------------------------------------------------


def invite(
    engine: Engine, site_id: int, firm: str, email: str | None, expires: date, by: str
) -> tuple[InvitationView, str]:
    """A new invitation for ``firm`` at the site: (its record, the token for its link:
    shown or sent once, never stored)."""
    firm = " ".join(firm.split())
    email = (email or "").strip() or None
    where = site(engine, site_id)
    today = _today(where.jurisdiction)
    problems = []
    if not firm:
        problems.append("Firm: missing; give the contracting firm's name")
    elif len(firm) > 500:
        problems.append("Firm: longer than 500 characters")
    if email is not None and not EMAIL.fullmatch(email):
        problems.append(f"E-mail address: {email[:80]!r} is not an e-mail address")
    if expires <= today:
        problems.append(f"Expires: {expires.isoformat()} is not after today ({today.isoformat()})")
    elif (expires - today).days > LONGEST:
        problems.append(f"Expires: an invitation runs at most {LONGEST} days")
    if problems:
        raise InvitationError("\n".join(problems))
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with db.write_session(engine) as session:
        row = Invitation(
            site_id=site_id,
            firm=firm,
            email=email,
            token_sha256=token_hash(token),
            expires=expires,
            created_at=now(),
            created_by=by,
        )
        session.add(row)
        session.flush()
        record(session, by, "invite", "invitation", row.id, {"site": site_id})
        return invitation_view(row, None, today), token


def default_expires(where: SiteView) -> date:
    return _today(where.jurisdiction) + timedelta(days=DEFAULT_DAYS)


def mark_mailed(engine: Engine, invitation_id: int) -> None:
    with db.write_session(engine) as session:
        row = session.get(Invitation, invitation_id)
        if row is not None:
            row.mailed_at = now()


def made_as(name: str, role: str) -> str:
    """Who made an invitation from the desk, as it is recorded: ``sam (developer)``."""
    return f"{name} ({role})"


def revoke_made_by(session: Any, inviter: str, by: str) -> int:
    """Revoke every open (unsigned, unrevoked) link ``inviter`` made, in the caller's write
    transaction; how many. A signed certification stands as issued."""
    rows = session.scalars(
        select(Invitation).where(
            Invitation.created_by == inviter,
            Invitation.document_id.is_(None),
            Invitation.revoked_at.is_(None),
        )
    ).all()
    for row in rows:
        row.revoked_at, row.revoked_by = now(), by
        record(session, by, "revoke", "invitation", row.id, {"site": row.site_id})
    return len(rows)


def inviter_gone(session: Any, inviter: str) -> bool:
    """Whether ``inviter`` is a developer's desk account that has since been removed."""
    name, _, role = inviter.removesuffix(")").rpartition(" (")
    if role not in ENDS_WITH_ACCOUNT:
        return False
    found = select(DeskUser.id).where(DeskUser.name == name, DeskUser.removed.is_not(None))
    return session.scalar(found) is not None


def revoke(engine: Engine, invitation_id: int, by: str) -> InvitationView:
    """The invitation's link stops working at once (a signed one stays signed)."""
    with db.write_session(engine) as session:
        row = session.get(Invitation, invitation_id)
        if row is None:
            raise InvitationError(f"invitation {invitation_id}: no such invitation")
        if row.document_id is not None:
            raise InvitationError(
                f"invitation {invitation_id}: {row.firm} has already signed; the "
                "certification stands as issued"
            )
        if row.revoked_at is None:
            row.revoked_at, row.revoked_by = now(), by
            record(session, by, "revoke", "invitation", row.id, {"site": row.site_id})
        where = session.get(CertificationSite, row.site_id)
        assert where is not None
        return invitation_view(row, None, _today(where.jurisdiction))


def invitations(engine: Engine, site_id: int) -> list[InvitationView]:
    with db.read_session(engine) as session:
        where = session.get(CertificationSite, site_id)
        if where is None:
            raise InvitationError(f"site {site_id}: no such site in this register")
        today = _today(where.jurisdiction)
        rows = session.execute(
            select(Invitation, Document.number, Document.case)
            .outerjoin(Document, Invitation.document_id == Document.id)
            .where(Invitation.site_id == site_id)
            .order_by(Invitation.id)
        ).all()
        return [
            invitation_view(row, number, today, _late(case, where.began))
            for row, number, case in rows
        ]


def _late(case: dict[str, Any] | None, began: date | None) -> bool:
    """Whether the issued certification ``case`` is dated after land development began."""
    if case is None:
        return False
    return signed_late(Contractor.model_validate(case["contractors"][0]), began)


def signed_numbers(engine: Engine, site_id: int) -> list[str]:
    """The numbers of the certifications signed for the site, in the order signed."""
    return [
        i.number
        for i in sorted(invitations(engine, site_id), key=lambda i: i.signed_at or i.created_at)
        if i.number is not None
    ]
