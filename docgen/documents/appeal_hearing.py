"""The notice of the hearing of an appeal (§ 228-79C(1)(f); LAW.md § 14): its date, time
and place, and before whom. The article names no board or officer who hears an appeal, so
the pack names one (the municipality's choice) and the notice says so. ``docgen appeal
hearing`` issues it from the register."""

from __future__ import annotations

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
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
from docgen.law.pack import Pack


class Hearing(Model):
    date: IsoDate = cited(H, "the day of the hearing")
    time: Line = cited(H, "the time it begins, e.g. 7:00 p.m.")
    place: Line = cited("@appeals.place", "where it is held")


class HearingCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(F, "the notice of hearing's number")
    issued: IsoDate = cited(F, "the day the notice of hearing is issued")
    notice: AppealedNotice = cited(F)
    appeal: AppealFiled = cited(F)
    hearing: Hearing = cited(H)
    recipient: Party = cited(F, "the person who filed the appeal")
    copies_to: list[Party] = cited(F, "the others the notice named", default_factory=list)
    site: Site = cited(F, "the site of the notice")
    signed_by: NameAndTitle = cited("@enforcement.appeal_office", "who gives the notice")


def check(case: HearingCase, pack: Pack, options: Options) -> list[Problem]:
    if case.hearing.date < case.issued:
        return [Problem("hearing.date", "before the notice of the hearing is issued", H)]
    if case.issued < case.appeal.received:
        return [Problem("issued", "before the notice of appeal was received", F)]
    return []


def context(case: HearingCase, pack: Pack, options: Options) -> AppealContext:
    return appeal_context(case, pack, KIND.name, "Notice of Hearing of Appeal")


KIND = Kind(
    name="appeal-hearing",
    title="Notice of hearing of an appeal",
    model=HearingCase,
    template="notices/appeal_hearing.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the notice of the date, time and place of an appeal's hearing, and before whom",
    made_by_register=(
        "from the appeal the register holds: "
        "`docgen appeal hearing NUMBER`, or "
        "the hearing's form on the notice's page"
    ),
    keeps=(
        ("notice", "the notice appealed"),
        ("appeal", "the appeal"),
        ("hearing", "the hearing's date, time and place"),
    ),
    needs=("enforcement", "appeals"),
    appeal_step="hearing",
    issued_upon=(("appeal-acknowledgment",),),
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
