"""Notice requiring restoration (§ 228-79C(6); LAW.md § 14): "Any violator may be required
to restore land to its undisturbed condition." The notice rests on a notice of violation or
stop-work order in the register, says what is to be restored and by when: the officer's
date, stated as the municipality's "reasonable time after notice" (its practice: the
article names no period). It is served and proved like a notice. If restoration is not
undertaken by then, the municipality may take the corrective action itself, its cost a
lien upon the property until paid (docgen.documents.restoration_cost, .lien_notice).
``docgen require-restoration`` issues it.
"""

from __future__ import annotations

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
from docgen.documents.kind import (
    COURTESY_LANGUAGES,
    CaseContext,
    Kind,
    Options,
    issued_on,
    numbered_case,
    recipient_of,
    site_of,
    site_problems,
)
from docgen.documents.occupancy_order import RestsOn
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

S = "@provisions.restoration-notice"  # § 228-79C(6), as the pack cites it


class RestorationCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "notice number")
    issued: IsoDate = cited(S, "date the notice is issued")
    officer: NameAndTitle = cited("@officer", "the officer who requires restoration")
    recipient: Party = cited(S, "the landowner, on whom the notice is served")
    copies_to: list[Party] = cited(
        S, "the developer or applicant, when known: also served", default_factory=list
    )
    site: Site = cited(S, "the site")
    rests_on: RestsOn = cited(S, "the notice of violation or stop-work order it rests on")
    restore: Text = cited(S, "what is to be restored to its undisturbed condition")
    restore_by: IsoDate = cited(
        S, "the officer's date: the reasonable time after notice", title="restore by"
    )


def check(case: RestorationCase, pack: Pack, options: Options) -> list[Problem]:
    problems = site_problems(case, pack, "needs an address or a description of the land (or both)")
    if case.restore_by <= case.issued:
        problems.append(
            Problem(
                "restore_by",
                f"{long_date(case.restore_by)} is not after the notice's date "
                f"({long_date(case.issued)}): restoration is due a reasonable time after notice",
                S,
            )
        )
    if case.issued < case.rests_on.served:
        problems.append(
            Problem(
                "issued",
                f"{long_date(case.issued)} is before {case.rests_on.title} No. "
                f"{case.rests_on.number} was served ({long_date(case.rests_on.served)})",
                S,
            )
        )
    return problems


def context(case: RestorationCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Notice Requiring Restoration of Lands")


KIND = Kind(
    name="restoration-notice",
    title="Notice requiring restoration",
    heading="Notice Requiring Restoration of Lands",
    model=RestorationCase,
    template="notices/restoration_notice.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="require the violator to restore land to its undisturbed condition by a date",
    made_by_register=(
        "from the notice of violation or stop-work order it rests on: "
        "`docgen require-restoration NUMBER`, or "
        "Require restoration on its page"
    ),
    keeps=(
        ("rests_on", "the order or notice it rests on"),
        ("restore_by", "the date to restore by"),
        ("issued", "its date"),
    ),
    needs=("enforcement",),
    served=True,
    renditions=COURTESY_LANGUAGES,  # courtesy copies (LAW.md § 13)
    copies=True,
    step="requires-restoration",
    issued_upon=(("notice-of-violation", "stop-work-order"),),
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
