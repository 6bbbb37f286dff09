"""The register's documents in the browser: the list with its filters (status, dates,
kind, municipality, name), fifty a page, newest first, and its CSV export, every cell safe
to open in a spreadsheet.

Every page is a call into docgen.register; the desk adds no rule of its own.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlencode

from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from docgen.cases.common import IsoDate
from docgen.desk.base import clock
from docgen.desk.base.web import (
    attachment,
    checked_field,
    guarded,
    register,
    render,
)
from docgen.documents import MODULES
from docgen.law.deadlines import long_date
from docgen.law.packs import pack_names
from docgen.register.reading.filters import FILTERS
from docgen.register.reading.listing import Listed, Narrowing, listed

FILTER_LABELS = {  # the register's named lists (docgen.register.reading.filters), as statuses
    "awaiting-service": "Awaiting service",
    "served": "Served",
    "appeal-running": "Appeal period running",
    "appeal-passed": "Appeal deadline passed",
    "remedies-overdue": "Remedies overdue",
    "stop-work-in-effect": "Stop-work in effect",
    "lifted": "Stop-work lifted",
    "superseded": "Superseded by a correction",
}


PAGE = 50  # documents listed, newest first


@dataclass(frozen=True)
class Wanted(Narrowing):
    """What the documents page lists: the register's narrowing, a page; ``problems`` with
    the range as typed (``typed``: from and to, shown back) list nothing until they are put
    right."""

    page: int = 1
    typed: tuple[str, str] = ("", "")
    problems: tuple[str, ...] = ()

    def query(self, page: int | None = None) -> str:
        """The query string of this list on ``page`` (every filter kept)."""
        pairs = {
            "q": self.search,
            "kind": self.kind,
            "jurisdiction": self.jurisdiction,
            "filter": self.name,
            "from": self.typed[0],
            "to": self.typed[1],
        }
        pairs["page"] = str(page or self.page) if (page or self.page) > 1 else None
        return urlencode({k: v for k, v in pairs.items() if v})


def wanted(request: Request) -> Wanted:
    params = request.query_params
    name = params.get("filter") or None
    kind = params.get("kind") or None
    where = params.get("jurisdiction") or None
    page = params.get("page", "1")
    typed = (params.get("from", "").strip()[:40], params.get("to", "").strip()[:40])
    problems: list[str] = []
    start = _range_end(typed[0], "Issued from", problems)
    end = _range_end(typed[1], "Issued to", problems)
    if start and end and start > end:
        problems.append(
            f"Issued from ({long_date(start)}) is after issued to ({long_date(end)}): no "
            "date is in that range. Swap the two dates."
        )
    return Wanted(
        name=name if name in FILTERS else None,
        kind=kind if kind in MODULES else None,
        search=" ".join(checked_field("Search", params.get("q", "")).split())[:100],
        jurisdiction=where if where in pack_names() else None,
        start=start,
        end=end,
        page=int(page) if page.isascii() and page.isdigit() and 0 < len(page) <= 5 else 1,
        typed=typed,
        problems=tuple(problems),
    )


def _range_end(text: str, label: str, problems: list[str]) -> date | None:
    """A date of the range as typed (YYYY-MM-DD, as a date field sends it); one that is
    impossible (February 30) or not a date goes to ``problems``, said as case dates are."""
    if not text:
        return None
    try:
        return TypeAdapter(IsoDate).validate_python(text)
    except ValidationError as err:
        problems.append(f"{label}: {err.errors()[0]['ctx']['error']}.")
        return None


@guarded("register")
def documents(request: Request) -> Response:
    return _documents(request, wanted(request))


def _documents(request: Request, want: Wanted) -> Response:
    """The documents page; a range that is impossible or reversed lists nothing (400) and
    says why, with the filters as typed."""
    rows = (
        [] if want.problems else listed(register(request), want, (want.page - 1) * PAGE, PAGE + 1)
    )
    return render(
        request,
        "documents.html.j2",
        status=400 if want.problems else 200,
        documents=rows[:PAGE],
        more=len(rows) > PAGE,
        want=want,
        kinds=tuple(MODULES),
        zones={name: clock.zone(name) for name in pack_names()},
        filters=[(name, FILTER_LABELS.get(name, name)) for name in FILTERS],
        chosen=want.name,
        page=PAGE,
    )


EXPORT_LIMIT = 10_000  # rows of one export


# A spreadsheet runs a cell starting so (";" and "|" in some locales and DDE), also after
# leading white space ("\t=cmd|...").
FORMULA = ("=", "+", "-", "@", ";", "|", "\t", "\r", "\n")


COLUMNS = (
    "number", "kind", "jurisdiction", "issued", "recorded_at", "time_zone", "respondent",
    "site", "served", "appeal_deadline", "superseded_by",
)  # fmt: skip


# A spreadsheet that splits cells on another separator (";" in European Excel, a tab, a
# pipe) starts a new cell there: a formula after one runs too ("Acme;=cmd|...").
AFTER_SEPARATOR = re.compile(r"([,;\t|][ \t\r\n]*)(?=[=+\-@])")


def _cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula is quoted
    with a leading apostrophe, as is what would start one after any separator."""
    text = AFTER_SEPARATOR.sub(r"\1'", "" if value is None else str(value))
    formula = text.startswith(FORMULA) or text.lstrip(" \t\r\n").startswith(FORMULA)
    return "'" + text if formula else text


def _exported(row: Listed, here: Any) -> dict[str, Any]:
    """One row of an export: dates as YYYY-MM-DD, the moment it was recorded in the
    municipality's zone with its offset (ISO 8601), and that zone's name."""
    values = {name: getattr(row, name, None) for name in COLUMNS}
    values["recorded_at"] = row.recorded_at.astimezone(here).isoformat(timespec="seconds")
    values["time_zone"] = here.key
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in values.items()}


@guarded("register")
def export(request: Request) -> Response:
    """The documents page's list, every page of it (the same status, kind, municipality,
    search and dates), as CSV or JSON."""
    fmt = request.path_params["fmt"]
    if fmt not in ("csv", "json"):
        return render(request, "missing.html.j2", status=404, what="page")
    want = wanted(request)
    if want.problems:
        return _documents(request, want)
    zones: dict[str, Any] = {}
    rows = [
        _exported(d, zones.setdefault(d.jurisdiction, clock.zone(d.jurisdiction)))
        for d in listed(register(request), want, 0, EXPORT_LIMIT)
    ]
    if fmt == "json":
        body = json.dumps({"documents": rows}, ensure_ascii=False, indent=1)
        media = "application/json"
    else:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        writer.writerows([_cell(row[name]) for name in COLUMNS] for row in rows)
        body, media = out.getvalue(), "text/csv; charset=utf-8"
    return Response(
        body, media_type=media, headers={"content-disposition": attachment(f"documents.{fmt}")}
    )


routes = [
    Route("/documents", documents, methods=["GET"]),
    Route("/documents.{fmt}", export, methods=["GET"]),
]
