"""The written acknowledgment of a notice of appeal received (§ 228-79C(1)(f); LAW.md § 14).

"... may be appealed to the municipality by filing a written notice of appeal within 15
days of service of notice of violation." The acknowledgment states the day the notice of
appeal was received and whether that was on time or late (computed when it is rendered,
never typed), counted from the service the
register holds (never from the issue date), with the last day and how it was computed
(GCL §§ 24, 25-a: a last day on a Saturday, Sunday or public holiday moves to the next
business day). ``docgen appeal record`` issues it from the register.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
from docgen.documents.appeal_parts import AppealContext, F, appeal_context
from docgen.documents.kind import Kind, Options, issued_on, recipient_of, site_of
from docgen.errors import Problem
from docgen.law.deadlines import Deadline, appeal_deadline
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
    kept_last_day: IsoDate | None = cited(
        F,
        "the last day the register stated before, when later than the one this service gives "
        "(a last day once stated is never shortened)",
        default=None,
    )


@dataclass(frozen=True)
class Timing:
    """Whether an appeal was filed on time: computed from the service and the pack, never
    typed, so an appeal filed late is never stated as on time."""

    deadline: Deadline  # from service: day N, and the last day once GCL § 25-a moved it
    last_day: date  # that last day, or the later one the register kept
    on_time: bool


def timing(served: date, received: date, kept: date | None, pack: Pack) -> Timing:
    law = appeal_deadline(served, pack)
    last = max(law.last_day, kept) if kept is not None else law.last_day
    return Timing(law, last, received <= last)


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
    problems = []
    ref = pack.cite(F[1:])
    if case.appeal.received < case.notice.issued:
        problems.append(Problem("appeal.received", "before the notice was issued", ref))
    if case.issued < case.appeal.received:
        problems.append(
            Problem("issued", "an acknowledgment is issued on or after the day received", ref)
        )
    return problems


@dataclass(frozen=True, kw_only=True)
class AcknowledgmentContext(AppealContext):
    timing: Timing
    days: int


def context(case: AcknowledgmentCase, pack: Pack, options: Options) -> AcknowledgmentContext:
    base = appeal_context(case, pack, KIND.name, "Acknowledgment of Notice of Appeal")
    a = case.appeal
    return AcknowledgmentContext(
        case=case,
        doc=base.doc,
        heard_by=base.heard_by,
        chosen=base.chosen,
        timing=timing(case.notice.served, a.received, a.kept_last_day, pack),
        days=pack.part("enforcement").appeal_days.value,
    )


KIND = Kind(
    name="appeal-acknowledgment",
    title="Acknowledgment of a notice of appeal",
    model=AcknowledgmentCase,
    template="notices/appeal_acknowledgment.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the written acknowledgment that a notice of appeal was received, on time or late",
    made_by_register=(
        "from the served notice the register holds, as the appeal is received: "
        "`docgen appeal record NUMBER`, or "
        "Record an appeal on the notice's page"
    ),
    keeps=(
        ("notice", "the notice appealed"),
        ("appeal", "the appeal as received, and whether on time"),
        ("issued", "the day of the acknowledgment"),
    ),
    needs=("enforcement", "appeals"),
    appeal_step="received",
    issued_upon=(("notice-of-violation",),),
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
