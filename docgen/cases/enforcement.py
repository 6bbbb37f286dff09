"""Case parts of the enforcement kinds under § 228-79C: violations, remedies, service."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from docgen.cases.common import (
    Address,
    IsoDate,
    Line,
    Model,
    NameAndTitle,
    Person,
    Text,
    cited,
    entity,
    preferred_language,
)
from docgen.cases.mail import ARTICLE_HELP, CertifiedArticle
from docgen.values import Phone


def _citation(value: Any) -> Any:
    # The form only; whether the provision exists in the article is the kind's check,
    # against the jurisdiction's pack (docgen.law.provisions).
    if not isinstance(value, str) or not CITATION.fullmatch(value.strip()):
        raise ValueError(
            f"{value!r} is not a citation of a section; write the article's section number "
            "and subsection, e.g. § 12-34D(1)"
        )
    return value.strip()


CITATION = re.compile(r"(?:§|Section|Sec\.)? *\d+-\d+ *[A-Z]?(?: *\(\w+\)| *\[\d+\])*", re.I)
Citation = Annotated[str, BeforeValidator(_citation)]


NATURE = "@enforcement.elements.nature"  # (c): a statement of the nature of the violation


class Violation(Model):
    provision: Citation = cited(NATURE, "the section of the article violated, with subsection")
    nature: Text = cited(NATURE, "what the violation is")
    observed: IsoDate = cited(NATURE, "date the violation was first observed")
    continued_through: IsoDate | None = cited(
        "@penalties",
        "last day this violation continued; each full week is a separate additional violation",
        default=None,
    )
    location: Text | None = cited(NATURE, "where on the site", default=None)


class Remedy(Model):
    measure: Text = cited("@enforcement.elements.remedies", "the remedial measure to comply")
    due: IsoDate = cited("@enforcement.elements.remedies", "date the measure must be complete")


class ServedInfo(Model):
    """How and when a notice or order was served; the appeal period runs from the date."""

    # Optional here so that the kind's check names the element they serve (a missing
    # date or means is element (f): the notice cannot state the appeal deadline).
    date: IsoDate | None = cited(
        "@enforcement.elements.appeal",
        "date of delivery, of mailing, or of posting at the site",
        default=None,
        title="date of service",
    )
    means: Literal["personal", "mail", "posting"] | None = cited(
        "@enforcement.service",
        "personal (delivery), mail, or posting (at the site, with a copy mailed): "
        "the rule the appeal period runs by",
        default=None,
        title="means of service",
    )
    received: IsoDate | None = cited(
        "@enforcement.service.mail",
        "by mail: date of receipt, e.g. from the return receipt",
        default=None,
        title="date received",
    )
    mailed: IsoDate | None = cited(
        "@enforcement.service.posting",
        "by posting: date the copy was mailed",
        default=None,
        title="date mailed",
    )
    method: Line | None = cited(
        "@enforcement.elements",
        "how it was served, in words that complete 'served ... by', e.g. certified mail, "
        "return receipt requested; or posting at the site entrance",
        default=None,
        title="method of service in words",
    )
    by: NameAndTitle | None = cited(
        "@enforcement.elements",
        "who served it (name and title), when not the issuing officer",
        default=None,
        title="served by",
    )


class Recipient(Person):
    """The landowner, developer or applicant a notice is directed to (§ 228-79C(1)(a)).

    Name and address are optional here so that the kind's check reports a missing one as
    element (a) of the notice, in words, rather than as a bare missing key.
    """

    name: Line | None = cited("@enforcement.elements.addressee", default=None)
    role: Literal["landowner", "developer", "applicant"] = cited("@enforcement.elements.addressee")
    address: Address | None = cited("@enforcement.elements.addressee", default=None)
    certified_article: CertifiedArticle | None = Field(
        default=None, title="certified-mail article number", description=ARTICLE_HELP
    )
    language: Line | None = preferred_language()
    entity: Literal["person", "firm"] | None = entity()


class Contact(Model):
    """Whom to call to request the inspection that lifts a stop-work order (§ 228-79C(2))."""

    name: Line = cited("@provisions.stop-work-order", "who takes requests for the inspection")
    phone: Phone = cited("@provisions.stop-work-order", "telephone number, e.g. (607) 555-0142")
