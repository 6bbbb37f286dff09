"""Case model of the recorded instruments: maintenance easement and maintenance agreement.

One case file serves both kinds (§ 228-78D(3) and (5); § 301-73B and D): the same owner,
property, project and facilities. Field provisions are pack refs, so a case's errors cite
its own municipality's sections for the easement or the agreement. Fields inside a part
carry a provision only where the provision is not the kind's own (the acknowledgment, the
Schedule B terms); elsewhere the error names the kind's section, through the enclosing
field."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from docgen.cases.common import (
    Address,
    IsoDate,
    Jurisdiction,
    Line,
    Model,
    Money,
    Text,
    as_written,
    cited,
)
from docgen.law.acknowledgment import OWNER_KINDS

ACKNOWLEDGMENT = "@acknowledgment.certificate"  # RPL § 309-a(1), from the state pack

TERMS = "@agreement.terms"  # the Schedule B terms (inspection, report, security)


def _owner_kind(value: Any) -> Any:
    if not isinstance(value, str) or value.strip().lower() not in OWNER_KINDS:
        raise ValueError(
            f"{value!r} has no acknowledgment form; an owner is one of "
            f"{', '.join(OWNER_KINDS)} (each signs with the form for its kind)"
        )
    return value.strip().lower()


OwnerKind = Annotated[
    Literal["individual", "corporation", "llc", "partnership", "trust"],
    BeforeValidator(_owner_kind),
]


def _tax_map(value: Any) -> Any:
    value = as_written(value)
    if not isinstance(value, str) or not re.fullmatch(
        r"[0-9A-Za-z.]+(-[0-9A-Za-z./]+){2,}", value.strip()
    ):
        raise ValueError(
            f"{value!r} is not a tax map number in Section-Block-Lot form (e.g. 87.17-01-12.000)"
        )
    return value.strip()


TaxMap = Annotated[str, BeforeValidator(_tax_map)]


def _file_name(value: Any) -> Any:
    if not isinstance(value, str) or not value.strip() or "\n" in value or len(value) > 1000:
        raise ValueError(f"{value!r} is not a file name (a PNG, JPEG or PDF file)")
    return value.strip()


# A file the case names (a map exhibit): a path, read by docgen.documents.exhibits; on the
# desk, a file uploaded to the draft (docgen.desk.drafting.uploads), never a path typed.
FILE = BeforeValidator(_file_name)
FileName = Annotated[str, FILE]


class AgreementInfo(Model):
    date: IsoDate = Field(description="the date of the instrument (its effective date)")
    number: Line | None = Field(default=None, description="the municipality's file number")


class AcknowledgedIn(Model):
    """Where a signer acknowledges, when not in New York (RPL § 309-b)."""

    state: Line = Field(description="the state (or country) where taken, e.g. Pennsylvania")
    county: Line = Field(description="the county (or other subdivision) where taken")


class OwnerSigner(Model):
    name: Line = cited(ACKNOWLEDGMENT, "who signs and acknowledges")
    title: Line | None = cited(
        ACKNOWLEDGMENT, "capacity in which an entity's signer signs", default=None
    )
    acknowledged_in: AcknowledgedIn | None = cited(
        "Real Property Law § 309-b(1)",
        "where the signer acknowledges when outside New York: {state, county}",
        default=None,
    )


class Owner(Model):
    name: Line = Field(
        description="the landowner: grantor of the easement, party to the agreement (for a "
        "trust, the trust's name: its trustees, the signers, grant as its trustees)"
    )
    kind: OwnerKind = cited(ACKNOWLEDGMENT, "decides the acknowledgment form")
    organized_in: Line | None = Field(
        default=None,
        description="a firm's state of organization (default New York, for a firm with a "
        "New York address)",
    )
    address: Address
    signers: list[OwnerSigner] = cited(
        ACKNOWLEDGMENT, "each signer signs and acknowledges", default_factory=list
    )


class Signatory(Model):
    """The municipality's officer who signs the instrument, by name."""

    name: Line = Field(description="who signs for the municipality")
    title: Line | None = Field(
        default=None, description="the office (default: the pack's signatory, e.g. Mayor)"
    )


class Deed(Model):
    liber: Line
    page: Line


class Property(Model):
    address: Address
    tax_map: TaxMap = Field(title="tax map number", description="tax map number, Section-Block-Lot")
    deed: Deed | None = Field(default=None, description="the owner's deed: liber and page")
    instrument: Line | None = Field(default=None, description="or the deed's instrument number")
    legal_description: Text = Field(description="printed as Schedule A")

    @model_validator(mode="after")
    def _one_deed_reference(self) -> Property:
        if (self.deed is None) == (self.instrument is None):
            raise ValueError(
                "needs the owner's deed reference: the deed's liber and page, or the instrument "
                "number; one of the two"
            )
        return self


class Approval(Model):
    board: Line
    date: IsoDate
    stage: Literal["preliminary", "final"] = Field(
        default="final",
        description="preliminary or final plan approval (a maintenance agreement is recorded "
        "before final plan approval)",
    )


class Project(Model):
    name: Line
    approval: Approval | None = None


class Facility(Model):
    type: Line
    description: Text
    location: Text
    practices: list[Text] = Field(default_factory=list, description="maintenance practices")


class EasementArea(Model):
    area_description: Text
    width_feet: Decimal | None = Field(default=None, gt=0, le=10_000, title="width in feet")
    metes_and_bounds: Text | None = Field(
        default=None, description="the easement area by courses and distances (Schedule C)"
    )
    exhibit: FileName | None = Field(
        default=None,
        description="a map of the easement area: a PNG, JPEG or PDF file (its first page), "
        "attached as Exhibit 1; in a case file, its name in the case file's folder; on the "
        "desk, a file sent to the draft",
    )


class Security(Model):
    form: Literal["bond", "letter_of_credit", "escrow"] = cited(TERMS)
    amount: Money = cited(TERMS)


class Inspection(Model):
    interval_years: int = cited(
        TERMS,
        "professional engineer's inspection, at most every 5 years",
        title="years between inspections",
    )
    report_days: int | None = cited(TERMS, "days to deliver the written report (30)", default=None)


class Authorization(Model):
    """The board resolution under which the municipality's officer signs the instrument."""

    body: Line = Field(description="e.g. the Board of Trustees of the Village")
    date: IsoDate = Field(description="the date the resolution was adopted")
    resolution: Line = Field(description="its number, e.g. 2026-41")


class Counsel(Model):
    name: Line
    title: Line


def case_model(name: str, ref: str, doc: str) -> type[Model]:
    """The case model of one kind; ``ref`` ("@easement", "@agreement") cites its section."""

    class RecordingCase(Model):
        __doc__ = doc
        jurisdiction: Jurisdiction
        agreement: AgreementInfo = cited(ref, "date and number of the instrument")
        owner: Owner = cited(ref, "the landowner")
        property: Property = cited(ref, "the land the facilities serve")
        project: Project = cited(ref, "the land development activity")
        facilities: list[Facility] = cited(
            ref, "the stormwater management facilities", default_factory=list
        )
        easement: EasementArea = cited(ref, "the easement area")
        security: Security = cited(TERMS, "bond, letter of credit or escrow")
        inspection: Inspection | None = cited(TERMS, "engineer's inspection schedule", default=None)
        counsel: Counsel = cited("@counsel", "the municipality's counsel, who approves as to form")
        signatory: Signatory | None = cited(
            ref,
            "the officer who signs for the municipality, by name (when the municipality has "
            "named no standing officer to sign its instruments)",
            default=None,
        )
        authorization: Authorization | None = cited(
            ref,
            "the board resolution under which the municipality's officer signs (when the "
            "municipality has named no standing resolution)",
            default=None,
        )

    RecordingCase.__name__ = RecordingCase.__qualname__ = name
    return RecordingCase
