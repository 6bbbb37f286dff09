"""Penalty statement (§ 228-79C(4)): the penalty a recipient faces, computed and explained."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from datetime import date
from typing import Any

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
from docgen.cases.enforcement import Violation
from docgen.cases.penalty import Offense, PenaltyInput, PriorOffense
from docgen.documents.kind import (
    COURTESY_LANGUAGES,
    Context,
    DocMeta,
    Kind,
    Options,
    issued_on,
    recipient_of,
    site_of,
    site_problems,
)
from docgen.errors import CaseInvalid, Problem
from docgen.law.pack import Pack
from docgen.law.penalties import Assessment, Charged, assess
from docgen.law.provisions import citation_problem

P = "@penalties"
NATURE = "@enforcement.elements.nature"


class PenaltyStatementCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(P, "statement number")
    issued: IsoDate = cited(P, "date of the statement; the history is read as of this day")
    officer: NameAndTitle = cited("@officer", "the issuing officer")
    recipient: Party = cited("@enforcement.elements.penalty", "to whom it may be assessed")
    copies_to: list[Party] = cited("@enforcement.elements", default_factory=list)
    site: Site | None = cited("@enforcement.elements.site", default=None)
    violations: list[Violation] = cited("@enforcement.elements.nature", default_factory=list)
    offense: Offense | None = cited(
        P,
        "one violation: its nature, provision and dates; with several violations, date each "
        "one instead",
        default=None,
    )
    notice: Line | None = cited(
        P,
        "number of the notice of violation this statement follows: its offense is the current "
        "offense, never a prior",
        default=None,
    )
    prior_offenses: list[PriorOffense] = cited(P, default_factory=list)


def offense_words(number: int) -> str:
    """'first', 'second', 'third', then 'fourth (a third or subsequent offense)'."""
    from num2words import num2words  # on render only: `docgen check` stays light

    said: str = num2words(number, to="ordinal")
    return said


def charged(case: Any) -> list[Charged]:
    """The violations the penalty counts: the one ``offense``, or each listed violation
    with its own dates (reading 7)."""
    if getattr(case, "offense", None) is not None:
        return [Charged.offense(case.offense)]
    return [
        Charged.listed(i, v.observed, v.continued_through) for i, v in enumerate(case.violations)
    ]


def current_offense(case: Any) -> tuple[str | None, list[tuple[str, date]]]:
    """What identifies the offense a case is about (reading 11): the notice it follows, if
    it names one, and each violation it charges as (provision, first day)."""
    cited_here = [(v.provision, v.observed) for v in getattr(case, "violations", [])]
    offense = getattr(case, "offense", None)
    if offense is not None and getattr(offense, "provision", None):
        cited_here.append((offense.provision, offense.committed))
    return getattr(case, "notice", None), cited_here


# Assessments made, by case object and pack: a document's check and its context share one
# (an entry goes when its case does).
_ASSESSED: dict[tuple[int, int], Assessment | CaseInvalid] = {}


def penalty_provision(pack: Pack) -> str:
    """The citation of the article's penalty provision: the one this kind states;
    UnsupportedKind naming what the article lacks where it has none."""
    return pack.require(KIND)


def penalty_assessment(case: Any, pack: Pack) -> Assessment:
    """The assessment for any case carrying violations (or one ``offense``), priors and
    ``issued``; made once per case (its problems, too, are found once)."""
    key = (id(case), id(pack))
    if key not in _ASSESSED:
        try:
            provision = penalty_provision(pack)
            _ASSESSED[key] = assess(
                charged(case), case.prior_offenses, case.issued, pack, provision
            )
        except CaseInvalid as err:
            _ASSESSED[key] = err
        weakref.finalize(case, _ASSESSED.pop, key, None)
    found = _ASSESSED[key]
    if isinstance(found, CaseInvalid):
        raise CaseInvalid(found.problems, found.source)
    return found


def offense_problems(case: PenaltyStatementCase | PenaltyInput) -> list[Problem]:
    """``offense`` dates a statement about one violation; several are dated one by one."""
    if case.offense is None:
        if case.violations:
            return []
        return [
            Problem(
                "violations",
                "missing: the violations the penalty is assessed for (each with the date "
                "observed and, if it continued, the last day it continued), or the offense, "
                "for a single violation",
                P,
            )
        ]
    if len(case.violations) > 1:
        return [
            Problem(
                "offense",
                f"dates a single violation, but {len(case.violations)} are listed; each "
                "counts on its own, so give each violation its observed and continued_through "
                "and leave out offense",
                P,
            )
        ]
    if case.violations and case.violations[0].continued_through is not None:
        return [
            Problem(
                "violations[0].continued_through",
                "is given beside offense; date the violation in one place (offense, or the "
                "violation's observed and continued_through)",
                P,
            )
        ]
    return []


def named_problems(case: PenaltyStatementCase) -> list[Problem]:
    """A statement in the ``offense`` form names the violation and the provision (the
    dates alone, as ``docgen penalty`` reads them, say nothing of what was violated)."""
    if case.offense is None or case.violations:
        return []
    return [
        Problem(
            f"offense.{key}",
            f"missing: {what}; a penalty statement names the violation it is about",
            NATURE,
        )
        for key, what in (
            ("nature", "what the violation is"),
            ("provision", "the section of the article violated, with subsection"),
        )
        if getattr(case.offense, key) is None
    ]


def provision_problems(case: PenaltyStatementCase, pack: Pack) -> list[Problem]:
    """Each provision cited as violated is one of the article's, and one a person can
    violate (the pack's ``code.violable``)."""
    cited_here = [
        (f"violations[{i}].provision", v.provision) for i, v in enumerate(case.violations)
    ]
    if case.offense is not None and case.offense.provision is not None:
        cited_here.append(("offense.provision", case.offense.provision))
    return [
        Problem(field, wrong, NATURE)
        for field, provision in cited_here
        if (wrong := citation_problem(provision, pack))
    ]


def check(case: PenaltyStatementCase, pack: Pack, options: Options) -> list[Problem]:
    problems = site_problems(case, pack, "needs an address or a description of the land (or both)")
    problems += offense_problems(case) + named_problems(case) + provision_problems(case, pack)
    if problems:
        return problems
    try:
        penalty_assessment(case, pack)
    except CaseInvalid as err:
        return problems + err.problems
    return problems


@dataclass(frozen=True)
class PenaltyTerms:
    """What any template needs to state the penalty (the notice's element (e) reuses it):
    the assessment, its offense and tier in words, and the pack's periods."""

    assessment: Assessment
    offense_word: str
    tier_word: str
    tier_is_last: bool  # "third or subsequent": the last tier covers every later offense
    lookback_years: int
    week_days: int


def penalty_context(case: Any, pack: Pack) -> PenaltyTerms:
    a = penalty_assessment(case, pack)
    penalties = pack.part("penalties")
    return PenaltyTerms(
        assessment=a,
        offense_word=offense_words(a.offense_number),
        tier_word=offense_words(a.tier.offense),
        tier_is_last=a.tier.offense == len(penalties.tiers),
        lookback_years=penalties.lookback_years.value,
        week_days=penalties.continued_violation_days.value,
    )


@dataclass(frozen=True, kw_only=True)
class PenaltyStatementContext(Context):
    case: PenaltyStatementCase
    penalty: PenaltyTerms
    assessment: Assessment


def context(case: PenaltyStatementCase, pack: Pack, options: Options) -> PenaltyStatementContext:
    title = "Statement of Penalties"
    penalty = penalty_context(case, pack)
    return PenaltyStatementContext(
        case=case,
        penalty=penalty,
        assessment=penalty.assessment,
        doc=DocMeta.numbered(KIND.name, title, case.number, pack, case.issued),
    )


KIND = Kind(
    follows=("notice-of-violation",),
    name="penalty-statement",
    title="Penalty statement",
    model=PenaltyStatementCase,
    template="notices/penalty_statement.html.j2",
    renditions=COURTESY_LANGUAGES,  # courtesy copies (LAW.md § 13)
    context=context,
    check=check,
    summary="the fines and imprisonment a recipient faces, from the offense history",
    needs=("penalties",),
    reads_history=True,
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
    copies=True,
)
