"""Case parts of the enforcement kinds under § 228-79C: violations, remedies, service."""

from __future__ import annotations

from typing import Literal

from docgen.cases.common import Address, IsoDate, Line, Model, NameAndTitle, Phone, Text, cited


class Violation(Model):
    provision: Line = cited("§ 228-79C(1)(c)", "the provision of the article violated")
    nature: Text = cited("§ 228-79C(1)(c)", "what the violation is")
    observed: IsoDate = cited("§ 228-79C(1)(c)", "date the violation was observed")
    location: Text | None = cited("§ 228-79C(1)(c)", "where on the site", default=None)


class Remedy(Model):
    measure: Text = cited("@enforcement.elements.remedies", "the remedial measure to comply")
    due: IsoDate = cited("@enforcement.elements.remedies", "date the measure must be complete")


class ServedInfo(Model):
    """How and when a notice or order was served; the appeal period runs from the date."""

    # Both are optional here so that the kind's check names the element they serve
    # (a missing date is element (f): the notice cannot state the appeal deadline).
    date: IsoDate | None = cited("§ 228-79C(1)(f)", "date of service", default=None)
    method: Line | None = cited(
        "§ 228-79C(1)", "how it was served, e.g. personal delivery, certified mail", default=None
    )
    by: NameAndTitle | None = cited(
        "§ 228-79C(1)", "who served it, when not the issuing officer {name, title}", default=None
    )


class Recipient(Model):
    """The landowner, developer or applicant a notice is directed to (§ 228-79C(1)(a)).

    Name and address are optional here so that the kind's check reports a missing one as
    element (a) of the notice, in words, rather than as a bare missing key.
    """

    name: Line | None = cited("@enforcement.elements.addressee", default=None)
    role: Literal["landowner", "developer", "applicant"] = cited("@enforcement.elements.addressee")
    address: Address | None = cited("@enforcement.elements.addressee", default=None)


class Contact(Model):
    """Whom to call to request the inspection that lifts a stop-work order (§ 228-79C(2))."""

    name: Line = cited("@provisions.stop-work-order", "who takes requests for the inspection")
    phone: Phone = cited("@provisions.stop-work-order", "telephone number, e.g. (607) 555-0142")
