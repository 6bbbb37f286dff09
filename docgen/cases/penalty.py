"""The offense history the penalty engine reads (§ 228-79C(4)); shared by several kinds."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, cited

P = "§ 228-79C(4)"


class Offense(Model):
    committed: IsoDate = cited(P, "date the current offense was committed")
    continued_through: IsoDate | None = cited(
        P, "last day the violation continued; each week is a separate violation", default=None
    )


class PriorOffense(Model):
    committed: IsoDate = cited(P, "date the prior offense was committed")
    disposition: Literal["convicted", "pending", "dismissed", "acquitted"] = cited(P)
    convicted: IsoDate | None = cited(P, "conviction date; required when convicted", default=None)
    reference: Line | None = cited(P, "court, docket or notice number", default=None)


class PenaltyInput(Model):
    """What ``docgen penalty`` reads from any case file; other keys are left to their kind."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    jurisdiction: Jurisdiction
    issued: IsoDate = cited(P, "date of the statement or notice")
    offense: Offense = cited(P)
    prior_offenses: list[PriorOffense] = cited(P, default_factory=list)
