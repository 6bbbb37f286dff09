"""Signing an issued PDF with a real local PKI: PAdES B-B that validates against the
municipality's root; tampering (one byte, an incremental update, metadata only) found;
the PDF/UA tags and the PDF/A-2b identification still there after signing."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pikepdf
import pytest
from conftest import ROOT

from docgen import api
from docgen.documents.kind import Options
from docgen.signing.check import check_signature
from docgen.signing.codes import IssueMark
from docgen.signing.keys import SigningKeyError, read_key, usable
from docgen.signing.sign import BOX_HEIGHT, BOX_WIDTH, FIELD, Signer, SigningError, sign_pdf
from tests.helpers import pki
from tests.helpers.readback import pdf_text

NOTICE = ROOT / "fixtures" / "notice-of-violation" / "homer-first-offense.yaml"
EASEMENT = ROOT / "fixtures" / "maintenance-easement" / "homer-individual.yaml"
OFFICER = "Dana R. Whitcomb, Code Enforcement Officer"
MARK = IssueMark(
    "https://homer.example.gov",
    "NOV-2026-0001",
    "7K3M-Q9PX-2D4H",
    "the Village of Homer",
    OFFICER,
    True,
)


@pytest.fixture(scope="module")
def settings(tmp_path_factory) -> Path:
    return pki.install(tmp_path_factory.mktemp("settings"))


@pytest.fixture(scope="module")
def signer(settings) -> Signer:
    key = read_key(settings.parent / "keys" / "homer.p12", pki.PASSPHRASE.encode())
    return Signer(key, "Village of Homer", settings.parent / "keys" / "root.pem")


@pytest.fixture(scope="module")
def issued() -> dict[str, bytes]:
    """The notice as the register issues it (PDF/UA-1) and an easement (PDF/A-2b)."""
    options = Options(mark=MARK)
    _, notice = api.render_bytes("notice-of-violation", NOTICE, ("pdf",), options)
    _, easement = api.render_bytes(
        "maintenance-easement", EASEMENT, ("pdf",), Options(mark=MARK), pdf_variant="pdf/a-2b"
    )
    return {"ua": notice["pdf"], "a2b": easement["pdf"]}


@pytest.fixture(scope="module")
def signed(issued, signer) -> dict[str, bytes]:
    return {
        k: sign_pdf(v, signer, OFFICER, "Issued by the Village of Homer") for k, v in issued.items()
    }


def test_a_signed_pdf_validates_against_the_municipal_root(signed, signer):
    for pdf in signed.values():
        report = check_signature(pdf, signer.trust_root)
        assert report.signed and report.valid, report.lines()
        assert "Dana R. Whitcomb" in report.signer
        assert report.signed_at is not None and not report.changed_after
        assert not report.timestamped  # B-B: no time-stamp authority configured


def test_the_signature_is_pades_with_the_officer_and_municipality(signed):
    from pyhanko.pdf_utils.reader import PdfFileReader

    signature = PdfFileReader(io.BytesIO(signed["ua"])).embedded_signatures[0]
    assert signature.sig_object["/SubFilter"] == "/ETSI.CAdES.detached"
    assert signature.sig_object["/Name"] == OFFICER
    assert signature.sig_object["/Location"] == "Village of Homer"
    assert signature.field_name == FIELD


def test_with_a_time_stamp_authority_the_signature_is_b_t(issued, signer):
    from dataclasses import replace

    server, url = pki.time_stamp_server(pki.authority())
    try:
        signed = sign_pdf(issued["ua"], replace(signer, timestamp_url=url), OFFICER, "B-T")
    finally:
        server.shutdown()
        server.server_close()
    report = check_signature(signed, signer.trust_root)
    assert report.valid and report.timestamped, report.lines()
    assert any(line.endswith("(time-stamped)") for line in report.lines())


def test_an_unreachable_time_stamp_authority_stops_the_signature(issued, signer):
    from dataclasses import replace

    from tests.desk_server import free_port

    gone = replace(signer, timestamp_url=f"http://127.0.0.1:{free_port()}/")
    with pytest.raises(SigningError, match="did not answer"):
        sign_pdf(issued["ua"], gone, OFFICER, "B-T")


def test_another_root_does_not_trust_it(signed, tmp_path):
    from docgen.signing.keys import self_signed

    _, other = self_signed("Town of Macedon", b"another passphrase")
    (tmp_path / "other.pem").write_bytes(other)
    report = check_signature(signed["ua"], tmp_path / "other.pem")
    assert not report.valid
    assert "does not lead to the municipality's trust root" in " ".join(report.problems)


def test_one_changed_byte_is_found(signed, signer):
    data = bytearray(signed["ua"])
    start = data.index(b"stream", len(data) // 4) + 10  # inside a page's content
    data[start] ^= 0x01
    report = check_signature(bytes(data), signer.trust_root)
    assert report.signed and not report.valid
    assert "the signed bytes were changed" in " ".join(report.problems)


def _incremental(pdf: bytes, change) -> bytes:  # type: ignore[no-untyped-def]
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    change(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_an_incremental_update_after_signing_is_reported(signed, signer):
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.content import RawContent
    from pyhanko.pdf_utils.layout import BoxConstraints

    def add_page_content(writer):  # type: ignore[no-untyped-def]
        stamp = RawContent(b"0 0 1 rg 10 10 50 50 re f", box=BoxConstraints(60, 60))
        writer.add_stream_to_page(0, writer.add_object(stamp.as_form_xobject()))

    def retitle(writer):  # type: ignore[no-untyped-def]
        info = writer.trailer["/Info"]
        info["/Title"] = generic.TextStringObject("Notice withdrawn")
        writer.update_container(info)

    for change in (add_page_content, retitle):
        report = check_signature(_incremental(signed["ua"], change), signer.trust_root)
        assert report.signed and not report.valid
        assert report.changed_after.startswith("yes: an incremental update"), report.lines()


def test_an_unsigned_pdf_says_so(issued, signer):
    report = check_signature(issued["ua"], signer.trust_root)
    assert not report.signed
    assert report.lines() == ["signature: none (the file is not signed)"]


def test_the_signature_field_lies_over_the_printed_box(signed):
    with pikepdf.open(io.BytesIO(signed["ua"])) as pdf:
        last = pdf.pages[-1]
        widgets = [a for a in last.get("/Annots", []) if a.get("/FT") == "/Sig"]
        assert len(widgets) == 1
        llx, lly, urx, ury = (float(v) for v in widgets[0].Rect)
        assert urx - llx == pytest.approx(BOX_WIDTH, abs=1)  # whole points
        assert ury - lly == pytest.approx(BOX_HEIGHT, abs=1)
        assert int(widgets[0].F) & 4  # printed (PDF/A)
    text = " ".join(pdf_text(signed["ua"]).split())
    assert f"signed electronically for the Village of Homer by {OFFICER}" in text


def test_signing_keeps_the_pdf_ua_tags(issued, signed):
    with (
        pikepdf.open(io.BytesIO(issued["ua"])) as before,
        pikepdf.open(io.BytesIO(signed["ua"])) as after,
    ):
        assert after.Root.MarkInfo.Marked
        assert str(after.Root.Lang) == str(before.Root.Lang)
        assert after.Root.ViewerPreferences.DisplayDocTitle
        meta = after.open_metadata()
        assert meta["pdfuaid:part"] == "1"
        assert meta["dc:title"] == before.open_metadata()["dc:title"]
        # Every annotation is tagged: its /StructParent leads, through the parent tree,
        # to a structure element that holds it (the widget in a Form element).
        parents = dict(_number_tree(after.Root.StructTreeRoot.ParentTree))
        for page in after.pages:
            assert page.get("/Tabs") in (None, "/S")
            for annot in page.get("/Annots", []):
                element = parents[int(annot.StructParent)]
                kids = element.K if isinstance(element.K, pikepdf.Array) else [element.K]
                assert any(k.get("/Obj") == annot for k in kids)
                if annot.get("/FT") == "/Sig":
                    assert element.S == "/Form"
                    assert str(element.Alt).startswith("Signed electronically for")
        assert _figures_with_alt(after.Root.StructTreeRoot) >= 1  # the QR code


def test_signing_keeps_pdf_a_2b(issued, signed):
    with pikepdf.open(io.BytesIO(signed["a2b"])) as pdf:
        meta = pdf.open_metadata()
        assert meta["pdfaid:part"] == "2"
        assert meta["pdfaid:conformance"] == "B"
        assert "/OutputIntents" in pdf.Root
        # the info dictionary and the XMP agree (PDF/A 6.6.2.3): pyHanko updates both
        assert str(pdf.docinfo["/ModDate"]).startswith("D:")
        assert meta["xmp:ModifyDate"]
        for page in pdf.pages:
            for annot in page.get("/Annots", []):
                assert int(annot.get("/F", 0)) & 4, "every annotation printed"
                assert set(annot.get("/AP", {}).keys()) <= {"/N"}
    # the signed revision is the issued file, byte for byte, followed by the update
    assert signed["a2b"].startswith(issued["a2b"])


def test_a_pdf_without_a_signature_box_is_refused(signer):
    _, plain = api.render_bytes("notice-of-violation", NOTICE, ("pdf",), Options())
    with pytest.raises(SigningError, match="no signature box"):
        sign_pdf(plain["pdf"], signer, OFFICER, "x")


@pytest.mark.parametrize(
    ("flaw", "expected"),
    [
        ("expired", "expired on"),
        ("not-yet-valid", "is not valid until"),
        ("wrong-usage", "may not sign documents"),
        ("no-usage", "may not sign documents"),
    ],
)
def test_a_flawed_certificate_is_refused(tmp_path, flaw, expected):
    settings = pki.install(tmp_path, flaw=flaw)
    key = read_key(settings.parent / "keys" / "homer.p12", pki.PASSPHRASE.encode())
    with pytest.raises(SigningKeyError, match=expected):
        usable(key.certificate)


def test_a_wrong_passphrase_is_refused(settings):
    with pytest.raises(SigningKeyError, match="wrong passphrase"):
        read_key(settings.parent / "keys" / "homer.p12", b"not the passphrase")


def _number_tree(node):  # type: ignore[no-untyped-def]
    nums = node.get("/Nums", [])
    for i in range(0, len(nums), 2):
        yield int(nums[i]), nums[i + 1]
    for kid in node.get("/Kids", []):
        yield from _number_tree(kid)


def _figures_with_alt(node) -> int:  # type: ignore[no-untyped-def]
    count = 0
    if isinstance(node, pikepdf.Dictionary):
        if node.get("/S") == "/Figure" and re.match(r"QR code", str(node.get("/Alt", ""))):
            count += 1
        kids = node.get("/K")
        for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
            count += _figures_with_alt(kid)
    return count
