"""The forms on a document's page that record what happened to it (service, a disposition,
lifting an order): each field's label, read by the page's template and by every message
about the field, and what is typed turned into the register's call.

The register refuses a request naming its fields (docgen.register.storage.db.Refused), every
problem at once; the desk says each with the form's label ("Date received: ..."), never
the command line's option (``--received``). A date is typed as text and read by the case
model's own parser, so an impossible one is reported as such (30 February 2026).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from docgen.cases.common import read_date
from docgen.errors import DocgenError, Problem, without_notes
from docgen.register.matter.service_event import Service
from docgen.register.storage.db import Refused

SERVICE = {
    "to": "Person served",
    "method": "Method",
    "date": "Date of service (or mailing)",
    "received": "Date received (mail, from the return receipt)",
    "served_by": "Served by (their name)",
    "served_by_officer": "type the issuing officer's name",
    "article": "Certified-mail article number",
    "received_by": "Return receipt signed by (mail)",
    "place": "Place of delivery or posting",
    "time": "Time of delivery",
    "person": "Individual handed the copy",
    "capacity": "Their capacity (e.g. managing member)",
    "description": "Their description (sex, approximate age, height, weight, hair)",
    "oath": "The server swears",
}
DISPOSITION = {
    "disposition": "Disposition",
    "date": "Date (a conviction needs it)",
    "court": "Court",
    "docket": "Docket",
}
LIFT = {"date": "Date compliance was confirmed and the order lifted"}
# After the notice (§ 228-79C(5); LAW.md § 14): the order preventing occupancy, its release.
WITHHOLD = {
    "premises": "Building or land whose occupancy is prevented",
    "date": "Date the order is issued",
}
RELEASE = {"date": "Date the order is released in writing"}
# The notice requiring restoration (§ 228-79C(6)): what, by when (the officer's date).
RESTORE = {
    "restore": "What is to be restored to its undisturbed condition",
    "restore_by": "Restore by (the reasonable time after notice)",
    "date": "Date the notice is issued",
}
# After the date set for restoration (§ 228-79C(6)): the cost of the corrective action, the
# lien on the property "until paid", each payment and the release.
COST = {
    "items": "Items of the corrective work (one a line: what = amount)",
    "inspection": "Inspection report that found the restoration not done",
    "date": "Date of the statement",
}
LIEN = {"date": "Date of the notice of lien"}
PAYMENT = {"amount": "Amount paid", "date": "Date paid", "paid_by": "Paid by"}
LIEN_RELEASE = {"date": "Date of the release of the lien"}
# What comes back after mailing (LAW.md § 2), recorded on the mailing it belongs to.
RECEIPT = {
    "mailing": "Mailing",
    "received": "Date received (as the card shows)",
    "signed_by": "Signed by (as signed or printed on the card)",
    "to": "Mailing",
    "article": "Mailing",
    "mailed": "Mailing",
}
RETURNED = {
    "mailing": "Mailing",
    "date": "Date it came back",
    "reason": "Reason on the envelope",
    "to": "Mailing",
    "article": "Mailing",
    "mailed": "Mailing",
}
# An appeal of a notice of violation (§ 228-79C(1)(f)): received, heard, decided.
APPEAL = {
    "received": "Date the notice of appeal was received",
    "received_by": "Received by",
    "filed_by": "Filed by (when not the landowner)",
    "date": "Date of the acknowledgment (when not today)",
}
HEARING = {
    "hearing": "Date of the hearing",
    "time": "Time (e.g. 7:00 p.m.)",
    "place": "Place (when not the usual one)",
    "signed_by": "Given by (when not who received the appeal)",
    "date": "Date of the notice of hearing (when not today)",
}
DECISION = {
    "outcome": "Decision",
    "reason": "Reasons",
    "modification": "How it is modified (a modified decision)",
    "remedy": "Remedial measure {n}, now due (when the decision sets its date)",
    "date": "Date decided",
    "signed_by": "Signed by",
    "title": "Their title",
}
# A later date for a corrective action or a remedial measure (extended, never shortened).
EXTEND = {
    "item": "Item",
    "until": "New date",
    "granted_by": "Granted by",
    "reason": "Why",
    "date": "Date granted (when not today)",
}
# A document the register makes from another (nothing typed but its date).
MADE = {"date": "Date"}
FORMS = {
    "made": MADE,
    "service": SERVICE,
    "disposition": DISPOSITION,
    "lift": LIFT,
    "appeal": APPEAL,
    "hearing": HEARING,
    "decision": DECISION,
    "withhold": WITHHOLD,
    "release": RELEASE,
    "extend": EXTEND,
    "restore": RESTORE,
    "cost": COST,
    "lien": LIEN,
    "payment": PAYMENT,
    "release-lien": LIEN_RELEASE,
    "receipt": RECEIPT,
    "returned": RETURNED,
}


def name(form: str, field: str) -> str:
    """A field as a message names it: its label without the hint in parentheses (a
    numbered field, ``remedy_2``: its label with the number, "Remedial measure 2, now
    due")."""
    numbered = re.fullmatch(r"([a-z_]+?)_(\d+)", field)
    if field not in FORMS[form] and numbered and numbered[1] in FORMS[form]:
        return FORMS[form][numbered[1]].format(n=numbered[2]).split(" (")[0]
    return FORMS[form].get(field, field.replace("_", " ")).split(" (")[0]


def said(err: DocgenError, form: str, label: str = "") -> list[str]:
    """A refusal in the clerk's words: each problem with the form's label of its field
    (``label``: the one field's label as this form shows it, "Date of the approval...")."""
    if isinstance(err, Refused):
        lines = err.said(lambda field: label or name(form, field))
    else:
        lines = str(err).splitlines()
    return [COMMAND.sub("", without_notes(line)) for line in lines]


@dataclass(frozen=True)
class Asked:
    """A step refused for a fact it lacks, shown again as the question to answer next:
    the form (``typed_for``: "lift", "service", a made kind) and the field it is asked
    beside, the question in the form's words, and what was refused (each line naming the
    field by the form's label, with the law's citation). The page puts focus there."""

    form: str
    field: str
    question: str
    said: list[str]


# The question each refused step asks beside its field (a made document's: its title's).
QUESTIONS = {
    ("lift", "date"): (
        "On what day was compliance confirmed? The order is lifted as of that day: not "
        "before its service was complete, and not after today."
    ),
    ("service", "date"): "When was this order served? Record its service here; then lift it.",
    ("made", "date"): "On what day is the {title} dated? Today, or an earlier day the law allows.",
}


def asked(err: DocgenError, form: str, lines: list[str], title: str = "") -> Asked | None:
    """The question a refusal of ``form`` asks beside the first field it names (the form
    making a document: ``title``, that document's); None where it names no field that asks
    one, the refusal being the page's alone."""
    problems = err.problems if isinstance(err, Refused) else []
    field = next((p.field for p in problems if p.field), "")
    question = QUESTIONS.get(("made" if title else form, field))
    if question is None:
        return None
    return Asked(form, field, question.format(title=title.lower()), lines)


# The command a refusal names for the command line ("(docgen record-inspection)"): the
# desk says what to record in words, its own forms being on the document's pages.
COMMAND = re.compile(r" \(docgen [^()]*(?:\([^()]*\)[^()]*)*\)")


def fields(err: DocgenError) -> set[str]:
    """The fields a refusal is about (marked invalid on the form)."""
    return {p.field for p in err.problems if p.field} if isinstance(err, Refused) else set()


def text(value: Any) -> str | None:
    return str(value or "").strip() or None


def dates(form: Any, wanted: dict[str, bool]) -> tuple[dict[str, date | None], list[Problem]]:
    """The dates typed in ``form`` (field -> required), and a problem for each one missing
    or not a date."""
    found: dict[str, date | None] = {}
    problems = []
    for field, required in wanted.items():
        typed = text(form.get(field))
        found[field] = None
        if typed is None:
            if required:
                problems.append(Problem(field, "missing"))
            continue
        try:
            found[field] = read_date(typed)
        except ValueError as err:
            problems.append(Problem(field, str(err)))
    return found, problems


def _day(days: dict[str, date | None], field: str) -> date:
    """A required date, once the problems of the form were refused: :func:`dates` named it
    missing if it was not typed."""
    day = days[field]
    if day is None:
        raise Refused([Problem(field, "missing")])
    return day


def service(reg: Any, number: str, form: Any, by: str, jurisdiction: str | None = None) -> None:
    """Record the service typed in the form; every problem of it refused at once."""
    days, problems = dates(form, {"date": True, "received": False})
    event = Service(
        str(form.get("method") or ""),
        days["date"],
        to=text(form.get("to")),
        received=days["received"],
        served_by=text(form.get("served_by")),
        place=text(form.get("place")),
        time=text(form.get("time")),
        person=text(form.get("person")),
        capacity=text(form.get("capacity")),
        description=text(form.get("description")),
        received_by=text(form.get("received_by")),
        article=text(form.get("article")),
    )
    if problems:
        raise Refused(problems + event.problems())
    oath = "affirmation" if form.get("oath") == "affirmation" else "notary"
    reg.record_service(number, event, oath=oath, by=by, jurisdiction=jurisdiction)


def disposition(reg: Any, number: str, form: Any, by: str, jurisdiction: str | None = None) -> None:
    days, problems = dates(form, {"date": False})
    if problems:
        raise Refused(problems)
    reg.record_disposition(
        number,
        str(form.get("disposition") or ""),
        days["date"],
        court=text(form.get("court")),
        docket=text(form.get("docket")),
        by=by,
        jurisdiction=jurisdiction,
    )


def made_date(form: Any, title: str, jurisdiction: str) -> date | None:
    """The date typed for a document the register makes (None: today in the municipality),
    refused after today there: a document is dated the day it is issued, never ahead."""
    # law.packs loads yaml (+42 ms): loaded on first use
    from docgen.law.deadlines import long_date
    from docgen.law.pack import municipal_today
    from docgen.law.packs import load_pack

    days, problems = dates(form, {"date": False})
    on, pack = days["date"], load_pack(jurisdiction)
    today = municipal_today(pack)
    if not problems and on is not None and on > today:
        problems.append(
            Problem(
                "date",
                f"{long_date(on)} is after today ({long_date(today)} in the "
                f"{pack.name.value}); the {title.lower()} is dated the day it is issued or "
                "earlier, never ahead",
            )
        )
    if problems:
        raise Refused(problems)
    return on


def lift_date(form: Any) -> date:
    days, problems = dates(form, {"date": True})
    if problems:
        raise Refused(problems)
    return _day(days, "date")


def withheld(form: Any) -> tuple[str, date]:
    """The building or land and the order's date, as typed (both required)."""
    days, problems = dates(form, {"date": True})
    premises = text(form.get("premises"))
    if premises is None:
        problems.insert(0, Problem("premises", "missing"))
    if problems:
        raise Refused(problems)
    return premises or "", _day(days, "date")


def restoration(form: Any) -> tuple[str, date, date]:
    """What is to be restored, by when, and the notice's date, as typed (all required)."""
    days, problems = dates(form, {"restore_by": True, "date": True})
    restore = text(form.get("restore"))
    if restore is None:
        problems.insert(0, Problem("restore", "missing"))
    if problems:
        raise Refused(problems)
    return restore or "", _day(days, "restore_by"), _day(days, "date")


def amount(typed: Any) -> Decimal | None:
    """An amount of money as typed ("1,250.00", "$410.50"); None when it is not one."""
    try:
        value = Decimal(str(typed or "").strip().replace(",", "").replace("$", ""))
    except InvalidOperation:
        return None
    return value.quantize(Decimal("0.01")) if value.is_finite() else None


def cost(form: Any) -> tuple[list[tuple[str, Decimal]], str, date]:
    """Each item of the corrective work (a line "what = amount"), the inspection report's
    number and the statement's date, as typed (all required)."""
    days, problems = dates(form, {"date": True})
    items: list[tuple[str, Decimal]] = []
    for line in str(form.get("items") or "").splitlines():
        if not line.strip():
            continue
        what, _, typed = line.rpartition("=")
        value = amount(typed)
        if not what.strip() or value is None:
            message = (
                f"{line.strip()!r}: give each line as what = amount, e.g. seed and mulch = 410.50"
            )
            problems.append(Problem("items", message))
        else:
            items.append((what.strip(), value))
    if not items and not any(p.field == "items" for p in problems):
        problems.insert(0, Problem("items", "missing"))
    report = text(form.get("inspection"))
    if report is None:
        problems.append(Problem("inspection", "missing"))
    if problems:
        raise Refused(problems)
    return items, report or "", _day(days, "date")


def payment(form: Any) -> tuple[Decimal, date, str]:
    """The amount, the day paid and who paid, as typed (all required)."""
    days, problems = dates(form, {"date": True})
    value = amount(form.get("amount"))
    if text(form.get("amount")) is None:
        problems.insert(0, Problem("amount", "missing"))
    elif value is None:
        problems.insert(0, Problem("amount", "not an amount, e.g. 460.50"))
    paid_by = text(form.get("paid_by"))
    if paid_by is None:
        problems.append(Problem("paid_by", "missing"))
    if problems:
        raise Refused(problems)
    return value or Decimal(0), _day(days, "date"), paid_by or ""


def mailing(reg: Any, number: str, form: Any, jurisdiction: str | None) -> dict[str, Any]:
    """The mailing chosen on the form (its place among the document's service events),
    as the register names it: to whom, on which day, with which article number."""
    events = reg.document(number, jurisdiction).services
    typed = text(form.get("mailing")) or ""
    if not typed.isdigit() or not 0 <= int(typed) < len(events):
        raise Refused([Problem("mailing", "choose the mailing the card or envelope belongs to")])
    event = events[int(typed)]
    return {"to": event.served_on, "mailed": event.date, "article": event.article}


def receipt(reg: Any, number: str, form: Any, by: str, jurisdiction: str | None = None) -> None:
    """Record the return receipt typed in the form on its mailing."""
    days, problems = dates(form, {"received": True})
    if problems:
        raise Refused(problems)
    signed = text(form.get("signed_by")) or ""
    mailed = mailing(reg, number, form, jurisdiction)
    reg.record_receipt(number, days["received"], signed, by=by, jurisdiction=jurisdiction, **mailed)


def returned(reg: Any, number: str, form: Any, by: str, jurisdiction: str | None = None) -> None:
    """Record the mailing that came back undelivered, with its reason."""
    days, problems = dates(form, {"date": True})
    if problems:
        raise Refused(problems)
    reason = str(form.get("reason") or "")
    mailed = mailing(reg, number, form, jurisdiction)
    reg.record_return(number, days["date"], reason, by=by, jurisdiction=jurisdiction, **mailed)


CHANGES = {"service": service, "disposition": disposition, "receipt": receipt, "returned": returned}
