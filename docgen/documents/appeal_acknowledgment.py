"""The written acknowledgment of a notice of appeal received (§ 228-79C(1)(f); LAW.md § 14).

"... may be appealed to the municipality by filing a written notice of appeal within 15
days of service of notice of violation." The acknowledgment states the day the notice of
appeal was received and whether that was on time or late, counted from the service the
register holds (never from the issue date), with the last day and how it was computed
(GCL §§ 24, 25-a: a last day on a Saturday, Sunday or public holiday moves to the next
business day). ``docgen appeal record`` issues it from the register.
"""

from __future__ import annotations

from typing import Literal

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
from docgen.documents.appeal_parts import AppealContext, F, appeal_context
from docgen.documents.base import Kind, Options, issued_on, recipient_of, site_of
from docgen.errors import Problem
from docgen.law.deadlines import appeal_deadline, long_date
from docgen.law.pack import Pack


class ServedNotice(Model):
    number: Line = cited(F, "the notice of violation appealed")
    issued: IsoDate = cited(F, "its issue date")
    served: IsoDate = cited(
        F, "the day service on the landowner was complete, as the register keeps it"
    )


class AppealReceived(Model):
    received: IsoDate = cited(F, "the day the written notice of appeal was received")
    received_by: Line = cited(F, "who received it for the municipality")
    filed_by: Line = cited(F, "who filed it")
    day_15: IsoDate = cited(F, "the 15th day after service was complete")
    last_day: IsoDate = cited(F, "the last day to file, as the register keeps it")
    moved: list[Line] = cited(
        "@enforcement.appeal_deadline", "why day 15 was not a business day", default_factory=list
    )
    filed: Literal["on time", "late"] = cited(F, "on or before the last day, or after it")


class AcknowledgmentCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(F, "the acknowledgment's number")
    issued: IsoDate = cited(F, "the day the acknowledgment is issued")
    notice: ServedNotice = cited(F)
    appeal: AppealReceived = cited(F)
    recipient: Party = cited(F, "the person who filed the appeal")
    copies_to: list[Party] = cited(F, "the others the notice named", default_factory=list)
    site: Site = cited(F, "the site of the notice")
    signed_by: NameAndTitle = cited("@enforcement.appeal_office", "who received it")


def check(case: AcknowledgmentCase, pack: Pack, options: Options) -> list[Problem]:
    """An appeal filed late is never stated as on time: the last day is never earlier than
    the one the law gives from the service stated, and 'on time' means received on or
    before it."""
    problems = []
    a, n = case.appeal, case.notice
    law = appeal_deadline(n.served, pack)
    if a.last_day < law.last_day or a.day_15 != law.nominal:
        problems.append(
            Problem(
                "appeal.last_day",
                f"{long_date(a.last_day)} is not the last day to appeal from service on "
                f"{long_date(n.served)}: the law gives {long_date(law.last_day)}",
                law.period_ref,
            )
        )
    on_time = a.received <= a.last_day
    if (a.filed == "on time") != on_time:
        problems.append(
            Problem(
                "appeal.filed",
                f"received {long_date(a.received)}, the last day {long_date(a.last_day)}: "
                f"the appeal was filed {'on time' if on_time else 'late'}",
                law.period_ref,
            )
        )
    if a.received < n.issued:
        problems.append(Problem("appeal.received", "before the notice was issued", law.period_ref))
    if case.issued < a.received:
        problems.append(
            Problem("issued", "an acknowledgment is issued on or after the day received", F)
        )
    return problems


def context(case: AcknowledgmentCase, pack: Pack, options: Options) -> AppealContext:
    return appeal_context(case, pack, KIND.name, "Acknowledgment of Notice of Appeal")


KIND = Kind(
    name="appeal-acknowledgment",
    title="Acknowledgment of a notice of appeal",
    model=AcknowledgmentCase,
    template="notices/appeal_acknowledgment.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the written acknowledgment that a notice of appeal was received, on time or late",
    needs=("enforcement", "appeals"),
    appeal_step="received",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
