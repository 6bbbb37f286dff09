"""Golden text: each sample's words, so any change of wording is a visible diff.

Regenerate after an intended change: DOCGEN_UPDATE_GOLDEN=1 pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import SAMPLE_IDS, SAMPLES

from tests.helpers.readback import html_text

GOLDEN = Path(__file__).parent / "golden"


def golden_text(html: str) -> str:
    lines = (" ".join(line.split()) for line in html_text(html).splitlines())
    return "\n".join(line for line in lines if line) + "\n"


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=SAMPLE_IDS)
def test_wording_matches_golden(renders, kind, path):
    text = golden_text(renders.get(kind, path)["html"])
    target = GOLDEN / kind / f"{path.stem}.txt"
    if os.environ.get("DOCGEN_UPDATE_GOLDEN"):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    assert target.exists(), (
        f"no golden text for {kind}/{path.stem}; run with DOCGEN_UPDATE_GOLDEN=1"
    )
    assert text == target.read_text(encoding="utf-8")
