"""The offense history the penalty engine reads (§ 228-79C(4)); shared by several kinds."""

from __future__ import annotations

from typing import Literal

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, Text, cited
from docgen.cases.enforcement import Citation, Violation

P = "@penalties"  # the penalty section, as the jurisdiction's pack cites it
NATURE = "@enforcement.elements.nature"


class Offense(Model):
    committed: IsoDate = cited(P, "date the current offense was committed")
    continued_through: IsoDate | None = cited(
        P, "last day the violation continued; each week is a separate violation", default=None
    )
    # A penalty statement names the violation it is about (its check requires both when no
    # violation is listed); `docgen penalty` reads the dates only.
    nature: Text | None = cited(NATURE, "what the violation is", default=None)
    provision: Citation | None = cited(
        NATURE, "the section of the article violated, with subsection", default=None
    )


class PriorOffense(Model):
    committed: IsoDate = cited(P, "date the prior offense was committed")
    disposition: Literal["convicted", "pending", "dismissed", "acquitted", "withdrawn"] = cited(P)
    convicted: IsoDate | None = cited(P, "conviction date; required when convicted", default=None)
    reference: Line | None = cited(P, "court, docket or notice number", default=None)


class PenaltyInput(Model):
    """What ``docgen penalty`` reads from a case file. The keys its kind reads for other
    purposes are set aside before validation; any other key is an error, so a misspelled
    ``prior_offences`` never quietly becomes "no priors"."""

    jurisdiction: Jurisdiction
    issued: IsoDate = cited(P, "date of the statement or notice")
    offense: Offense | None = cited(P, "one violation's dates", default=None)
    violations: list[Violation] = cited(
        P, "each violation with its own dates", default_factory=list
    )
    prior_offenses: list[PriorOffense] = cited(P, default_factory=list)
