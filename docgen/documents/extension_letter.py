"""The letter granting a later date (LAW.md § 11): for a corrective action of a notice of
deficiency (§ 228-79A(1), its date a reading) or a remedial measure of a notice of
violation (§ 228-79C(1)(d)). Compliance dates are extended, never shortened: the letter
names who granted it, when and why, the date it replaces and the new one, and goes to the
person the document binds. ``docgen extend`` issues it from the register; the calendar, the
halt and any later escalation read the new date."""

from __future__ import annotations

from typing import Literal

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
    CaseContext,
    Kind,
    Options,
    issued_on,
    numbered_case,
    recipient_of,
    site_of,
)
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

X = "@extensions.rule"


class ExtendedDocument(Model):
    number: Line = cited(X, "the notice whose date is extended")
    heading: Line = cited(X, "what it is: Notice of Deficiency, Notice of Violation")
    issued: IsoDate = cited(X, "its issue date")


class ExtendedItem(Model):
    of: Literal["deficiency", "remedy"] = cited(
        X, "a corrective action of a deficiency, or a remedial measure"
    )
    index: int = cited(X, "the deficiency's number, or the remedial measure's")
    what: Text = cited(X, "the corrective action or remedial measure")
    was: IsoDate = cited(X, "the date it replaces")
    now: IsoDate = cited(X, "the later date granted")


class ExtensionCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(X, "the letter's number")
    issued: IsoDate = cited(X, "the day the later date was granted")
    document: ExtendedDocument = cited(X)
    item: ExtendedItem = cited(X)
    reason: Text = cited(X, "why the later date was granted")
    granted_by: NameAndTitle = cited("@officer", "the officer who granted it")
    recipient: Party = cited(X, "the person the date binds")
    copies_to: list[Party] = cited(X, "the others the notice was sent to", default_factory=list)
    site: Site = cited(X, "the site of the notice")


def check(case: ExtensionCase, pack: Pack, options: Options) -> list[Problem]:
    item, ref = case.item, pack.cite(X[1:])
    problems = []
    if item.now <= item.was:
        problems.append(
            Problem(
                "item.now",
                f"{long_date(item.now)} is not later than {long_date(item.was)}: a date is "
                "extended, never shortened or kept",
                ref,
            )
        )
    if case.issued < case.document.issued:
        problems.append(Problem("issued", "before the notice was issued", ref))
    return problems


def context(case: ExtensionCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Extension of Time")


KIND = Kind(
    name="extension-letter",
    title="Letter extending a date",
    model=ExtensionCase,
    template="notices/extension_letter.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the letter granting a later date for a corrective action or a remedial measure",
    made_by_register=(
        "from the notice it extends, as the officer grants the later date: "
        "`docgen extend NUMBER`, or "
        "Grant a later date on the notice's page"
    ),
    keeps=(
        ("item", "the item, the date it replaces and the date granted"),
        ("issued", "the day it was granted"),
    ),
    needs=("enforcement", "inspection", "extensions"),
    extends=True,
    issued_upon=(("notice-of-deficiency", "notice-of-violation"),),
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
