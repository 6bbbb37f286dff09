"""Affidavit of service: proof that a notice of violation or stop-work order was served.

Who served, how, when and where, the certified-mail article number, sworn before a
notary (the jurat left for the notary, with the block of Executive Law § 137) or
affirmed under CPLR 2106. For a notice, it states the last day to appeal that the
service started (§ 228-79C(1)(f): the pack's service rule and GCL § 25-a, both through
docgen.law.deadlines).
``docgen record-service`` issues one from the register; it can also be rendered from a
case file like any kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace
from typing import Literal

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, Party, Text, cited
from docgen.documents.base import Context, DocMeta, Kind, Options, recipient_of
from docgen.errors import Problem
from docgen.law.deadlines import Deadline, Service, appeal_deadline, service_start
from docgen.law.pack import Pack

F = "@enforcement.elements.appeal"  # (f): service starts the appeal period
TITLES = {"notice-of-violation": "Notice of Violation", "stop-work-order": "Stop-Work Order"}
METHODS = Literal["personal-delivery", "certified-mail", "first-class-mail", "posting"]
# Each method of service as the pack's service rule names its means (LAW.md § 2).
MEANS = {
    "personal-delivery": "personal",
    "certified-mail": "mail",
    "first-class-mail": "mail",
    "posting": "posting",
}
MAIL = tuple(method for method, means in MEANS.items() if means == "mail")


class ServedDocument(Model):
    kind: Literal["notice-of-violation", "stop-work-order"] = cited(F, "what was served")
    number: Line = cited(F, "its number")
    issued: IsoDate = cited(F, "its issue date")


class Server(Model):
    name: Line = cited(F, "who served it")
    title: Line | None = cited(F, "the server's title", default=None)


class ServiceFacts(Model):
    method: METHODS = cited(F, "personal-delivery, certified-mail, first-class-mail or posting")
    date: IsoDate = cited(F, "the day of delivery, mailing or posting")
    received: IsoDate | None = cited(F, "mail: the day of receipt (return receipt)", default=None)
    mailed: IsoDate | None = cited(F, "posting: the day the copy was mailed", default=None)
    article: Line | None = cited(F, "certified mail: the article number", default=None)
    place: Text = cited(F, "where: the address delivered at, mailed to, or posted at")


class AffidavitCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(F, "the affidavit's number")
    document: ServedDocument = cited(F)
    recipient: Party = cited(F, "on whom it was served")
    server: Server = cited(F)
    service: ServiceFacts = cited(F)
    oath: Literal["notary", "affirmation"] = cited(
        "CPLR 2106", "sworn before a notary, or affirmed under CPLR 2106", default="notary"
    )


def check(case: AffidavitCase, pack: Pack, options: Options) -> list[Problem]:
    s, problems = case.service, []
    if s.date < case.document.issued:
        problems.append(
            Problem(
                "service.date",
                f"{s.date} is before {case.document.number} was issued ({case.document.issued})",
                F,
            )
        )
    if s.received is not None and (s.method not in MAIL or s.received < s.date):
        problems.append(
            Problem("service.received", "a day of receipt is for mail, on or after mailing", F)
        )
    if s.article is not None and s.method != "certified-mail":
        problems.append(Problem("service.article", "an article number is for certified mail", F))
    if s.method == "posting" and s.mailed is None:
        problems.append(
            Problem("service.mailed", "posting counts with the copy mailed: give the day", F)
        )
    return problems


@dataclass(frozen=True, kw_only=True)
class AffidavitContext(Context):
    case: AffidavitCase
    title: str  # "Affidavit of Service", or "Affirmation of Service" (CPLR 2106)
    served_title: str  # "Notice of Violation" or "Stop-Work Order"
    deadline: Deadline | None  # for a notice: the last day to appeal this service gives
    service: Service | None  # from which day the appeal period ran, and the rule that says so


def appeal_from(
    method: str, on: date, received: date | None, mailed: date | None, pack: Pack
) -> tuple[Service, Deadline]:
    """The day the appeal period runs from (the pack's rule for the means) and its end."""
    served = SimpleNamespace(date=on, means=MEANS[method], received=received, mailed=mailed)
    start = service_start(served, pack)
    return start, appeal_deadline(start.start, pack)


def context(case: AffidavitCase, pack: Pack, options: Options) -> AffidavitContext:
    s = case.service
    service, deadline = None, None
    if case.document.kind == "notice-of-violation":
        service, deadline = appeal_from(s.method, s.date, s.received, s.mailed, pack)
    title = "Affirmation of Service" if case.oath == "affirmation" else "Affidavit of Service"
    return AffidavitContext(
        case=case,
        title=title,
        served_title=TITLES[case.document.kind],
        deadline=deadline,
        service=service,
        doc=DocMeta.numbered(KIND.name, title, case.number, pack, s.date),
    )


KIND = Kind(
    name="affidavit-of-service",
    title="Affidavit of service",
    model=AffidavitCase,
    template="notices/affidavit_of_service.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="proof of service of a notice or order, sworn or affirmed (CPLR 2106)",
    needs=("enforcement", "service_proof"),
    issued=lambda case: case.service.date,  # an affidavit is made on the day of service
    party=recipient_of,
)
