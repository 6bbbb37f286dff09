"""The register's tables (SQLAlchemy 2 ORM): who was served what, and what came of it.

An issued document is frozen: its row and its files are never updated or deleted (the
migration installs triggers that refuse it, on SQLite and PostgreSQL alike). What
happens afterwards (service, a disposition, a correction) is a new row that points at
it: a service event, the offense's disposition (audited), a superseding document.
"""

from __future__ import annotations

import datetime as dt
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

DISPOSITIONS = ("pending", "convicted", "dismissed", "acquitted", "withdrawn")
SERVICE_METHODS = ("personal-delivery", "certified-mail", "first-class-mail", "posting")
# What comes back after mailing (LAW.md § 2): the return receipt, or the envelope returned
# undelivered for one of the reasons the Postal Service stamps on it.
RECEIPT = "receipt"
RETURNED = "returned"
RETURN_REASONS = ("unclaimed", "refused", "moved", "no-such-address")


# The width kept of the docgen version that issued a document: a version made from a
# checkout without its release tags ("0.0.1.dev371+g...d20261202") may run longer, and the
# register keeps its first characters rather than refusing the document on PostgreSQL.
VERSION_WIDTH = 40


def kept_version(version: str) -> str:
    return version[:VERSION_WIDTH]


class UtcDateTime(TypeDecorator[datetime]):
    """A moment stored in UTC and read back with its offset on both backends (SQLite has
    no time zone type: SQLAlchemy would write the wall-clock time and drop the offset, so
    moments made under different offsets would sort wrongly)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    type_annotation_map: ClassVar = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: UtcDateTime,
    }


class Respondent(Base):
    """A person or firm the register has issued to; matched on ``name_key`` and address."""

    __tablename__ = "respondents"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(500))
    kind: Mapped[str] = mapped_column(String(10))  # person | firm
    name_key: Mapped[str] = mapped_column(String(500), index=True)
    loose_key: Mapped[str] = mapped_column(String(500), index=True)  # see matching.loose_key
    created_at: Mapped[datetime] = mapped_column()
    # The language the respondent prefers (LAW.md § 13): a courtesy copy in it is offered
    # by default when a document is issued to them (docgen.register.rules.copies.offered).
    language: Mapped[str | None] = mapped_column(String(16), default=None)

    aliases: Mapped[list[Alias]] = relationship(back_populates="respondent", lazy="selectin")
    addresses: Mapped[list[RespondentAddress]] = relationship(
        back_populates="respondent", lazy="selectin"
    )


class Alias(Base):
    """Another name the respondent was served under (e.g. a misspelling resolved by hand)."""

    __tablename__ = "respondent_aliases"
    __table_args__ = (UniqueConstraint("respondent_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    respondent_id: Mapped[int] = mapped_column(ForeignKey("respondents.id"))
    name: Mapped[str] = mapped_column(String(500))
    name_key: Mapped[str] = mapped_column(String(500), index=True)
    loose_key: Mapped[str] = mapped_column(String(500), index=True)

    respondent: Mapped[Respondent] = relationship(back_populates="aliases")


class RespondentAddress(Base):
    __tablename__ = "respondent_addresses"
    __table_args__ = (UniqueConstraint("respondent_id", "address_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    respondent_id: Mapped[int] = mapped_column(ForeignKey("respondents.id"))
    street: Mapped[str] = mapped_column(String(500))
    city: Mapped[str] = mapped_column(String(500))
    state: Mapped[str] = mapped_column(String(2))
    zip: Mapped[str] = mapped_column(String(10))
    address_key: Mapped[str] = mapped_column(String(1200), index=True)

    respondent: Mapped[Respondent] = relationship(back_populates="addresses")

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


class Site(Base):
    """Where the activity is: an address and/or a description, and the tax map number."""

    __tablename__ = "sites"

    id: Mapped[int] = mapped_column(primary_key=True)
    site_key: Mapped[str] = mapped_column(String(1200), index=True)
    address: Mapped[str | None] = mapped_column(String(1200))
    description: Mapped[str | None] = mapped_column(Text)
    tax_map: Mapped[str | None] = mapped_column(String(500))


class Document(Base):
    """One issued document, frozen: the case exactly as rendered and its files' hashes."""

    __tablename__ = "documents"
    __table_args__ = (
        UniqueConstraint("jurisdiction", "number"),
        Index("ix_documents_kind_issued", "kind", "issued"),
        Index("ux_documents_source_sha256", "source_sha256", unique=True),
        Index("ix_documents_number", "number"),  # looked up by number alone
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    jurisdiction: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    number: Mapped[str] = mapped_column(String(200))
    issued: Mapped[date] = mapped_column(Date)
    respondent_id: Mapped[int | None] = mapped_column(ForeignKey("respondents.id"), index=True)
    site_id: Mapped[int | None] = mapped_column(ForeignKey("sites.id"))
    # The document this one corrects (docgen supersede); the original stays as it was.
    supersedes_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"), unique=True)
    # The notice an affidavit of service proves service of.
    about_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"), index=True)
    case: Mapped[dict[str, Any]] = mapped_column(JSON)
    remedies_due: Mapped[date | None] = mapped_column(Date)  # the earliest remedy's due date
    docgen_version: Mapped[str] = mapped_column(String(VERSION_WIDTH))
    pack_version: Mapped[str] = mapped_column(String(80))
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))
    # The SHA-256 of the case (or desk draft) that produced it, as asked: issued once.
    source_sha256: Mapped[str | None] = mapped_column(String(64))

    respondent: Mapped[Respondent | None] = relationship(lazy="joined")
    files: Mapped[list[DocumentFile]] = relationship(
        back_populates="document", lazy="selectin", order_by="DocumentFile.format"
    )
    services: Mapped[list[ServiceEvent]] = relationship(
        back_populates="document",
        lazy="selectin",
        order_by="ServiceEvent.id",
        foreign_keys="ServiceEvent.document_id",
    )


class DocumentFile(Base):
    """One format of an issued document: the exact bytes served, and their SHA-256."""

    __tablename__ = "document_files"
    __table_args__ = (UniqueConstraint("document_id", "format"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"))
    format: Mapped[str] = mapped_column(String(10))
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    size: Mapped[int] = mapped_column(Integer)
    content: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)

    document: Mapped[Document] = relationship(back_populates="files")


class Offense(Base):
    """One per notice (or imported from before the register), as the penalty reads it."""

    __tablename__ = "offenses"
    __table_args__ = (
        CheckConstraint(
            "disposition IN ('pending', 'convicted', 'dismissed', 'acquitted', 'withdrawn')",
            name="ck_offenses_disposition",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    respondent_id: Mapped[int] = mapped_column(ForeignKey("respondents.id"), index=True)
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"), unique=True)
    jurisdiction: Mapped[str] = mapped_column(String(40))
    committed: Mapped[date] = mapped_column(Date)
    continued_through: Mapped[date | None] = mapped_column(Date)
    violations: Mapped[list[Any]] = mapped_column(JSON)
    disposition: Mapped[str] = mapped_column(String(20), default="pending")
    disposition_date: Mapped[date | None] = mapped_column(Date)
    convicted: Mapped[date | None] = mapped_column(Date)
    court: Mapped[str | None] = mapped_column(String(500))
    docket: Mapped[str | None] = mapped_column(String(200))
    reference: Mapped[str | None] = mapped_column(String(500))  # imported history's source
    import_batch_id: Mapped[int | None] = mapped_column(ForeignKey("import_batches.id"), index=True)

    document: Mapped[Document | None] = relationship(lazy="joined")


class ImportBatch(Base):
    """One ``register import-history`` run: its file, who ran it, and whether it was
    withdrawn (``--undo``); the offenses it brought in point to it."""

    __tablename__ = "import_batches"

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(String(1000))
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    rows: Mapped[int] = mapped_column(Integer)  # offenses imported
    duplicates: Mapped[int] = mapped_column(Integer)  # rows already in the register
    started_at: Mapped[datetime] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()  # None: still running, or killed
    by: Mapped[str] = mapped_column(String(200))
    undone_at: Mapped[datetime | None] = mapped_column()
    undone_by: Mapped[str | None] = mapped_column(String(200))


class ServiceEvent(Base):
    """Service of a document: how, when, by whom; the appeal deadline computed from it."""

    __tablename__ = "service_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    method: Mapped[str] = mapped_column(String(30))
    date: Mapped[dt.date] = mapped_column(Date)
    received: Mapped[dt.date | None] = mapped_column(Date)
    served_by: Mapped[str] = mapped_column(String(200))
    # Certified-mail article number: each mailed piece has its own (looked up on record).
    article: Mapped[str | None] = mapped_column(String(60), index=True)
    # The deadline this event gives (service on the landowner of an appealable notice).
    appeal_deadline: Mapped[dt.date | None] = mapped_column(Date)
    served_on: Mapped[str | None] = mapped_column(String(500))  # the person served
    role: Mapped[str | None] = mapped_column(String(20))  # landowner, developer, applicant
    time: Mapped[str | None] = mapped_column(String(5))  # HH:MM, personal delivery
    place: Mapped[str | None] = mapped_column(String(1200))  # delivered or posted at
    address: Mapped[str | None] = mapped_column(String(1200))  # the envelope's address
    individual: Mapped[str | None] = mapped_column(String(500))  # who took it for a firm
    capacity: Mapped[str | None] = mapped_column(String(200))  # their office or agency
    description: Mapped[str | None] = mapped_column(Text)  # of the individual served
    received_by: Mapped[str | None] = mapped_column(String(500))  # signed the receipt
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))
    # The affidavit of service made of this event (one per event, LAW.md § 10).
    affidavit_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"), index=True)

    document: Mapped[Document] = relationship(back_populates="services", foreign_keys=[document_id])
    outcome: Mapped[MailOutcome | None] = relationship(
        back_populates="event", lazy="selectin", uselist=False
    )


class MailOutcome(Base):
    """What came back after a mailing (LAW.md § 2), recorded on the mailing's event: the
    return receipt (the day of receipt, who signed, the card's scan; the annex to the
    affidavit of mailing that states it) or the envelope returned undelivered (the day and
    the reason). One per mailing; frozen once written, like the documents it completes."""

    __tablename__ = "mail_outcomes"
    __table_args__ = (
        CheckConstraint("outcome IN ('receipt', 'returned')", name="ck_mail_outcomes_outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("service_events.id"), unique=True)
    outcome: Mapped[str] = mapped_column(String(20))  # receipt | returned
    date: Mapped[dt.date] = mapped_column(Date)  # the day of receipt, or the day returned
    signed_by: Mapped[str | None] = mapped_column(String(500))  # who signed the receipt
    reason: Mapped[str | None] = mapped_column(String(40))  # RETURN_REASONS
    # The deadline the mailing gives with its receipt (a landowner's appealable notice).
    appeal_deadline: Mapped[dt.date | None] = mapped_column(Date)
    scan_sha256: Mapped[str | None] = mapped_column(String(64))  # the card's scan, if any
    annex_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"))
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))

    event: Mapped[ServiceEvent] = relationship(back_populates="outcome")


class Counter(Base):
    """The last number used per jurisdiction, kind and year; locked while a number is taken."""

    __tablename__ = "counters"

    jurisdiction: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    year: Mapped[int] = mapped_column(Integer, primary_key=True)
    last: Mapped[int] = mapped_column(Integer)


class NumberGap(Base):
    """Numbers of a series (jurisdiction, kind, year) never issued here, ``first`` to
    ``last``, and why: recorded when a clerk took a typed number above the series' next."""

    __tablename__ = "number_gaps"
    __table_args__ = (Index("ix_number_gaps_series", "jurisdiction", "kind", "year"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    jurisdiction: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    year: Mapped[int] = mapped_column(Integer)
    first: Mapped[int] = mapped_column(Integer)
    last: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(1000))
    recorded_by: Mapped[str] = mapped_column(String(200))
    recorded_at: Mapped[datetime] = mapped_column()


class AuditEntry(Base):
    """Who did what, and when: one row per change, written in the change's transaction."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(index=True)
    actor: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(40))
    entity: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[int] = mapped_column(Integer)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class RegisterUpgrade(Base):
    """A schema upgrade and the docgen version that made it: an older docgen opening the
    register names the version it needs."""

    __tablename__ = "register_upgrades"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column()
    revision_from: Mapped[str | None] = mapped_column(String(40))
    revision_to: Mapped[str] = mapped_column(String(40))
    version: Mapped[str] = mapped_column(String(100))


class Restore(Base):
    """The register restored from a backup: which backup (its path and SHA-256), the highest
    number of every series it held (``"JURISDICTION notice-of-violation 2026": 7``), and, once the
    clerk has accounted for the numbers used after the backup, the gaps that left
    (``[{"series": ..., "after": 7, "through": 9}]``). Until then nothing is issued."""

    __tablename__ = "restores"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column()
    backup: Mapped[str] = mapped_column(String(1000))
    sha256: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(200))
    highest: Mapped[dict[str, Any]] = mapped_column()
    accounted_at: Mapped[datetime | None] = mapped_column()
    accounted_by: Mapped[str | None] = mapped_column(String(200))
    gaps: Mapped[list[Any] | None] = mapped_column()


class ReinspectionRequest(Base):
    """A reinspection asked for on a notice of deficiency (§ 228-79A(1)): the calendar
    shows it until a reinspection of that notice is recorded on or after the day asked."""

    __tablename__ = "reinspection_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    asked_on: Mapped[date] = mapped_column(Date)
    asked_by: Mapped[str] = mapped_column(String(500))
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))


class LienPayment(Base):
    """A payment on a notice of lien (§ 228-79C(6): a lien "until paid"): the amount in
    cents, the day paid, by whom; the lien is released once the payments cover it."""

    __tablename__ = "lien_payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    amount_cents: Mapped[int] = mapped_column()
    paid_on: Mapped[date] = mapped_column(Date)
    paid_by: Mapped[str] = mapped_column(String(500))
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))


class LogSite(Base):
    """A site whose log book the register keeps (§ 228-78D(2); § 301-73A(2)) and the facts
    that set its interval: a D(2)(c) exemption, a D(2)(d) authorization (yes/no)."""

    __tablename__ = "log_sites"

    id: Mapped[int] = mapped_column(primary_key=True)
    jurisdiction: Mapped[str] = mapped_column(String(40))
    site_id: Mapped[int] = mapped_column(ForeignKey("sites.id"), unique=True)
    started: Mapped[date] = mapped_column(Date)
    ended: Mapped[date | None] = mapped_column(Date)
    exemption: Mapped[str | None] = mapped_column(String(40))
    acre_authorized: Mapped[str] = mapped_column(String(3))
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))

    site: Mapped[Site] = relationship(lazy="joined")


class LogEntry(Base):
    """One report in a site's log book, as the inspector wrote it."""

    __tablename__ = "log_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    log_site_id: Mapped[int] = mapped_column(ForeignKey("log_sites.id"), index=True)
    day: Mapped[date] = mapped_column(Date)
    time: Mapped[str] = mapped_column(String(5))
    inspector: Mapped[str] = mapped_column(String(500))
    qualification: Mapped[str] = mapped_column(String(500))
    role: Mapped[str] = mapped_column(String(30))  # qualified-inspector | trained-contractor
    rainfall: Mapped[str | None] = mapped_column(String(20))  # inches, as written
    findings: Mapped[str] = mapped_column(Text)
    corrective_actions: Mapped[str | None] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(1000))
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))


class CalendarToken(Base):
    """The secret of a user's calendar feed, kept as its SHA-256; revoked, it serves nothing."""

    __tablename__ = "calendar_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_name: Mapped[str] = mapped_column(String(100), index=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column()


class CertificationSite(Base):
    """A land development activity whose SWPPP gathers the contractors' certifications
    (§ 228-78B(4)(c); § 301-71D(3)): its municipality, the project and site as the
    certification prints them, and the day land development began, once it has."""

    __tablename__ = "certification_sites"

    id: Mapped[int] = mapped_column(primary_key=True)
    jurisdiction: Mapped[str] = mapped_column(String(40))
    project: Mapped[dict[str, Any]] = mapped_column()  # cases.certification.Project
    site: Mapped[dict[str, Any]] = mapped_column()  # cases.common.Site
    began: Mapped[date | None] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column()
    created_by: Mapped[str] = mapped_column(String(200))


class Invitation(Base):
    """One firm invited to certify for one site: the link's token kept only as its SHA-256,
    the last day it works, and what became of it (opened, revoked, signed: the document
    issued, how it was signed, and the SHA-256 of what the signer was shown)."""

    __tablename__ = "certification_invitations"

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("certification_sites.id"), index=True)
    firm: Mapped[str] = mapped_column(String(500))
    email: Mapped[str | None] = mapped_column(String(320))
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    expires: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column()
    created_by: Mapped[str] = mapped_column(String(200))
    mailed_at: Mapped[datetime | None] = mapped_column()
    opened_at: Mapped[datetime | None] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column()
    revoked_by: Mapped[str | None] = mapped_column(String(200))
    document_id: Mapped[int | None] = mapped_column(ForeignKey("documents.id"), unique=True)
    signed_at: Mapped[datetime | None] = mapped_column()
    signed_by: Mapped[str | None] = mapped_column(String(500))  # "Name, Title"
    method: Mapped[str | None] = mapped_column(String(20))  # electronic | paper
    shown_sha256: Mapped[str | None] = mapped_column(String(64))


class CertificationSet(Base):
    """The SWPPP's set of a site's signed certifications as one PDF (§ 228-78B(4)(c);
    § 301-71D(3)): the numbers it holds, in the order signed, and the sealed file's bytes
    and SHA-256 (docgen.register.sites.certification_sets). Frozen once written."""

    __tablename__ = "certification_sets"

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("certification_sites.id"))
    numbers: Mapped[list[str]] = mapped_column(JSON)
    holds_sha256: Mapped[str] = mapped_column(String(64), unique=True)  # what it is made of
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    size: Mapped[int] = mapped_column(Integer)
    content: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    signed: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column()
    created_by: Mapped[str] = mapped_column(String(200))


class SwpppPlan(Base):
    """One revision of a site's SWPPP as received (LAW.md § 15): its title, revision or date,
    preparer and qualification, permit or NOI identifier. An amendment names the revision
    it amends and the items of the law's list it changes (§ 228-78B(1)(b)). Frozen."""

    __tablename__ = "swppp_plans"

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("certification_sites.id"), index=True)
    amends_id: Mapped[int | None] = mapped_column(ForeignKey("swppp_plans.id"), unique=True)
    title: Mapped[str] = mapped_column(String(500))
    revision: Mapped[str] = mapped_column(String(100))
    dated: Mapped[date | None] = mapped_column(Date)
    preparer: Mapped[str] = mapped_column(String(500))
    qualification: Mapped[str] = mapped_column(String(500))
    permit: Mapped[str | None] = mapped_column(String(200))
    applicant: Mapped[str | None] = mapped_column(String(500))  # to whom the letters go
    changes: Mapped[list[str] | None] = mapped_column(JSON)
    received: Mapped[date] = mapped_column(Date)
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))


class SwpppReview(Base):
    """One review of a plan: the reviewer, the day, and per item of the pack's list its
    finding ({"finding": present|missing|inadequate|not-applicable, "words": ...,
    "carried_from": the review it was carried from, for an item an amendment left
    unchanged}). Frozen."""

    __tablename__ = "swppp_reviews"

    id: Mapped[int] = mapped_column(primary_key=True)
    plan_id: Mapped[int] = mapped_column(ForeignKey("swppp_plans.id"), index=True)
    reviewer: Mapped[str] = mapped_column(String(500))
    day: Mapped[date] = mapped_column(Date)
    findings: Mapped[dict[str, Any]] = mapped_column(JSON)
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))


class SwpppDecision(Base):
    """The approval or return letter issued from a review (one per review). Frozen."""

    __tablename__ = "swppp_decisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    review_id: Mapped[int] = mapped_column(ForeignKey("swppp_reviews.id"), unique=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), unique=True)
    outcome: Mapped[str] = mapped_column(String(20))  # approved | returned
    day: Mapped[date] = mapped_column(Date)


class FeePayment(Base):
    """A payment recorded against a statement of fees (§ 228-79D). Frozen."""

    __tablename__ = "fee_payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id"), index=True)
    day: Mapped[date] = mapped_column(Date)
    amount: Mapped[Decimal] = mapped_column(Numeric(12, 2))
    method: Mapped[str] = mapped_column(String(200))  # check no. 1234, cash, card...
    recorded_at: Mapped[datetime] = mapped_column()
    recorded_by: Mapped[str] = mapped_column(String(200))


# -- The desk's tables (docgen.desk): made by migration 0020 like every other table -------
DESK_ACCOUNT = "user"  # the audit's entity of a desk account's row (docgen.desk.base.database)


def _now() -> datetime:
    return datetime.now(UTC)


class DeskUser(Base):
    """Who may sign in to the desk, and as what."""

    __tablename__ = "desk_users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(default=_now)
    # as documents print them
    full_name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    title: Mapped[str] = mapped_column(String(200), default="", server_default="")
    removed: Mapped[datetime | None] = mapped_column(default=None)  # drafts kept


class DeskUserSite(Base):
    """A site a developer's account acts for (the register's certification_sites.id): the
    only sites whose certifications it sees and whose firms it invites (docgen.desk.base.auth)."""

    __tablename__ = "desk_user_sites"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("desk_users.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[int] = mapped_column(Integer, primary_key=True)


class DeskSession(Base):
    """A signed-in browser: the cookie holds a random token, the table only its SHA-256."""

    __tablename__ = "desk_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("desk_users.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(default=_now)
    last_seen: Mapped[datetime] = mapped_column(default=_now)


class LoginFailure(Base):
    """A failed sign-in, by user name and client address (the rate limit counts these)."""

    __tablename__ = "desk_login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=_now, index=True)


class PublicCheck(Base):
    """One ask of the public check from a client address (docgen.desk.public.public_check counts
    them across every server process); an upload to compare is in flight until
    ``finished``."""

    __tablename__ = "desk_public_checks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=_now, index=True)
    upload: Mapped[bool] = mapped_column(default=False)
    finished: Mapped[datetime | None] = mapped_column(default=None)


class Submission(Base):
    """A state-changing form's one-time token, and where its first post led (a repeated
    post, a double click, is sent there instead of acting twice)."""

    __tablename__ = "desk_submissions"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(default=_now, index=True)
    result: Mapped[str | None] = mapped_column(String(300), default=None)


class Draft(Base):
    """A case being filled in at the desk: exactly what was typed, as (field, value) pairs."""

    __tablename__ = "desk_drafts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("desk_users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    jurisdiction: Mapped[str] = mapped_column(String(40))
    fields: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created: Mapped[datetime] = mapped_column(default=_now)
    updated: Mapped[datetime] = mapped_column(default=_now)
    issued_as: Mapped[str | None] = mapped_column(String(100), default=None)
