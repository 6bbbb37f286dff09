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
from typing import Annotated, Any, Literal

from pydantic import AfterValidator

from docgen.cases import labels
from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, Party, Text, cited
from docgen.cases.mail import CertifiedArticle
from docgen.documents import KINDS, kinds_with
from docgen.documents.kind import Context, DocMeta, Kind, Options, recipient_of
from docgen.errors import Problem
from docgen.law.deadlines import Deadline, Service, appeal_deadline, service_start
from docgen.law.pack import Pack

F = "@enforcement.elements.appeal"  # (f): service starts the appeal period
METHODS = Literal["personal-delivery", "certified-mail", "first-class-mail", "posting"]
# Each method of service as the pack's service rule names its means (LAW.md § 2).
MEANS = {
    "personal-delivery": "personal",
    "certified-mail": "mail",
    "first-class-mail": "mail",
    "posting": "posting",
}
MAIL = tuple(method for method, means in MEANS.items() if means == "mail")


def _served_kind(value: str) -> str:
    served = kinds_with(served=True)
    if value not in served:
        raise ValueError(f"{value!r} is not served on persons; one of {', '.join(served)}")
    return value


class ServedDocument(Model):
    kind: Annotated[str, AfterValidator(_served_kind)] = cited(F, "what was served")
    number: Line = cited(F, "its number")
    issued: IsoDate = cited(F, "its issue date")


class Server(Model):
    name: Line = cited(F, "who served it")
    title: Line | None = cited(F, "the server's title", default=None)


class ServiceFacts(Model):
    method: METHODS = cited(F, "personal-delivery, certified-mail, first-class-mail or posting")
    date: IsoDate = cited(F, "the day of delivery, mailing or posting")
    time: Line | None = cited(F, "personal delivery: the time (HH:MM)", default=None)
    received: IsoDate | None = cited(F, "mail: the day of receipt (return receipt)", default=None)
    received_by: Line | None = cited(F, "mail: who signed the return receipt", default=None)
    mailed: IsoDate | None = cited(F, "posting: the day the copy was mailed", default=None)
    article: CertifiedArticle | None = cited(
        F, "certified mail: the article number (its USPS check digit checked)", default=None
    )
    place: Text | None = cited(F, "where it was delivered or posted", default=None)
    address: Text | None = cited(F, "the address on the envelope mailed", default=None)
    individual: Line | None = cited(F, "the individual who took it", default=None)
    capacity: Line | None = cited(F, "their capacity, for a firm (officer, agent)", default=None)
    description: Text | None = cited(
        F,
        "a description of the individual served (sex, approximate age, height, weight, hair)",
        default=None,
    )
    mailed_by: Line | None = cited(F, "posting: who mailed the copy", default=None)
    mailer: Literal["affiant", "another"] | None = cited(
        F,
        "posting: whether the one who served mailed the copy too (affiant), or another",
        default=None,
    )
    mailing_proof: Line | None = cited(
        F, "posting: the number of the mailer's own affidavit of mailing", default=None
    )


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
    if s.method in ("personal-delivery", "posting") and not s.place:
        problems.append(
            Problem("service.place", f"where it was served by {labels.choice(s.method).lower()}", F)
        )
    if s.method != "personal-delivery" and not s.address:
        problems.append(Problem("service.address", "the address on the envelope mailed", F))
    return problems + _unsaid(case)


def _unsaid(case: AffidavitCase) -> list[Problem]:
    """The facts an affidavit of this service must state, missing: it states only what
    was recorded, nothing filled in for them (LAW.md § 10)."""
    s, said = case.service, "an affidavit states only what was recorded: say "
    wanted: list[tuple[str, Any, str]] = []
    if s.method == "personal-delivery":
        wanted += [
            ("time", s.time, "at what time it was delivered"),
            ("description", s.description, "how the person who took it looked"),
        ]
        if case.recipient.entity == "firm":
            wanted += [
                ("individual", s.individual, f"who took it for {case.recipient.name}"),
                ("capacity", s.capacity, "in what capacity they took it"),
            ]
    if s.method == "posting":
        wanted.append(("mailed_by", s.mailed_by, "who mailed the copy"))
        wanted.append(("mailer", s.mailer, "whether the one who served mailed it"))
    return [
        Problem(f"service.{field}", f"is missing: {said}{what}")
        for field, value, what in wanted
        if not value
    ]


@dataclass(frozen=True, kw_only=True)
class AffidavitContext(Context):
    case: AffidavitCase
    title: str  # "Affidavit of Service", or "Affirmation of Service" (CPLR 2106)
    served_title: str  # "Notice of Violation" or "Stop-Work Order"
    officer: bool  # the server is an officer of the municipality (named with an office)
    # Where served by mail, the person served, addressed in the window of page 1 (LAW.md
    # § 9, § 10); the article number is stated in the facts, not over the address, since
    # it belongs to the envelope that carried the document served, not to this one.
    window: Party | None


def completed(
    method: str, on: date, received: date | None, mailed: date | None, pack: Pack
) -> Service:
    """The day service was complete, by the pack's rule for the means (without the appeal
    period it starts: the register's reader of many notices wants the day alone)."""
    served = SimpleNamespace(date=on, means=MEANS[method], received=received, mailed=mailed)
    return service_start(served, pack)


def appeal_from(
    method: str, on: date, received: date | None, mailed: date | None, pack: Pack
) -> tuple[Service, Deadline | None]:
    """The day service was complete (the pack's rule for the means) and, where the law
    gives an appeal, the last day of its period (None where it gives none)."""
    start = completed(method, on, received, mailed, pack)
    if not pack.part("enforcement").appealable:
        return start, None
    return start, appeal_deadline(start.start, pack)


def context(case: AffidavitCase, pack: Pack, options: Options) -> AffidavitContext:
    """Facts only (LAW.md § 10): no deadline, no legal conclusion; the appeal period it
    starts is the register's, stated on documents issued after service."""
    title = "Affirmation of Service" if case.oath == "affirmation" else "Affidavit of Service"
    return AffidavitContext(
        case=case,
        title=title,
        served_title=KINDS[case.document.kind].heading,
        officer=bool(case.server.title),
        window=(
            case.recipient.model_copy(update={"certified_article": None})
            if case.service.method in MAIL
            else None
        ),
        doc=DocMeta.numbered(KIND.name, title, case.number, pack, case.service.date),
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


# -- reading an issued notice or order's stored case (the register's JSON) ------------------
def persons_served(case: dict[str, Any]) -> list[dict[str, Any]]:
    """Each person a served document was sent to: the landowner first, then each person
    copied (LAW.md § 2: each is served, each service an event of its own)."""
    people = [case["recipient"], *(case.get("copies_to") or [])]
    keys = ("name", "role", "address", "certified_article", "entity")
    return [{k: p[k] for k in keys if k in p} for p in people]


def one_line(address: dict[str, Any]) -> str:
    return f"{address['street']}, {address['city']}, {address['state']} {address['zip']}"


def issuing_officer(case: dict[str, Any]) -> dict[str, Any]:
    return case.get("officer") or {}
