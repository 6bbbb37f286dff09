"""Lifting a stop-work order (§ 228-79C(2); LAW.md § 3): the Village's confirmation of
compliance, recorded and issued as a written notice lifting the order, in one
transaction; the register, its filters and the desk then show the order as lifted.

The notice is built from the register's events: the service date it states is the one
the register keeps (docgen.register.storage.standing), never an incomplete mailing's; it names
the order in effect and each one it replaced."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from docgen.api import FORMATS
from docgen.documents import a_title, get_kind, kinds_with, titles_or
from docgen.documents.affidavit_of_service import issuing_officer, persons_served
from docgen.errors import Problem
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.inspections import halts_standing
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.matter.mailing import article_used, typed_article
from docgen.register.rules.copies import refuse_copies, refuse_language
from docgen.register.rules.rows import corrections, document_row, in_effect, lifter
from docgen.register.storage.audit import actor
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.records import Issued
from docgen.register.storage.standing import served_on


def lift(
    reg: Any,
    number: str,
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    copies: bool = False,
    articles: Iterable[str | None] = (),
    jurisdiction: str | None = None,
    language: str | None = None,
) -> Issued:
    """Record that the order ``number`` (of ``jurisdiction``, when two municipalities
    sharing the register hold that number) was lifted on ``on`` and issue the notice.
    ``copies``: also a copy of the notice for each other person the order was served on,
    addressed to them and kept with it (docgen.register.rules.copies; LAW.md § 9).
    ``articles``: the certified article number of each person's notice, the landowner's
    first (a blank one is left for the clerk to fill in by hand); never the order's: each
    mailed piece has its own (LAW.md § 2). ``language``: a courtesy rendition of the notice
    in that language, kept with it (LAW.md § 13); None: in the language the respondent
    prefers, if any; "en": none.

    Refused (LAW.md § 3): an order superseded by a correction (the refusal names the order
    in effect: it is lifted through that one), an order already lifted, a lifting dated
    after today in the municipality or before service of the order was complete."""
    who = actor(by)
    (kind,) = kinds_with(lifts=True)
    if language is not None:
        refuse_language(kind, language)
    again, safe = f"lift {number} again", "an order already lifted is refused, never lifted twice"
    with recording(reg, again, safe, f"the lifting of {number}") as (session, held):
        order: Document = document_row(session, number, jurisdiction)
        pack = load_pack(order.jurisdiction, order.issued)
        # The provision of the order's kind, or (for a document that is no order) of the
        # kinds that are lifted in writing: the kind description says which.
        liftable = kinds_with(liftable=True)
        section = pack.provisions
        why = next((section[k].ref for k in (order.kind, *liftable) if k in section), "LAW.md § 3")
        if not get_kind(order.kind).liftable:
            raise RegisterError(
                f"{number} is {a_title(order.kind)}; only {titles_or(liftable)} is lifted ({why})"
            )
        current = in_effect(session, order)
        if current is not None:
            message = (
                f"{number} was superseded; the order in effect is {current}: a superseded "
                f"order is lifted only through the order that replaced it (lift {current})"
            )
            raise Refused([Problem("", message, f"{why}; LAW.md § 3")])
        done = lifter(session, order)
        if done:
            raise RegisterError(f"{number} was already lifted by {done}")
        problems = []
        today = municipal_today(pack)
        if on > today:
            message = (
                f"{on}: after today ({today} in the {pack.name.value}); an order is lifted "
                "once compliance was confirmed, never ahead"
            )
            problems.append(Problem("date", message, f"{why}; LAW.md § 3"))
        served = served_on(order, pack)
        if served is None:  # what is missing is the order's service, not a date
            message = (
                f"{number} has no recorded service that stands; an order takes effect on "
                "service, so it is lifted only after it was served: record its service first"
            )
            raise Refused([*problems, Problem("", message, f"{why}; LAW.md § 3")])
        if on < served:
            message = (
                f"{on}: before service of {number} was complete ({served}); an order is "
                "lifted only after it took effect"
            )
            problems.append(Problem("date", message, f"{why}; LAW.md § 3"))
        given = persons_served(order.case)
        theirs = {p["certified_article"] for p in given if p.get("certified_article")}
        people = [_without_article(p) for p in given]
        problems += _articles(session, people, list(articles), theirs)
        if problems:
            raise Refused(problems)
        chain = corrections(session, order)
        case = {
            "jurisdiction": order.jurisdiction,
            "issued": on.isoformat(),
            "order": {
                "number": order.number,
                "issued": order.issued.isoformat(),
                "served": served.isoformat(),
                **({"replaced": list(chain[:-1])} if len(chain) > 1 else {}),
            },
            "officer": issuing_officer(order.case),
            "recipient": people[0],
            "copies_to": people[1:],
            "site": order.case["site"],
            # a notice of deficiency's halt at the site stands apart from the order: the
            # notice names each, and never says that activities may resume while one does
            "halts_in_effect": halts_standing(session, order.site_id, on),
        }
        if copies:
            refuse_copies(kind, case)
        request = Request(
            kind,
            case,
            f"{number} lifted",
            order.respondent_id,
            tuple(formats),
            out,
            who,
            force=force,
            about=order.id,
            copies=copies,
            language=language,
        )
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def _without_article(person: dict[str, Any]) -> dict[str, Any]:
    """A person the order was served on, without the order's article number: the notice
    lifting it is another piece (LAW.md § 2)."""
    return {k: v for k, v in person.items() if k != "certified_article"}


def _articles(
    session: Any, people: list[dict[str, Any]], articles: list[str | None], order: set[str]
) -> list[Problem]:
    """Each person's article number given (in order), checked and put on them; a number
    already used for any piece (``order``: the order's own, as its case gives them), or
    given twice, is refused."""
    problems = []
    if len(articles) > len(people):
        message = (
            f"{len(articles)} article numbers for {len(people)} persons served; one each, "
            "the landowner's first"
        )
        return [Problem("article", message, "LAW.md § 9")]
    seen: set[str] = set()
    for person, typed in zip(people, articles, strict=False):
        if not typed or not typed.strip():
            continue  # left blank: filled in by hand on the envelope's copy
        try:
            article = typed_article(typed)
        except RegisterError as err:
            problems.append(Problem("article", str(err).removeprefix("--article ")))
            continue
        digits = article.replace(" ", "")
        used = article_used(session, article)
        if used is None and digits in {a.replace(" ", "") for a in order}:
            used = "the order's own piece carried it; each mailed piece has its own"
        if used is None and article in seen:
            used = "given twice here; each mailed piece has its own article number"
        if used:
            problems.append(Problem("article", f"{article}: {used}", "LAW.md § 2, § 9"))
        seen.add(article)
        person["certified_article"] = article.replace(" ", "")
    return problems
