"""What answers a served notice of deficiency comes after its service (§ 228-79A(1);
LAW.md § 11): a reinspection re-checks corrective work the notice required of the persons
it was served on, and an escalation (a notice of violation or a stop-work order) rests on
deficiencies not corrected after it. Neither is dated before the day the register keeps as
the notice's service (complete service, docgen.register.storage.standing), nor made from a notice
not served yet, however it is issued (`docgen escalate`, or a draft whose date was typed);
and a reinspection states the notice's date as the register holds it."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.documents import inspection_report, kind_named
from docgen.documents import notice_of_deficiency as notice
from docgen.law.deadlines import long_date
from docgen.law.packs import load_pack
from docgen.register.rules.numbering import normalize
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.standing import served_on

INSPECTION = inspection_report.KIND.name


def after_service(doc: Document, on: date, what: str, fix: str) -> None:
    """Refuse ``what`` dated ``on`` from notice ``doc`` when ``on`` is before the notice's
    service (or the notice is not served): ``fix`` says what to do instead."""
    pack = load_pack(doc.jurisdiction, doc.issued)
    served = served_on(doc, pack)
    why = f"({pack.cite('inspection.halt')}; {pack.name.value} practice)"
    title = f"Notice of Deficiency No. {doc.number}"
    if served is None:
        raise RegisterError(
            f"{title} is not served yet: {what} answers a served notice; record the "
            f"notice's service first {why}"
        )
    if on < served:
        raise RegisterError(
            f"{long_date(on)} is before {title} was served ({long_date(served)}): {what} "
            f"answers a served notice, so {fix} on or after {long_date(served)} {why}"
        )


def check_reinspection(session: Session, kind: str, data: dict[str, Any], where: str) -> None:
    """A reinspection (an inspection report naming the notice it reinspects) issued into
    the register of ``where`` is on or after that notice's service, when the register
    holds the notice."""
    notice = (data.get("reinspects") or {}).get("notice") if kind == INSPECTION else None
    if not notice or not data.get("inspected"):
        return
    doc = session.scalars(
        select(Document).where(
            Document.number == normalize(str(notice)), Document.jurisdiction == where
        )
    ).first()
    if doc is None:
        return
    stated = (data.get("reinspects") or {}).get("issued")
    if stated and date.fromisoformat(str(stated)) != doc.issued:
        pack = load_pack(doc.jurisdiction, doc.issued)
        raise RegisterError(
            f"Notice of Deficiency No. {doc.number} was issued {long_date(doc.issued)}, not "
            f"{long_date(date.fromisoformat(str(stated)))}: a reinspection's report states the "
            f"notice's date as the register holds it; give {doc.issued.isoformat()} "
            f"({pack.cite('inspection.notify')})"
        )
    on = date.fromisoformat(str(data["inspected"]))
    after_service(doc, on, "a reinspection", "a reinspection of it is made")


def check_escalation(session: Session, kind: str, data: dict[str, Any], where: str) -> None:
    """A notice of violation or a stop-work order whose violations say they escalate a
    notice of deficiency the register of ``where`` holds (as `docgen escalate` and the
    desk's draft word them) is dated on or after that notice's service, whatever date was
    typed on the draft: it answers a served notice (LAW.md § 11)."""
    if kind not in notice.escalation_kinds() or not data.get("issued"):
        return
    on = date.fromisoformat(str(data["issued"]))
    for number in notice.escalated_from(data.get("violations") or []):
        doc = session.scalars(
            select(Document).where(
                Document.number == normalize(number),
                Document.jurisdiction == where,
                Document.kind == notice.KIND.name,
            )
        ).first()
        if doc is not None:
            what = f"a {kind_named(kind).title.lower()} escalated from it"
            after_service(doc, on, what, "it is dated")
