"""The written decision on an appeal (§ 228-79C(1)(f); LAW.md § 14): the determination of
violation affirmed, modified or reversed, with reasons, decided on or after the hearing's
day; a modified decision may set a remedial measure's date, each printed with its date
before and after. A reversed notice is no conviction and counts for no penalty (LAW.md
§ 4): the register's offense history leaves it out. ``docgen appeal decide`` issues it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from docgen.cases.common import (
    IsoDate,
    Jurisdiction,
    Line,
    Model,
    NameAndTitle,
    Party,
    Site,
    Text,
    cited,
)
from docgen.documents.appeal_parts import (
    AppealContext,
    AppealedNotice,
    AppealFiled,
    F,
    H,
    appeal_context,
)
from docgen.documents.kind import Kind, Options, issued_on, recipient_of, site_of
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

OUTCOMES = ("affirmed", "modified", "reversed")


class HeardOn(Model):
    number: Line = cited(H, "the notice of hearing's number")
    date: IsoDate = cited(H, "the day the appeal was heard")


class DecidedRemedy(Model):
    """A remedial measure of the notice whose date the decision sets (a modified one): the
    register reads it wherever it reads the dates as extended (LAW.md §§ 11, 14)."""

    number: Annotated[int, Field(ge=1)] = cited(H, "the remedial measure's number in the notice")
    measure: Text = cited(H, "the remedial measure, as the notice states it")
    was: IsoDate = cited(H, "its date before the decision (as extended, if it was)")
    now: IsoDate = cited(H, "its date as decided: on or after the decision")


class DecisionCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(F, "the decision's number")
    issued: IsoDate = cited(H, "the day the appeal was decided")
    notice: AppealedNotice = cited(F)
    appeal: AppealFiled = cited(F)
    hearing: HeardOn = cited(H)
    outcome: Literal["affirmed", "modified", "reversed"] = cited(
        H, "the determination of violation affirmed, modified or reversed"
    )
    modification: Text | None = cited(H, "how the determination is modified", default=None)
    remedies: list[DecidedRemedy] = cited(
        H, "the remedial measures whose dates the decision sets", default_factory=list
    )
    reasons: Annotated[list[Text], Field(min_length=1)] = cited(H, "the reasons for the decision")
    recipient: Party = cited(F, "the person who filed the appeal")
    copies_to: list[Party] = cited(F, "the others the notice named", default_factory=list)
    site: Site = cited(F, "the site of the notice")
    signed_by: NameAndTitle = cited(H, "who signs for the board or officer that decided")


def check(case: DecisionCase, pack: Pack, options: Options) -> list[Problem]:
    problems = []
    if case.issued < case.hearing.date:
        problems.append(
            Problem(
                "issued",
                f"{long_date(case.issued)} is before the hearing on "
                f"{long_date(case.hearing.date)}: an appeal is decided after it is heard",
                H,
            )
        )
    if case.outcome == "modified" and not case.modification:
        problems.append(
            Problem("modification", "missing: say how the determination is modified", H)
        )
    if case.outcome != "modified" and case.modification:
        problems.append(
            Problem("modification", f"given, but the determination is {case.outcome}", H)
        )
    for i, r in enumerate(case.remedies):
        if case.outcome != "modified":
            problems.append(
                Problem(
                    f"remedies[{i}]",
                    f"remedial measure {r.number}: a new date given, but the determination is "
                    f"{case.outcome}",
                    H,
                )
            )
        elif r.now < case.issued:
            problems.append(
                Problem(
                    f"remedies[{i}].now",
                    f"remedial measure {r.number}: {long_date(r.now)} is before the decision "
                    f"({long_date(case.issued)}); a measure is due on or after it",
                    H,
                )
            )
    if len({r.number for r in case.remedies}) < len(case.remedies):
        problems.append(Problem("remedies", "a remedial measure is given twice", H))
    return problems


def context(case: DecisionCase, pack: Pack, options: Options) -> AppealContext:
    return appeal_context(case, pack, KIND.name, "Decision on Appeal")


KIND = Kind(
    name="appeal-decision",
    title="Decision on an appeal",
    model=DecisionCase,
    template="notices/appeal_decision.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the written decision: the determination affirmed, modified or reversed, with reasons",
    made_by_register=(
        "from the appeal and its hearing the register holds: "
        "`docgen appeal decide NUMBER`, or "
        "the decision's form on the notice's page"
    ),
    keeps=(
        ("notice", "the notice appealed"),
        ("hearing", "the hearing"),
        ("outcome", "the outcome"),
        ("remedies", "the dates it sets"),
        ("issued", "the day decided"),
    ),
    needs=("enforcement", "appeals"),
    appeal_step="decision",
    issued_upon=(("appeal-hearing",),),
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
