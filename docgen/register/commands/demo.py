"""``docgen demo``'s register: the samples issued into ``out/docgen.sqlite``.

Shows the whole flow on the sample cases: the convictions the samples list as priors are
imported as history from before the register (``import-history``), every sample is then
issued in date order (numbered, respondent matched, priors read from the register),
and each notice and stop-work order is recorded as served, which issues its affidavit.
The samples' own numbers are left out: the register numbers each kind and year.
The demo register is samples, not served documents: each run builds a new one and
replaces the last run's whole.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from docgen import api
from docgen.documents import get_kind
from docgen.register import AmbiguousRespondent, Issue
from docgen.register.people.history_csv import REQUIRED
from docgen.register.people.imports import import_history
from docgen.register.storage.records import Issued

if TYPE_CHECKING:
    from docgen.register import Register

METHODS = (("certified", "certified-mail"), ("first-class", "first-class-mail"))
# What the demo's server recorded of each sample delivered by hand (the sample's number):
# an affidavit states only what was recorded (LAW.md § 10), so each is written out here.


class Delivery(TypedDict, total=False):
    """How a sample was delivered by hand, as the affidavit of service states it."""

    place: str
    time: str
    person: str
    capacity: str
    description: str


DELIVERIES: dict[str, Delivery] = {
    "NOV-2026-0014": {
        "place": "the vacant lot on the east side of Route 11",
        "time": "09:40",
        "person": "Marguerite O'Donnell",
        "capacity": "owner",
        "description": "female, about 60 years old, 5 ft 5 in, about 140 lb, gray hair",
    },
    "NOV-2026-0019": {
        "place": "15 Albany Street, at the front door",
        "time": "16:20",
        "description": "female, about 55 years old, 5 ft 7 in, about 150 lb, brown hair",
    },
    "SWO-2026-0003": {
        "place": "the site entrance, 120 Cayuga Street",
        "time": "08:05",
        "person": "Raymond K. Dutcher",
        "capacity": "president",
        "description": "male, about 50 years old, 6 ft 1 in, about 210 lb, gray hair",
    },
}


def _method(text: str) -> str:
    lowered = text.lower()
    return next((slug for word, slug in METHODS if word in lowered), "personal-delivery")


def _prior_rows(samples: list[tuple[str, dict[str, Any]]]) -> list[dict[str, str]]:
    """The samples' convicted priors, once each, as import-history rows."""
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for _, data in samples:
        who = data.get("recipient") or {}
        for prior in data.get("prior_offenses", []):
            if prior.get("disposition") != "convicted":
                continue
            court, _, docket = (prior.get("reference") or "").partition(" docket ")
            rows[(who["name"], str(prior["committed"]))] = {
                "name": who["name"],
                **{k: str(who["address"][k]) for k in ("street", "city", "state", "zip")},
                "committed": str(prior["committed"]),
                "convicted": str(prior["convicted"]),
                "court": court or "the Village Court",
                "docket": docket or f"sample {prior['committed']}",
                "jurisdiction": data["jurisdiction"],
            }
    return list(rows.values())


def issue_samples(
    out: Path,
    samples: Iterable[tuple[str, Path]],
    formats: Iterable[str],
    echo: Callable[[str], object],
) -> int:
    """Issue ``samples`` into a new register at ``out/docgen.sqlite``; the failures count."""
    # register.people.respondents and others load cryptography, lxml (+110 ms): loaded on first use
    from docgen.register import AmbiguousRespondent, Register, Service

    formats = tuple(formats)
    loaded = [(kind, api.load(path)[0]) for kind, path in samples]
    loaded.sort(key=lambda item: str(item[1].get("issued") or ""))
    building = out / ".docgen.sqlite.building"
    for leftover in out.glob(".docgen.sqlite.building*"):
        leftover.unlink()
    failures = 0
    with Register.open(f"sqlite:///{building.resolve()}") as reg:
        rows = _prior_rows(loaded)
        if rows:
            history = out / "register" / "history.csv"
            history.parent.mkdir(parents=True, exist_ok=True)
            with history.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, [*REQUIRED, "jurisdiction"])
                writer.writeheader()
                writer.writerows(rows)
            for line in import_history(reg, history, by="docgen demo").lines:
                echo(f"register: history {line}")
        for kind, data in loaded:
            spec = get_kind(kind)
            if spec.permission is None or spec.made_by_register:
                continue  # made from another record (record-service below; a register step)
            # The register numbers them and holds the history the penalty reads.
            sample = str(data.get("number") or "")
            data = {k: v for k, v in data.items() if k not in ("number", "prior_offenses")}
            try:
                issued = _issue(reg, kind, data, formats, out / "register")
            except AmbiguousRespondent as err:
                failures += 1
                echo(f"FAILED register {kind}: {err}")
                continue
            priors = "; ".join(p.reason for p in issued.priors) or "none"
            echo(f"register: {issued.number:<14} {issued.kind:<26} priors: {priors}")
            served = data.get("served") or {}
            if get_kind(kind).served and served.get("date"):
                server = served.get("by") or {}
                event = Service(
                    _method(served.get("method") or ""),
                    _date(served["date"]),
                    served_by=server.get("name"),
                    served_by_title=server.get("title"),
                    by_officer=not server,
                    **DELIVERIES.get(sample, {}),
                )
                proof = reg.record_service(
                    issued.number,
                    event,
                    by="docgen demo",
                    formats=formats,
                    out=f"{out / 'register'}/",
                    force=True,
                ).affidavit
                if proof is None:  # no affidavit was made (each sample served has one)
                    continue
                echo(f"register: {proof.number:<14} affidavit of service of {issued.number}")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{out / 'docgen.sqlite'}{suffix}").unlink(missing_ok=True)
    os.replace(building, out / "docgen.sqlite")
    echo(f"register: {out / 'docgen.sqlite'} (try: DOCGEN_HOME={out} docgen history 1)")
    return failures


def _issue(
    reg: Register, kind: str, data: dict[str, Any], formats: tuple[str, ...], folder: Path
) -> Issued:
    """Issue one sample; a sample naming a respondent already issued to takes that record,
    keeping the sample's name as written (the same name: no alias is made)."""
    try:
        return reg.issue(
            kind, data, formats=formats, out=f"{folder}/", by="docgen demo", force=True
        )
    except AmbiguousRespondent as err:
        same = [c.id for c in err.candidates if c.why.startswith("same name")]
        if len(same) != 1:
            raise
        return reg.issue(
            kind,
            data,
            Issue(respondent=same[0], keep_name=True),
            formats=formats,
            out=f"{folder}/",
            by="docgen demo",
            force=True,
        )


def _date(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))
