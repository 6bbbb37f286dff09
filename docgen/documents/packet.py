"""Violation packet: one file for service, holding the notice of violation, the penalty
statement for its recipient and, when the case has ``effective``, the stop-work order.

The packet's case file is a notice case plus the optional stop-work keys (``effective``,
``notices``, ``allowed_work``, ``contact``). It is validated and checked once, as a
whole; each part is then built by its own kind from the keys that kind accepts, so each
keeps its own words, number and running head. Every part starts on a new page and counts
its own pages ("Page 1 of N"): the PDF lays each part out on its own and joins the pages
(so each keeps its counters); the HTML and DOCX hold each part in a
``<section class="document">``, which the DOCX writer turns into a Word section whose
page numbers restart. That page is composed by the template engine
(base/packet.html.j2) from each part's body as the part rendered it, never cut out of the
parts' pages.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from docgen.cases import labels
from docgen.cases.common import IsoDate, Line, Text, cited
from docgen.cases.enforcement import Contact
from docgen.cases.validate import validate_and_check
from docgen.documents import notice_of_violation, penalty_statement, stop_work_order
from docgen.documents.kind import (
    Bundle,
    Options,
    charged,
    earliest_remedy,
    issued_on,
    recipient_of,
    site_of,
)
from docgen.documents.notice_of_violation import NoticeCase
from docgen.documents.pipeline import build_document, jurisdiction_of
from docgen.documents.stop_work_order import effective_problems
from docgen.errors import CaseInvalid, DocgenError, Problem
from docgen.law.pack import Pack
from docgen.render import language
from docgen.render.formats import Rendition
from docgen.render.html import HtmlDocument, render_page

NAME = "packet"
S = "@provisions.stop-work-order"
STOP_WORK_KEYS = ("effective", "notices", "allowed_work", "contact")


class PacketCase(NoticeCase):
    """A notice of violation case, plus what a stop-work order needs when one is served."""

    effective: IsoDate | None = cited(S, "stop-work order effective date", default=None)
    notices: list[Line] = cited(
        S, "notices the order rests on (default: this one)", default_factory=list
    )
    allowed_work: list[Text] = cited(
        "@enforcement.stabilization", "work that may continue", default_factory=list
    )
    contact: Contact | None = cited(S, "whom to call for the lifting inspection", default=None)


def check(case: PacketCase, data: dict[str, Any]) -> list[Problem]:
    """The notice's elements, and the stop-work keys when the packet carries an order."""
    problems: list[Problem] = []
    fields = type(case).model_fields
    given = [labels.label(key, fields.get(key)) for key in STOP_WORK_KEYS if key in data]
    if given and case.effective is None:
        problems.append(
            Problem(
                "effective",
                f"is required when the packet carries a stop-work order ({', '.join(given)} "
                "given); without it, leave out the stop-work order's fields",
                S,
            )
        )
    if case.effective is not None:
        if case.contact is None:
            problems.append(
                Problem("contact", "is required: whom to call to request the inspection", S)
            )
        problems += effective_problems(case, S)
    return problems


def validated(data: dict[str, Any], options: Options, source: str = "") -> PacketCase:
    """The packet case, or CaseInvalid listing every problem of every part at once."""
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid as err:
        raise CaseInvalid(err.problems, source) from None
    pack.require(notice_of_violation.KIND)
    pack.require(penalty_statement.KIND)
    if "effective" in data:
        pack.require(stop_work_order.KIND)
    return validate_and_check(
        PacketCase,
        data,
        pack,
        lambda c: notice_of_violation.check(c, pack, options) + check(c, data),
        source,
    )


def part_data(case: PacketCase, data: dict[str, Any]) -> list[tuple[Any, dict[str, Any]]]:
    """(kind, case data) of each part, in the order they are served."""
    notice = {k: v for k, v in data.items() if k not in STOP_WORK_KEYS}
    statement_keys = penalty_statement.PenaltyStatementCase.model_fields
    statement = {k: v for k, v in notice.items() if k in statement_keys}
    statement["number"] = f"{case.number}-PS"
    parts = [(notice_of_violation.KIND, notice), (penalty_statement.KIND, statement)]
    if case.effective is not None:
        order_keys = stop_work_order.StopWorkCase.model_fields
        order = {k: v for k, v in data.items() if k in order_keys}
        order["number"] = f"{case.number}-SWO"
        order.setdefault("notices", [case.number])
        parts.append((stop_work_order.KIND, order))
    return parts


def combine(parts: list[HtmlDocument], title: str, pack: Pack, options: Options) -> HtmlDocument:
    """One HTML page: the first part's, titled ``title``, holding each part's body in a
    ``section.document`` with its running head (base/packet.html.j2)."""
    for part in parts:
        if not part.body.strip():  # a custom layout that sets no document_body
            raise DocgenError(
                f"{part.kind}: its page holds no document_body (base/layout.html.j2 sets it): "
                "the packet has nothing of it to hold"
            )
    first = parts[0]
    with language.speaking(options.language):
        page = render_page(
            "base/packet.html.j2",
            {
                "doc": first,
                "pack": pack,
                "review": options.review,
                "bundle_title": title,
                "parts": parts,
            },
            options.templates,
            breakable=False,  # each part's body has its long words breakable already
        )
    sheets = tuple(dict.fromkeys(s for part in parts for s in part.stylesheets))
    warnings = tuple(w for part in parts for w in part.warnings)
    return replace(
        first,
        kind=NAME,
        title=title,
        filename=f"{first.number}-packet",
        html=page.html,
        body=page.body,
        stylesheets=sheets,
        warnings=warnings,
    )


def build_packet(data: dict[str, Any], options: Options, source: str = "") -> Rendition:
    """Validate the packet case, then build each part with its own kind."""
    case = validated(data, options, source)
    # The parts are served together in one envelope: the language-access block (LAW.md
    # § 13) prints once, after the notice, the first part.
    parts = [
        build_document(kind, d, replace(options, taglines=i == 0), source)
        for i, (kind, d) in enumerate(part_data(case, data))
    ]
    title = f"Violation Packet, Notice of Violation No. {case.number}"
    return Rendition(combine(parts, title, jurisdiction_of(data), options), tuple(parts))


KIND = Bundle(
    follows=("notice-of-violation",),
    name=NAME,
    title="Violation packet",
    model=PacketCase,
    required=(notice_of_violation.KIND.name, penalty_statement.KIND.name),
    build=build_packet,
    validate=validated,
    summary="notice of violation, penalty statement (and stop-work order) in one file",
    needs=notice_of_violation.KIND.needs,
    served=True,
    appealable=True,
    reads_history=True,
    issued=issued_on,
    party=recipient_of,
    site=site_of,
    charge=charged,
    remedies_due=earliest_remedy,
)
