"""PDF layout a reader relies on: the letterhead's text layer reads as printed, and no row
of the penalty's tables splits across pages (a prior offense keeps its "Why it counts"
cell)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from conftest import SAMPLE_IDS, SAMPLES

from docgen import api
from docgen.documents import get_kind
from docgen.law.deadlines import long_date
from tests.helpers.readback import pdf_pages

# A recorded instrument (the easement, the agreement, the lien and its release) has the
# County Clerk's space where a letter has its letterhead (LAW.md § 8).
LETTERHEADED = [
    (kind, path, sid)
    for (kind, path), sid in zip(SAMPLES, SAMPLE_IDS, strict=True)
    if "recording" not in get_kind(kind).needs
]


@pytest.mark.parametrize(("kind", "path", "sid"), LETTERHEADED, ids=[s for *_, s in LETTERHEADED])
def test_the_letterheads_text_layer_reads_as_printed(renders, kind, path, sid):
    first = pdf_pages(renders.get(kind, path)["pdf"])[0]
    name = "Village of Homer" if "homer" in path.stem else "Town of Macedon"
    assert first.splitlines()[0].strip() == name, sid


def test_no_prior_offense_row_splits_across_pages():
    # Convictions that count (a served statement prints only those: LAW.md § 4, reading 10).
    old = [date(2021, 10, 5) + timedelta(days=37 * i) for i in range(45)]
    data = {
        "jurisdiction": "homer",
        "number": "PS-ROWS",
        "issued": "2026-11-03",
        "officer": {"name": "Dana R. Whitcomb", "title": "Code Enforcement Officer"},
        "recipient": {
            "name": "Cayuga Street Holdings LLC",
            "role": "landowner",
            "address": {
                "street": "77 South Main Street",
                "city": "Homer",
                "state": "NY",
                "zip": "13077",
            },
        },
        "offense": {
            "committed": "2026-10-01",
            "nature": "Silt fence down and not repaired",
            "provision": "§ 228-78D(1)",
        },
        "prior_offenses": [
            {
                "committed": d.isoformat(),
                "disposition": "convicted",
                "convicted": (d + timedelta(days=20)).isoformat(),
                "reference": f"Homer Village Court docket {i:02d}-{d.year}",
            }
            for i, d in enumerate(old)
        ],
    }
    pages = [
        " ".join(p.split())
        for p in pdf_pages(api.to_bytes(api.build("penalty-statement", data), "pdf"))
    ]
    assert len(pages) > 2
    for d in old:
        # The date cell and the "Why it counts" cell of a row both name the date committed.
        holding = [i for i, page in enumerate(pages) if long_date(d) in page]
        assert len(holding) == 1, (long_date(d), holding)
        assert pages[holding[0]].count(long_date(d)) >= 2
