"""What the documents of an appeal share (§ 228-79C(1)(f); LAW.md § 14): the notice
appealed, the notice of appeal as received, and the board or officer that hears it (the
municipality's choice: the article names no one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docgen.cases.common import IsoDate, Line, Model, NameAndTitle, cited
from docgen.documents.kind import Context, DocMeta
from docgen.law.pack import Pack

F = "@enforcement.appeal_days"  # § 228-79C(1)(f): appealed within 15 days of service
H = "@appeals.heard_by"  # who hears it: the municipality's choice


class AppealedNotice(Model):
    number: Line = cited(F, "the notice of violation appealed")
    issued: IsoDate = cited(F, "its issue date")


class AppealFiled(Model):
    acknowledgment: Line = cited(F, "the acknowledgment's number, issued when it was received")
    received: IsoDate = cited(F, "the day the written notice of appeal was received")
    filed_by: Line = cited(F, "who filed the notice of appeal")


def heard_by(pack: Pack) -> str:
    return str(pack.part("appeals").heard_by.value)


def chosen(pack: Pack) -> str:
    """The sentence saying who hears the appeal is the municipality's choice."""
    return str(pack.part("appeals").chosen.value.format(heard_by=heard_by(pack)))


@dataclass(frozen=True, kw_only=True)
class AppealContext(Context):
    case: Any
    heard_by: str
    chosen: str


def appeal_context(case: Any, pack: Pack, name: str, title: str) -> AppealContext:
    return AppealContext(
        case=case,
        doc=DocMeta.numbered(name, title, case.number, pack, case.issued),
        heard_by=heard_by(pack),
        chosen=chosen(pack),
    )


__all__ = ["AppealContext", "AppealFiled", "AppealedNotice", "NameAndTitle", "appeal_context"]
