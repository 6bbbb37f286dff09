"""Case model of a contractor certification (§ 228-78B(4); § 301-71D).

Field provisions are pack refs ("@certification.required_fields"), so a case's errors
cite its own municipality's section for the fields each firm gives.
"""

from __future__ import annotations

from typing import Literal

from docgen.cases.common import (
    Address,
    IsoDate,
    Jurisdiction,
    Line,
    Model,
    NameAndTitle,
    Site,
    Text,
    cited,
)
from docgen.values import Phone

FIELDS = "@certification.required_fields"
WHO = "@certification.who_signs"
SWPPP = "@certification.part_of_swppp"
PERMIT = "@certification.permit"


class Project(Model):
    """The land development activity whose SWPPP the certifications become part of."""

    name: Line = cited(SWPPP, "the project (land development activity)")
    swppp: Line | None = cited(SWPPP, "the SWPPP's title or date", default=None, title="SWPPP")
    permit: Line | None = cited(SWPPP, "SPDES permit or NOI identifier", default=None)
    began: IsoDate | None = cited(
        WHO,
        "the day land development activity began, once it has (each firm signs before)",
        default=None,
        title="land development began",
    )


class TrainedContractor(Model):
    """The firm's employee with the DEC-endorsed erosion and sediment control training."""

    name: Line = cited(PERMIT, "the trained contractor the construction general permit asks for")
    trained: IsoDate = cited(PERMIT, "date of the most recent training")


class ElectronicSignature(Model):
    """A certification signed electronically: the full name typed as the signature and the
    signer's statement of intent (State Technology Law art. 3, § 304(2): an electronic
    signature used with the intent to sign has the effect of a handwritten one)."""

    name: Line = cited(FIELDS, "the signer's full name, typed as the signature")
    at: Line = cited(FIELDS, "when it was signed, the municipality's time")
    intent: Text = cited(FIELDS, "the statement of intent the signer affirmed")


class Contractor(Model):
    """One contractor or subcontractor who signs a certification."""

    firm: Line = cited(FIELDS, "the contracting firm")
    address: Address = cited(FIELDS, "address of the contracting firm")
    phone: Phone = cited(FIELDS, "telephone number of the contracting firm, ten digits")
    role: Literal["contractor", "subcontractor"] = cited(WHO)
    signer: NameAndTitle = cited(FIELDS, "name and title of the person providing the signature")
    responsibilities: list[Text] = cited(
        PERMIT, "the SWPPP elements the firm is responsible for", min_length=1
    )
    trained_contractor: TrainedContractor | None = cited(PERMIT, default=None)
    signed: IsoDate | None = cited(
        FIELDS,
        "the date the certification is made; leave out for a form to sign by hand",
        default=None,
    )
    electronic_signature: ElectronicSignature | None = cited(
        FIELDS, "the signature, when signed electronically", default=None, signers_own=True
    )
    paper_scan: Line | None = cited(
        FIELDS,
        "the SHA-256 of the scan of the paper-signed form, kept with the certification",
        default=None,
        title="signed scan (SHA-256)",
        signers_own=True,
    )


class ContractorCertificationCase(Model):
    jurisdiction: Jurisdiction
    project: Project = cited(SWPPP)
    site: Site = cited(FIELDS, "address (or other identifying description)")
    contractors: list[Contractor] = cited(WHO, "each contractor and subcontractor", min_length=1)
