"""The firm mailing list of a day's certified pieces (LAW.md § 9), which the clerk takes to
the post office with the envelopes: the content of the Postal Service's firm mailing sheet
(PS Form 3877; PS Form 3800 for a single piece): the sender, each piece's article number,
addressee and address, the document it carries, columns for the postage and fees to be
filled in at the counter, the count of pieces, and the space for the post office's
acceptance stamp. A piece without an article number is listed as missing it, so it is
caught before the envelopes leave.

``docgen mailing-list --date D`` builds the case from the register (docgen.register.matter.mailing);
it can also be rendered from a case file like any kind. Numbered per day: ML-2026-11-04.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from docgen.cases.common import Address, IsoDate, Jurisdiction, Line, Model, cited
from docgen.cases.mail import CertifiedArticle
from docgen.documents.kind import Context, DocMeta, Kind, Options
from docgen.errors import Problem
from docgen.law.pack import Pack

M = "@provisions.mailing-list"


def day_number(day: date) -> str:
    """The list's number: one list per day and municipality."""
    return f"ML-{day.isoformat()}"


class Piece(Model):
    """One envelope: whom it goes to, what it carries, its certified article number."""

    name: Line = cited(M, "the addressee, as on the envelope")
    address: Address = cited(M, "the address on the envelope")
    document: Line = cited(M, "the number of the document it carries")
    title: Line = cited(M, "what it carries, e.g. Notice of Violation, or a copy of one")
    article: CertifiedArticle | None = cited(
        M, "the certified mail article number (missing: listed as missing)", default=None
    )


class MailingListCase(Model):
    jurisdiction: Jurisdiction
    date: IsoDate = cited(M, "the day the pieces are mailed")
    pieces: list[Piece] = cited(M, "the day's certified pieces", default_factory=list)


def check(case: MailingListCase, pack: Pack, options: Options) -> list[Problem]:
    if not case.pieces:
        return [Problem("pieces", f"no certified pieces to list for {case.date}", pack.cite(M[1:]))]
    return []


@dataclass(frozen=True, kw_only=True)
class MailingListContext(Context):
    case: MailingListCase
    missing: int  # pieces without an article number


def context(case: MailingListCase, pack: Pack, options: Options) -> MailingListContext:
    title = "Firm Mailing List"
    number = day_number(case.date)
    return MailingListContext(
        case=case,
        missing=sum(1 for p in case.pieces if p.article is None),
        doc=DocMeta(
            kind=KIND.name,
            title=f"{title} {number}",
            number=number,
            running_head=f"{pack.name.value} · {title} {number}",
            date=case.date,
            filename=f"{number}-{KIND.name}",
        ),
        warnings=tuple(
            f"pieces[{i}]: {p.document} to {p.name} has no certified mail article number"
            for i, p in enumerate(case.pieces)
            if p.article is None
        ),
    )


KIND = Kind(
    name="mailing-list",
    title="Firm mailing list",
    model=MailingListCase,
    template="notices/mailing_list.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the day's certified pieces for the post office (PS Form 3877's content)",
    lists_mailings=True,
    needs=("offices",),
    issued=lambda case: case.date,
)
