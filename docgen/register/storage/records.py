"""What the register hands back: plain frozen records, detached from any database session."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import Any

from docgen.register.storage import standing


@dataclass(frozen=True)
class RespondentRef:
    id: int
    name: str
    kind: str  # person | firm
    addresses: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    created: bool = False  # made by this issue (no earlier record matched)
    language: str | None = None  # the language they prefer (LAW.md § 13)


@dataclass(frozen=True)
class Candidate:
    """A respondent that may be the one meant, and why it was not taken silently."""

    id: int
    name: str
    addresses: tuple[str, ...]
    why: str
    language: str | None = None  # the language they prefer (LAW.md § 13)

    def __str__(self) -> str:
        where = "; ".join(self.addresses) or "no address on record"
        return f"#{self.id} {self.name} ({where}): {self.why}"


@dataclass(frozen=True)
class PriorUsed:
    """A prior offense taken from the register for the penalty (§ 228-79C(4))."""

    reference: str
    committed: date
    disposition: str
    convicted: date | None
    reason: str = ""  # the penalty engine's: counted, or why not


@dataclass(frozen=True)
class Issued:
    """One document issued: its number, whom it went to, the priors read, its bytes."""

    id: int
    number: str
    kind: str
    jurisdiction: str
    issued: date
    respondent: RespondentRef | None
    priors: tuple[PriorUsed, ...]
    hashes: dict[str, str]  # format -> SHA-256
    files: dict[str, bytes] = field(repr=False)
    stem: str = ""  # file name stem (the document's own)
    paths: tuple[Path, ...] = ()  # files written (after the record was committed)
    warnings: tuple[str, ...] = ()
    supersedes: str | None = None
    access_code: str = ""  # printed on the document; the register keeps only its hash
    signed: bool = False  # the PDF carries the municipality's signature
    # Issued before from the same case or draft: this is that document, not a new one.
    repeated: bool = False
    language: str | None = None  # its courtesy rendition's language, if one was kept
    preferred: bool = False  # that language is the respondent's preferred, not one asked


@dataclass(frozen=True)
class ServiceRecord:
    method: str
    date: dt.date
    received: dt.date | None
    served_by: str
    article: str | None
    appeal_deadline: dt.date | None  # what this event gives (service on the landowner)
    deadline_reasons: tuple[str, ...] = ()
    clock_rule: str = ""  # from which day the appeal period ran, and why
    served_on: str | None = None
    role: str | None = None
    time: str | None = None
    place: str | None = None
    address: str | None = None
    individual: str | None = None
    capacity: str | None = None
    description: str | None = None
    received_by: str | None = None
    # The notice's one deadline after this event: the latest any service gave, never lower.
    notice_deadline: dt.date | None = None
    recorded_at: datetime | None = None  # when the register recorded it (aware)
    # What came back after mailing (LAW.md § 2): "receipt" or "returned" (None: nothing
    # yet), its day, and for a returned mailing the reason on the envelope.
    outcome: str | None = None
    outcome_date: dt.date | None = None
    return_reason: str | None = None
    annex: str | None = None  # the number of the receipt's annex to the affidavit
    affidavit: str | None = None  # the number of this event's affidavit of service
    # The day service by this event was complete (docgen.register.storage.standing; None: returned,
    # or not read for this record).
    complete: dt.date | None = None


@dataclass(frozen=True)
class Served:
    """What ``record_service`` did: the event, the deadline and the affidavit issued."""

    number: str
    service: ServiceRecord
    affidavit: Issued | None
    warnings: tuple[str, ...] = ()  # dates of the document that ran out before service


@dataclass(frozen=True)
class OffenseRecord:
    id: int
    number: str | None  # the notice, or None for history imported from before the register
    jurisdiction: str
    committed: date
    continued_through: date | None
    violations: tuple[dict[str, Any], ...]
    disposition: str
    disposition_date: date | None
    convicted: date | None
    court: str | None
    docket: str | None
    reference: str | None


@dataclass(frozen=True)
class DocumentRecord:
    id: int
    number: str
    kind: str
    jurisdiction: str
    issued: date
    respondent: RespondentRef | None
    site: str | None
    hashes: dict[str, str]
    services: tuple[ServiceRecord, ...]
    supersedes: str | None
    superseded_by: str | None
    about: str | None  # the document an affidavit of service is about
    recorded_by: str
    docgen_version: str
    pack_version: str
    case: dict[str, Any] = field(repr=False, default_factory=dict)
    # The notice's one appeal deadline: the latest any recorded service on the landowner
    # gives; a later event never lowers it (LAW.md § 2).
    appeal_deadline: date | None = None
    lifted_by: str | None = None  # the written notice that lifted a stop-work order
    lifted_on: date | None = None  # the day that notice lifts it as of
    recorded_at: datetime | None = None  # when the register recorded it (aware)
    # Its chain of corrections, oldest first, itself included; the last is in effect.
    corrections: tuple[str, ...] = ()
    # Each person it was sent to and when service on them was complete (None: not served;
    # docgen.register.storage.standing), and the day the register keeps as its service.
    persons: tuple[Any, ...] = ()
    served_on: date | None = None


@dataclass(frozen=True)
class History:
    """A respondent's offenses and documents, newest first."""

    respondent: RespondentRef
    offenses: tuple[OffenseRecord, ...]
    documents: tuple[DocumentRecord, ...]


@dataclass(frozen=True)
class Verified:
    number: str
    kind: str
    jurisdiction: str
    issued: date
    respondent: str | None
    format: str
    superseded_by: str | None
    in_effect: str | None = None  # the latest correction, where superseded
    about: str | None = None  # what it proves, annexes or lifts (an affidavit's notice...)
    lifted_by: str | None = None  # the notice that lifted it (a stop-work order)
    lifted_on: date | None = None  # the day that notice lifts it as of
    copy_for: str | None = None  # whose copy it is (docgen.register.rules.copies), or the original
    certified: str | None = None  # a firm's own certification: who, for whom, where, when
    part_for: str | None = None  # whose part it is (docgen.register.rules.parts), or the whole
    rendition: str | None = None  # "Spanish": a courtesy rendition (docgen.register.rules.copies)
    # Its kind is served; when service on the landowner was complete and the kept appeal
    # deadline, as docgen.register.storage.standing derives them (None: not served, no deadline).
    served: bool = False
    served_on: date | None = None
    appeal_deadline: date | None = None


@dataclass(frozen=True)
class VerifiedSet:
    """A set of a site's signed certifications the register assembled and sealed
    (docgen.register.sites.certification_sets), as `docgen verify` and the checks name it."""

    jurisdiction: str
    project: str
    site: str
    assembled: datetime
    holds: tuple[tuple[str, str], ...]  # (number, who certified it, for whom, when)
    format: str = "pdf"

    def lines(self, zone: tzinfo) -> list[str]:
        """What it is, then each certification it holds (times in ``zone``)."""
        at = self.assembled.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
        count = len(self.holds)
        out = [
            f"the SWPPP's contractor certifications of {self.project} at {self.site}: "
            f"{count} signed certification{'s' * (count != 1)}, assembled and sealed by "
            f"this register at {at}"
        ]
        out += [f"  {number}: {who}" for number, who in self.holds]
        return out


def service_record(
    event: Any,
    reasons: tuple[str, ...] = (),
    rule: str = "",
    notice: date | None = None,
    numbers: Mapping[int | None, str] | None = None,
    complete: date | None = None,
) -> ServiceRecord:
    """A recorded service event (docgen.register.storage.models.ServiceEvent) as read back, the day
    of receipt and the deadline it gives read as docgen.register.storage.standing derives them;
    ``numbers``: document numbers by id (its affidavit, the receipt's annex)."""
    numbers = numbers or {}
    outcome = event.outcome
    return ServiceRecord(
        method=event.method,
        date=event.date,
        received=standing.received(event),
        served_by=event.served_by,
        article=event.article,
        appeal_deadline=standing.gives(event),
        deadline_reasons=reasons,
        clock_rule=rule,
        served_on=event.served_on,
        role=event.role,
        time=event.time,
        place=event.place,
        address=event.address,
        individual=event.individual,
        capacity=event.capacity,
        description=event.description,
        received_by=standing.signed_by(event),
        notice_deadline=notice,
        recorded_at=event.recorded_at,
        outcome=outcome.outcome if outcome is not None else None,
        outcome_date=outcome.date if outcome is not None else None,
        return_reason=outcome.reason if outcome is not None else None,
        annex=numbers.get(outcome.annex_id) if outcome is not None and outcome.annex_id else None,
        affidavit=numbers.get(event.affidavit_id) if event.affidavit_id else None,
        complete=complete,
    )


def offense_record(offense: Any, number: str | None) -> OffenseRecord:
    """A recorded offense (docgen.register.storage.models.Offense) as read back."""
    return OffenseRecord(
        id=offense.id,
        number=number,
        jurisdiction=offense.jurisdiction,
        committed=offense.committed,
        continued_through=offense.continued_through,
        violations=tuple(offense.violations or ()),
        disposition=offense.disposition,
        disposition_date=offense.disposition_date,
        convicted=offense.convicted,
        court=offense.court,
        docket=offense.docket,
        reference=offense.reference,
    )
