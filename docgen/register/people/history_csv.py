"""The history CSV read and checked: convictions from before the register, one a row
(docgen.register.people.imports matches and writes them).

    name,street,city,state,zip,committed,convicted,court,docket[,jurisdiction][,respondent_id]

Every column is known (a misspelled header is an error naming it) and every value is
read as a case's would be (text without control characters, at most 500 characters;
dates 1900-2099; a state of the United States; a ZIP code), so a row can never make
the documents of its respondent fail later. A conviction is dated after its offense and
no later than today (LAW.md § 4, reading 13), and carries its court reference (court and
docket): a prior that raises a penalty under § 228-79C(4) must be traceable to the
judgment. A bad row stops the whole file, each reported as ``file.csv:N`` with what is
wrong; so does a name that is not matched with certainty (the row needs a
``respondent_id``).
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from difflib import get_close_matches
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import ValidationError, ValidationInfo, field_validator

from docgen.cases.common import IsoDate, Line, Model, Zip, known_jurisdiction
from docgen.cases.loader import read_regular
from docgen.law.packs import load_pack, pack_names
from docgen.law.penalties import disposition_problem
from docgen.register.people.matching import name_key
from docgen.register.people.respondents import MAX_ID
from docgen.register.storage.db import RegisterError

REQUIRED = ("name", "street", "city", "state", "zip", "committed", "convicted", "court", "docket")


OPTIONAL = ("jurisdiction", "respondent_id")


HEADER_ROW = ",".join(REQUIRED)


MAX_BYTES = 64 * 1024 * 1024


# USPS codes of the states, DC and the territories
STATES = frozenset(
  {
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL",
    "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE",
    "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD",
    "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "AS", "GU", "MP", "PR", "VI",
  }
)  # fmt: skip


class HistoryRow(Model):
    """One conviction as the CSV gives it, validated as a case's fields are."""

    name: Line
    street: Line
    city: Line
    state: str
    zip: Zip
    committed: IsoDate
    convicted: IsoDate
    court: Line
    docket: Line
    jurisdiction: str  # a pack's id (_jurisdiction)
    respondent_id: int | None = None

    @field_validator("jurisdiction", mode="before")
    @classmethod
    def _jurisdiction(cls, value: Any, info: ValidationInfo) -> str:
        # the packs as validate() listed them once for the file (a listing of the packs'
        # folder for each of 50,000 rows was a twentieth of the import's time)
        names = (info.context or {}).get("jurisdictions")
        return known_jurisdiction(value, pack_names() if names is None else names)

    @field_validator("state", mode="before")
    @classmethod
    def _state(cls, value: Any) -> str:
        code = str(value).strip().upper()
        if code not in STATES:
            raise ValueError(f"{value!r} is not a state of the United States (two letters, NY)")
        return code

    @field_validator("respondent_id", mode="before")
    @classmethod
    def _id(cls, value: Any) -> int | None:
        text = str(value or "").strip().lstrip("#")
        if not text:
            return None
        if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= MAX_ID:
            raise ValueError(f"{value!r} is not a respondent id")
        return int(text)


def read_rows(path: Path, default: str | None) -> list[tuple[int, dict[str, str]]]:
    """The CSV's rows (line number, cells), or a RegisterError naming the file and row."""
    raw = read_regular(path, MAX_BYTES, RegisterError)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise RegisterError(
            f"{path.name}:{line}: not UTF-8 (byte 0x{raw[err.start]:02X}); save the sheet as "
            '"CSV UTF-8 (comma delimited)"'
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [cell.strip() for cell in next(reader, [])]
        if not any(header):
            raise RegisterError(f"{path.name}: no header row; the header is {_header()}")
        unknown = [c for c in header if c not in REQUIRED + OPTIONAL]
        if unknown:
            said = ", ".join(_unknown(c) for c in unknown)
            raise RegisterError(
                f"{path.name}:1: unknown column(s) {said}; the header is {_header()}"
            )
        twice = sorted({c for c in header if header.count(c) > 1})
        if twice:
            raise RegisterError(f"{path.name}:1: column(s) given twice: {', '.join(twice)}")
        missing = [c for c in REQUIRED if c not in header]
        if missing or ("jurisdiction" not in header and default is None):
            missing += [] if default else ["jurisdiction"]
            raise RegisterError(
                f"{path.name}:1: missing column(s) {', '.join(missing)}; the header is {_header()}"
            )
        rows = []
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(header):
                raise RegisterError(
                    f"{path.name}:{reader.line_num}: {len(cells)} cells but the header names "
                    f"{len(header)} columns"
                )
            row = dict(zip(header, cells, strict=False))
            row.setdefault("jurisdiction", default or "")
            rows.append((reader.line_num, row))
    except csv.Error as err:
        raise RegisterError(f"{path.name}:{reader.line_num}: {err}") from None
    if not rows:
        raise RegisterError(f"{path.name}: no rows under the header")
    return rows


def _header() -> str:
    return ",".join(REQUIRED) + "[," + "][,".join(OPTIONAL) + "]"


def _unknown(column: str) -> str:
    close = get_close_matches(column, REQUIRED + OPTIONAL, n=1)
    return f"{column!r}" + (f" (did you mean {close[0]!r}?)" if close else "")


def default_jurisdiction() -> str | None:
    """The one jurisdiction whose pack states penalties, when there is exactly one (a
    conviction raises a penalty only there); otherwise each row must say."""
    with_penalties = [n for n in pack_names() if getattr(load_pack(n), "penalties", None)]
    return with_penalties[0] if len(with_penalties) == 1 else None


def validate(rows: list[tuple[int, dict[str, str]]], source: str) -> list[tuple[int, HistoryRow]]:
    """Every row typed and checked; all problems at once, or none."""
    today = datetime.now(ZoneInfo("America/New_York")).date()
    known = {"jurisdictions": pack_names()}
    good, problems = [], []
    for line, cells in rows:
        where = f"{source}:{line}"
        try:
            row = HistoryRow.model_validate(cells, context=known)
        except ValidationError as err:
            for e in err.errors():
                column = ".".join(str(p) for p in e["loc"]) or "row"
                message = str(e["msg"]).removeprefix("Value error, ")
                if e["type"] in ("too_long", "string_too_long"):
                    message = f"longer than {e['ctx']['max_length']} characters"
                problems.append(f"{where}: {column}: {message}")
            continue
        if not name_key(row.name):
            problems.append(f"{where}: name: {row.name!r} has no letter or digit")
            continue
        wrong = disposition_problem(row.convicted, row.committed, today, f"today ({today})")
        if wrong:  # LAW.md § 4, reading 13
            problems.append(f"{where}: convicted {row.convicted}: {wrong}")
            continue
        good.append((line, row))
    if problems:
        raise RegisterError(
            f"{source}: nothing imported; {len(problems)} problem(s) to fix:\n  "
            + "\n  ".join(problems)
        )
    return good
