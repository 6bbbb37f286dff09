"""A municipality's signing key: read, checked before use, or made for a test or pilot.

The key is a PKCS#12 file named in the municipality's settings (``signing.key``); its
passphrase comes from ``DOCGEN_SIGNING_PASSPHRASE`` or a prompt, never a command-line
argument. A certificate is refused before anything is issued when it is not yet valid,
has expired, or may not sign documents: its key usage must allow digital signatures or
non-repudiation (RFC 5280, 4.2.1.3).

``docgen keys create`` makes a self-signed certificate (ECDSA P-256, SHA-256) and names it in
the settings: enough for a pilot. A certificate from the municipality's certificate
authority is used the same way (README: "Signing").
"""

from __future__ import annotations

import getpass
import os
import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from docgen.errors import DocgenError
from docgen.passwords import MIN_LENGTH, secret_problem

PASSPHRASE_ENV = "DOCGEN_SIGNING_PASSPHRASE"
PILOT_YEARS = 3


class SigningKeyError(DocgenError):
    """The signing key or its certificate cannot be used (exit 1, before issuing)."""


@dataclass(frozen=True)
class SigningKey:
    """A key and its certificate, read from the PKCS#12 file at ``path``."""

    path: Path
    key: PrivateKeyTypes
    certificate: x509.Certificate
    chain: tuple[x509.Certificate, ...] = ()


def read_certificate(path: Path) -> x509.Certificate:
    """The certificate at ``path`` (PEM or DER)."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise SigningKeyError(f"{path}: cannot read the certificate: {err.strerror}") from None
    try:
        if b"-----BEGIN" in data:
            return x509.load_pem_x509_certificate(data)
        return x509.load_der_x509_certificate(data)
    except ValueError:
        raise SigningKeyError(f"{path}: not an X.509 certificate (PEM or DER)") from None


def read_key(path: Path, passphrase: bytes) -> SigningKey:
    """The PKCS#12 file at ``path`` opened with ``passphrase``."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise SigningKeyError(f"{path}: cannot read the signing key: {err.strerror}") from None
    try:
        key, certificate, chain = pkcs12.load_key_and_certificates(data, passphrase)
    except ValueError:
        raise SigningKeyError(
            f"{path}: cannot open the signing key: wrong passphrase ({PASSPHRASE_ENV}), "
            "or not a PKCS#12 file"
        ) from None
    if key is None or certificate is None:
        raise SigningKeyError(f"{path}: the PKCS#12 file holds no key and certificate")
    return SigningKey(path, key, certificate, tuple(chain or ()))


def usable(certificate: x509.Certificate, now: datetime | None = None, where: str = "") -> None:
    """Refuse a certificate that is out of date or may not sign documents."""
    now = now or datetime.now(UTC)
    head = f"{where}: " if where else ""
    subject = certificate.subject.rfc4514_string()
    if now < certificate.not_valid_before_utc:
        raise SigningKeyError(
            f"{head}the signing certificate ({subject}) is not valid until "
            f"{certificate.not_valid_before_utc:%Y-%m-%d %H:%M} UTC"
        )
    if now > certificate.not_valid_after_utc:
        raise SigningKeyError(
            f"{head}the signing certificate ({subject}) expired on "
            f"{certificate.not_valid_after_utc:%Y-%m-%d %H:%M} UTC"
        )
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        usage = None
    if usage is None or not (usage.digital_signature or usage.content_commitment):
        raise SigningKeyError(
            f"{head}the signing certificate ({subject}) may not sign documents: its key "
            "usage has neither digital signature nor non-repudiation"
        )


def passphrase(prompt: bool = True) -> bytes:
    """``DOCGEN_SIGNING_PASSPHRASE``, or asked for at the terminal (never an argument):
    only a command run at a terminal asks, never a server's request (not the main thread)."""
    given = os.environ.get(PASSPHRASE_ENV)
    if given is not None:
        return given.encode("utf-8")
    if prompt and os.isatty(0) and threading.current_thread() is threading.main_thread():
        return getpass.getpass("Passphrase of the signing key: ").encode("utf-8")
    raise SigningKeyError(
        f"the signing key needs its passphrase: set {PASSPHRASE_ENV} or run at a terminal"
    )


def fingerprint(certificate: x509.Certificate) -> str:
    digest = certificate.fingerprint(hashes.SHA256()).hex().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def describe(certificate: x509.Certificate) -> list[str]:
    """What `docgen keys show` prints: subject, issuer, validity, SHA-256 fingerprint."""
    return [
        f"subject:     {certificate.subject.rfc4514_string()}",
        f"issuer:      {certificate.issuer.rfc4514_string()}",
        f"valid from:  {certificate.not_valid_before_utc:%Y-%m-%d %H:%M} UTC",
        f"valid until: {certificate.not_valid_after_utc:%Y-%m-%d %H:%M} UTC",
        f"SHA-256:     {fingerprint(certificate)}",
    ]


def self_signed(
    municipality: str,
    secret: bytes,
    now: datetime | None = None,
    years: int = PILOT_YEARS,
    key: Any = None,
) -> tuple[bytes, bytes]:
    """A self-signed certificate for ``municipality`` over ``key`` (default: a new ECDSA
    P-256 key): (PKCS#12 of both, the certificate as PEM)."""
    now = now or datetime.now(UTC)
    key = key or ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, municipality),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, municipality),
            x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, "New York"),
            x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
        ]
    )
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=365 * years))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    p12 = pkcs12.serialize_key_and_certificates(
        municipality.encode("utf-8"),
        key,
        certificate,
        None,
        serialization.BestAvailableEncryption(secret),
    )
    return p12, certificate.public_bytes(serialization.Encoding.PEM)


def name_in_settings(settings_file: Path, key: Path, certificate: Path) -> None:
    """Write ``signing`` into the settings file, keeping every other line as written."""
    block = f"signing:\n  key: {key.as_posix()}\n  certificate: {certificate.as_posix()}\n"
    text = settings_file.read_text(encoding="utf-8") if settings_file.exists() else ""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if re.match(r"signing\s*:", line)), None)
    if start is None:
        text = text + ("" if not text or text.endswith("\n") else "\n") + block
    else:
        end = start + 1
        while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
            end += 1
        kept = [line for line in lines[start + 1 : end] if "timestamp_url" in line]
        text = "".join([*lines[:start], block, *kept, *lines[end:]])
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    temporary = settings_file.with_suffix(".yaml.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(settings_file)


MIN_PASSPHRASE = MIN_LENGTH


def create_pilot_key(jurisdiction: str, secret: bytes, force: bool = False) -> tuple[Path, Path]:
    """A self-signed key and certificate for ``jurisdiction`` in its settings folder
    (``keys/J.p12``, ``keys/J.pem``), named in its settings file: (key, certificate).
    Existing key files are kept unless ``force``."""
    # law.packs and settings load pydantic, yaml, annotated_types (+150 ms): loaded on first use
    from docgen.law.packs import load_pack
    from docgen.settings import settings_path

    try:
        typed = secret.decode("utf-8")
    except UnicodeDecodeError:
        raise SigningKeyError("the passphrase is not UTF-8 text") from None
    problem = secret_problem(typed, what="passphrase")  # the desk's rule for passwords
    if problem is not None:
        raise SigningKeyError(f"{problem} (the rule of the desk's passwords)")
    pack = load_pack(jurisdiction)
    settings_file = settings_path(pack.id)
    folder = settings_file.parent / "keys"
    key_file, certificate_file = folder / f"{pack.id}.p12", folder / f"{pack.id}.pem"
    for path in (key_file, certificate_file):
        if path.exists() and not force:
            raise SigningKeyError(f"{path}: a key is already there (--force replaces it)")
    p12, pem = self_signed(pack.name.value, secret)
    folder.mkdir(parents=True, exist_ok=True)
    for path, data in ((key_file, p12), (certificate_file, pem)):
        temporary = path.with_suffix(path.suffix + ".tmp")
        temporary.write_bytes(data)
        temporary.chmod(0o600)
        temporary.replace(path)
    name_in_settings(
        settings_file,
        key_file.relative_to(settings_file.parent),
        certificate_file.relative_to(settings_file.parent),
    )
    return key_file, certificate_file
