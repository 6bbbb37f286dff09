"""One road from a case to bytes: the packet is a bundle used like a kind, options a kind
cannot honour are usage errors, batch takes --layout and --review, one PDF-variant check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from docgen import api
from docgen.cli import main
from docgen.documents.kind import Options
from docgen.errors import OptionUnsupported
from docgen.render.variants import UnknownVariant
from tests.helpers.readback import html_text

FIXTURES = ROOT / "fixtures"
PACKET = FIXTURES / "packet" / "homer-silt-fence-packet.yaml"
NOTICE = FIXTURES / "notice-of-violation" / "homer-first-offense.yaml"
ORDER = FIXTURES / "stop-work-order" / "homer-silt-fence.yaml"
AGREEMENT = FIXTURES / "maintenance-agreement" / "homer-individual.yaml"


def cli(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.output


def test_the_packet_is_listed_and_described_like_a_kind():
    code, out = cli("kinds")
    assert code == 0
    line = next(row for row in out.splitlines() if row.startswith("packet "))
    assert "homer" in line and "macedon" not in line
    code, out = cli("schema", "packet")
    assert code == 0
    schema = json.loads(out)
    assert {"effective", "contact", "violations", "issued"} <= set(schema["properties"])
    code, out = cli("check", "packet", PACKET)
    assert code == 0 and "ok for a violation packet" in out


def test_batch_renders_packets(tmp_path):
    code, out = cli("batch", "packet", PACKET, "-f", "html,pdf", "-o", tmp_path / "out", "-j", 1)
    assert code == 0, out
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert sorted(f["file"] for f in manifest["files"]) == [
        "NOV-2026-0021-packet.html",
        "NOV-2026-0021-packet.pdf",
    ]
    batch_pdf = (tmp_path / "out" / "NOV-2026-0021-packet.pdf").read_bytes()
    _, blobs = api.render_bytes("packet", PACKET, ("pdf",))
    assert batch_pdf == blobs["pdf"]  # the batch and render make the same bytes


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("render", "packet", PACKET, "--split"), "packet has no parts to split"),
        (("render", "notice-of-violation", NOTICE, "--layout", "placard"), "no layout 'placard'"),
        (("render", "notice-of-violation", NOTICE, "--review"), "has no review mode"),
        (("render", "packet", PACKET, "--layout", "placard"), "packet has no layout"),
        (("batch", "notice-of-violation", NOTICE, "--layout", "placard"), "no layout 'placard'"),
        (("batch", "penalty-statement", NOTICE, "--review"), "has no review mode"),
    ],
)
def test_an_option_the_kind_cannot_honour_is_a_usage_error(tmp_path, args, message):
    code, out = cli(*args, "-o", f"{tmp_path}/out/")
    assert code == 2, out
    assert message in out
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize("command", ["render", "batch"])
def test_an_unknown_pdf_variant_is_a_plain_error(tmp_path, command):
    code, out = cli(
        command, "notice-of-violation", NOTICE, "--pdf-variant", "pdf/x", "-o", tmp_path
    )
    assert code == 1
    assert "unknown PDF variant 'pdf/x'; choose from pdf/ua-1" in out
    assert "internal error" not in out
    with pytest.raises(UnknownVariant):
        api.render_bytes("notice-of-violation", NOTICE, ("pdf",), pdf_variant="pdf/x")


def test_batch_takes_the_layout_and_review_options(tmp_path):
    code, out = cli(
        "batch",
        "stop-work-order",
        ORDER,
        "--layout",
        "placard",
        "-f",
        "html",
        "-o",
        tmp_path / "placards",
    )
    assert code == 0, out
    (placard,) = (tmp_path / "placards").glob("*.html")
    _, blobs = api.render_bytes("stop-work-order", ORDER, ("html",), Options(layout="placard"))
    assert placard.read_bytes() == blobs["html"]
    plain = api.render_bytes("stop-work-order", ORDER, ("html",))[1]["html"]
    assert blobs["html"] != plain
    code, out = cli(
        "batch",
        "maintenance-agreement",
        AGREEMENT,
        "--review",
        "-f",
        "html",
        "-o",
        tmp_path / "review",
    )
    assert code == 0, out
    (draft,) = (tmp_path / "review").glob("*-review.html")  # the review, beside the instrument
    assert "For the reviewing attorney" in html_text(draft.read_text(encoding="utf-8"))
    (instrument,) = set((tmp_path / "review").glob("*.html")) - {draft}
    assert "For the reviewing attorney" not in html_text(instrument.read_text(encoding="utf-8"))


def test_options_are_checked_before_anything_is_rendered():
    with pytest.raises(OptionUnsupported):
        api.render("packet", PACKET, ("html",), out=Path("/nonexistent/never"), split=True)
