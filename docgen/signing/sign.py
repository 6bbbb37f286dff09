"""Stage 3 (issued documents only): the PDF signed with the municipality's key.

PAdES baseline B-B (a CAdES detached signature, ETSI.CAdES.detached), or B-T when the
settings name a time-stamp authority. The signature is an incremental update: the
document's bytes, its tags (PDF/UA) and its PDF/A identification stay as WeasyPrint wrote
them, and the update adds only the signature field, its widget and the widget's place in
the structure tree.

The visible field sits over the signature box the template prints (the element whose id
is :data:`BOX_ID`, a named destination in the PDF): the words in the box ("Signed
electronically for the Village of ... by ...") are the document's own tagged text, so
the widget's appearance is empty and needs no font, and a screen reader reads the field
by its /TU. Its size is the box's (:data:`BOX_WIDTH` by :data:`BOX_HEIGHT` points, set in
the stylesheet as well).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import ECDSA, EllipticCurvePrivateKey
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

from docgen.errors import DocgenError
from docgen.signing.keys import SigningKey, passphrase, read_certificate, read_key, usable

if TYPE_CHECKING:  # pyHanko publishes no types: these name what its objects are
    from cryptography import x509
    from pyhanko.sign.signers import SimpleSigner
    from pyhanko.sign.timestamps.api import TimeStamper

T = TypeVar("T")
FIELD = "Signature"
BOX_ID = "docgen-signature"
BOX_WIDTH = 234.0  # points: 3.25 in, as print.css sets .signature-box
BOX_HEIGHT = 40.5  # points: 0.5625 in
# Room for the CMS signature (certificates and, for B-T, a time-stamp token): fixed, so
# pyHanko need not sign twice to measure it (a dry run costs as much as the signature).
RESERVED = 12 * 1024


class SigningError(DocgenError):
    """The PDF could not be signed (exit 1; nothing is issued)."""


@dataclass(frozen=True)
class Signer:
    """A municipality ready to sign: its key, its name, its time-stamp authority."""

    key: SigningKey
    municipality: str
    trust_root: Path
    timestamp_url: str | None = None


def municipal_signer(jurisdiction: str, municipality: str, prompt: bool = True) -> Signer | None:
    """The signer named in ``jurisdiction``'s settings, its certificate checked; None when
    the municipality has no signing key (documents are then issued unsigned)."""
    # settings loads pydantic, yaml, annotated_types (+98 ms): loaded on first use
    from docgen.settings import load_settings

    local = load_settings(jurisdiction)
    if local is None or local.settings.signing is None:
        return None
    signing = local.settings.signing
    key = _opened(signing.key, passphrase(prompt))
    usable(key.certificate, where=str(signing.key))
    read_certificate(signing.certificate)  # the trust root must be there to verify with
    return Signer(key, municipality, signing.certificate, signing.timestamp_url)


_OPENED: dict[tuple[Path, int, str], SigningKey] = {}


def _opened(path: Path, secret: bytes) -> SigningKey:
    """The key at ``path``, opened once per process (an RSA key's check on opening takes
    about 0.4 s) and again when the file changes."""
    try:
        changed = path.stat().st_mtime_ns
    except OSError:
        changed = 0  # read_key names the problem
    slot = (path, changed, hashlib.sha256(secret).hexdigest())
    if slot not in _OPENED:
        _OPENED[slot] = read_key(path, secret)
    return _OPENED[slot]


def off_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, in a thread of its own when this one runs an event loop (pyHanko's
    synchronous calls start their own loop, which a running one refuses)."""
    # asyncio, ssl take 18 ms to import: loaded on first use
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return work(*args)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work, *args).result()


def sign_pdf(pdf: bytes, signer: Signer, officer: str, reason: str, visible: bool = True) -> bytes:
    """``pdf`` with a PAdES signature in the field over its signature box; ``visible``
    False: in a field with no place on a page (a file the register assembles from
    documents it issued, whose pages have no box of their own)."""
    return off_loop(_sign_pdf, pdf, signer, officer, reason, visible)


def _sign_pdf(pdf: bytes, signer: Signer, officer: str, reason: str, visible: bool) -> bytes:
    try:
        return _signed(pdf, signer, officer, reason, RESERVED, visible)
    except SigningError:
        raise
    except Exception:  # the signature outgrew the room (a long chain): measure it
        pass
    try:
        return _signed(pdf, signer, officer, reason, None, visible)
    except SigningError:
        raise
    except Exception as err:  # pyHanko's and the time-stamp server's faults alike
        raise SigningError(f"the PDF could not be signed: {err}") from None


def _signed(
    pdf: bytes, signer: Signer, officer: str, reason: str, room: int | None, visible: bool
) -> bytes:
    # pyhanko, aiohttp, pyhanko_certvalidator take 320 ms to import: loaded on first use
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers
    from pyhanko.stamp import NoOpStampStyle

    writer = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    page, box = _signature_box(writer) if visible else (0, None)
    described = f"Signed electronically for {signer.municipality} by {officer}"
    fields.append_signature_field(
        writer,
        fields.SigFieldSpec(FIELD, on_page=page, box=box, readable_field_name=described),
    )
    if visible:  # an invisible field has no widget a reader meets on the page
        _tag_widget(writer, page, described)
    metadata = signers.PdfSignatureMetadata(
        field_name=FIELD,
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
        name=officer,
        location=signer.municipality,
        reason=reason,
    )
    timestamper = _time_stamper(signer.timestamp_url) if signer.timestamp_url else None
    pdf_signer = signers.PdfSigner(
        metadata,
        _pyhanko_signer(signer.key),
        timestamper=timestamper,
        stamp_style=NoOpStampStyle(),
    )
    out = io.BytesIO()
    pdf_signer.sign_pdf(writer, output=out, bytes_reserved=room)
    return out.getvalue()


def _time_stamper(url: str) -> TimeStamper:
    """An RFC 3161 client over the standard library (pyHanko's own need requests or
    aiohttp): the time-stamp token that makes the signature PAdES B-T."""
    # asyncio, ssl take 21 ms to import: loaded on first use
    import asyncio
    import urllib.request

    # pyhanko, aiohttp, pyhanko_certvalidator take 320 ms to import: loaded on first use
    from asn1crypto import tsp
    from pyhanko.sign.timestamps.api import TimeStamper

    class UrllibTimeStamper(TimeStamper):
        async def async_request_tsa_response(self, req: tsp.TimeStampReq) -> tsp.TimeStampResp:
            def post() -> bytes:
                request = urllib.request.Request(
                    url, data=req.dump(), headers={"Content-Type": "application/timestamp-query"}
                )
                with urllib.request.urlopen(request, timeout=10) as reply:
                    if reply.headers.get("Content-Type") != "application/timestamp-reply":
                        raise SigningError(f"{url}: not a time-stamp authority's reply")
                    return reply.read()

            try:
                return tsp.TimeStampResp.load(await asyncio.to_thread(post))
            except OSError as err:
                why = f"the time-stamp authority {url} did not answer: {err}"
                raise SigningError(why) from None

    return UrllibTimeStamper()


def _pyhanko_signer(key: SigningKey) -> SimpleSigner:
    """pyHanko's signer over the key already opened (pyHanko's own reloads the key from
    DER at every signature, a check of the RSA key that costs about 0.4 s each time)."""
    # asn1crypto takes 11 ms to import: loaded on first use
    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509

    # pyhanko, aiohttp, pyhanko_certvalidator take 310 ms to import: loaded on first use
    from pyhanko.sign import signers
    from pyhanko.sign.general import get_pyca_cryptography_hash
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    class OpenedKeySigner(signers.SimpleSigner):
        def sign_raw(self, data: bytes, digest_algorithm: str) -> bytes:
            mechanism = self.get_signature_mechanism_for_digest(digest_algorithm).signature_algo
            digest = get_pyca_cryptography_hash(digest_algorithm)
            if mechanism == "rsassa_pkcs1v15" and isinstance(key.key, RSAPrivateKey):
                return key.key.sign(data, PKCS1v15(), digest)
            if mechanism == "ecdsa" and isinstance(key.key, EllipticCurvePrivateKey):
                return key.key.sign(data, ECDSA(digest))
            return super().sign_raw(data, digest_algorithm)

    def der(certificate: x509.Certificate) -> asn1_x509.Certificate:
        return asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER))

    der_key = key.key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    certificate = der(key.certificate)
    return OpenedKeySigner(
        signing_cert=certificate,
        signing_key=asn1_keys.PrivateKeyInfo.load(der_key),
        cert_registry=SimpleCertificateStore.from_certs(
            [certificate, *(der(c) for c in key.chain)]
        ),
    )


def _signature_box(writer: Any) -> tuple[int, tuple[int, int, int, int]]:
    """The page index and rectangle of the template's signature box (a named destination)."""
    names = writer.root.get("/Names")
    dests = names.get("/Dests") if names is not None else None
    found = _find_name(dests, BOX_ID) if dests is not None else None
    if found is None:
        raise SigningError(
            f"the PDF has no signature box (#{BOX_ID}): an issued document's template "
            "prints one (base/layout.html.j2)"
        )
    target = found.get_object()
    page_ref, left, top = target.raw_get(0), float(target[2]), float(target[3])
    pages = [ref.idnum for ref in _page_refs(writer)]
    page = pages.index(page_ref.idnum)
    box = (round(left), round(top - BOX_HEIGHT), round(left + BOX_WIDTH), round(top))
    return page, box


def _find_name(node: Any, name: str) -> Any:
    node = node.get_object()
    if "/Names" in node:
        entries = node["/Names"]
        for i in range(0, len(entries), 2):
            if str(entries[i]) == name:
                return entries[i + 1]
    for kid in node.get("/Kids", []):
        found = _find_name(kid, name)
        if found is not None:
            return found
    return None


def _page_refs(writer: Any) -> list[Any]:
    refs = []

    def walk(ref: Any) -> None:
        node = ref.get_object()
        if node["/Type"] == "/Pages":
            for kid in node["/Kids"]:
                walk(kid)
        else:
            refs.append(ref)

    walk(writer.root.raw_get("/Pages"))
    return refs


def _tag_widget(writer: Any, page: int, described: str) -> None:
    """Put the signature's widget in the structure tree (PDF/UA: an annotation is tagged,
    a widget inside a Form element) and make it printable (PDF/A)."""
    # pyhanko_certvalidator, asn1crypto, asyncio take 72 ms to import: loaded on first use
    from pyhanko.pdf_utils import generic

    # (pyHanko's .get would give the reference; [] gives the object)
    tree = writer.root["/StructTreeRoot"] if "/StructTreeRoot" in writer.root else None  # noqa: SIM401
    page_ref = _page_refs(writer)[page]
    page_obj = page_ref.get_object()
    annots = page_obj["/Annots"]
    widget_ref = next(annots.raw_get(i) for i in range(len(annots)) if annots[i].get("/T") == FIELD)
    widget = widget_ref.get_object()
    widget["/F"] = generic.NumberObject(4)  # Print
    if tree is None:  # an untagged PDF (a PDF/A variant without tags): nothing to join
        writer.update_container(widget)
        return
    parent_tree = tree["/ParentTree"]
    nums = parent_tree["/Nums"]
    keys = [int(nums[i]) for i in range(0, len(nums), 2)]
    key = max([*keys, int(tree.get("/ParentTreeNextKey", 0)) - 1]) + 1
    top = tree["/K"]
    document_ref = top.raw_get(0) if isinstance(top, generic.ArrayObject) else tree.raw_get("/K")
    document = document_ref.get_object()
    form = generic.DictionaryObject(
        {
            generic.NameObject("/Type"): generic.NameObject("/StructElem"),
            generic.NameObject("/S"): generic.NameObject("/Form"),
            generic.NameObject("/P"): document_ref,
            generic.NameObject("/Alt"): generic.TextStringObject(described),
            generic.NameObject("/Pg"): page_ref,
            generic.NameObject("/K"): generic.DictionaryObject(
                {
                    generic.NameObject("/Type"): generic.NameObject("/OBJR"),
                    generic.NameObject("/Obj"): widget_ref,
                    generic.NameObject("/Pg"): page_ref,
                }
            ),
        }
    )
    form_ref = writer.add_object(form)
    kids = document.get("/K")
    if isinstance(kids, generic.ArrayObject):
        kids.append(form_ref)
    else:
        document["/K"] = generic.ArrayObject([kids, form_ref] if kids is not None else [form_ref])
    nums.append(generic.NumberObject(key))
    nums.append(form_ref)
    tree["/ParentTreeNextKey"] = generic.NumberObject(key + 1)
    widget["/StructParent"] = generic.NumberObject(key)
    page_obj["/Tabs"] = generic.NameObject("/S")  # PDF/UA: tab order follows the structure
    for changed in (widget, document, parent_tree, tree, page_obj):
        writer.update_container(changed)


def signing_time(signed: bytes) -> datetime | None:
    """When ``signed`` says it was signed (the signature's signing time)."""
    # pyhanko_certvalidator, pyhanko, asn1crypto take 93 ms to import: loaded on first use
    from pyhanko.pdf_utils.reader import PdfFileReader

    reader = PdfFileReader(io.BytesIO(signed), strict=False)
    sigs = reader.embedded_signatures
    return sigs[0].self_reported_timestamp if sigs else None
