"""A real, local PKI for the signing tests (cryptography; no network): a municipal root
certificate authority and signing certificates it issues, good or flawed on purpose."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

PASSPHRASE = "a long test passphrase"
NOW = datetime.now(UTC)


def _name(common: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Village of Homer"),
            x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
        ]
    )


def _usage(**bits: bool) -> x509.KeyUsage:
    names = [
        "digital_signature",
        "content_commitment",
        "key_encipherment",
        "data_encipherment",
        "key_agreement",
        "key_cert_sign",
        "crl_sign",
    ]
    return x509.KeyUsage(
        **{n: bits.get(n, False) for n in names}, encipher_only=False, decipher_only=False
    )


@dataclass(frozen=True)
class Authority:
    key: ec.EllipticCurvePrivateKey
    certificate: x509.Certificate

    def pem(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.PEM)

    def issue(
        self,
        common: str,
        not_before: datetime | None = None,
        not_after: datetime | None = None,
        usage: x509.KeyUsage | None = None,
    ) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
        key = ec.generate_private_key(ec.SECP256R1())
        builder = (
            x509.CertificateBuilder()
            .subject_name(_name(common))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(not_before or NOW - timedelta(days=1))
            .not_valid_after(not_after or NOW + timedelta(days=365))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                critical=False,
            )
        )
        if usage is not False:
            builder = builder.add_extension(
                usage or _usage(digital_signature=True, content_commitment=True), critical=True
            )
        return key, builder.sign(self.key, hashes.SHA256())


def time_stamp_server(ca: Authority):  # type: ignore[no-untyped-def]
    """A time-stamp authority on a loopback port (RFC 3161 over HTTP, answered by pyHanko's
    DummyTimeStamper with a certificate ``ca`` issued for time-stamping): (server, URL).
    The caller shuts the server down and closes it."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from asn1crypto import keys as asn1_keys
    from asn1crypto import tsp
    from asn1crypto import x509 as asn1_x509
    from cryptography.x509.oid import ExtendedKeyUsageOID
    from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

    key = rsa.generate_private_key(65537, 2048)  # pyHanko's test TSA signs with RSA only
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name("Village of Homer Time-Stamp Authority"))
        .issuer_name(ca.certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - timedelta(days=1))
        .not_valid_after(NOW + timedelta(days=365))
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .add_extension(_usage(digital_signature=True), critical=True)
        .sign(ca.key, hashes.SHA256())
    )
    der = serialization.Encoding.DER
    stamper = DummyTimeStamper(
        tsa_cert=asn1_x509.Certificate.load(certificate.public_bytes(der)),
        tsa_key=asn1_keys.PrivateKeyInfo.load(
            key.private_bytes(der, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        ),
    )

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            request = tsp.TimeStampReq.load(self.rfile.read(int(self.headers["Content-Length"])))
            body = stamper.request_tsa_response(request).dump()
            self.send_response(200)
            self.send_header("Content-Type", "application/timestamp-reply")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@cache
def authority() -> Authority:
    """The municipality's root certificate authority (made once per test session)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = _name("Village of Homer Root CA")
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - timedelta(days=30))
        .not_valid_after(NOW + timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_usage(key_cert_sign=True, crl_sign=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    return Authority(key, certificate)


def write_p12(path: Path, key, certificate, chain=()) -> Path:  # type: ignore[no-untyped-def]
    path.write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"signer",
            key,
            certificate,
            list(chain),
            serialization.BestAvailableEncryption(PASSPHRASE.encode()),
        )
    )
    return path


def install(folder: Path, jurisdiction: str = "homer", flaw: str = "", extra: str = "") -> Path:
    """A settings file for ``jurisdiction`` in ``folder`` naming a signing key the
    authority issued (``flaw``: expired, not-yet-valid, wrong-usage, no-usage) and the
    authority's certificate as trust root. The settings file's path."""
    ca = authority()
    options = {
        "expired": {"not_before": NOW - timedelta(days=400), "not_after": NOW - timedelta(days=1)},
        "not-yet-valid": {"not_before": NOW + timedelta(days=10)},
        "wrong-usage": {"usage": _usage(key_encipherment=True)},
        "no-usage": {"usage": False},
        "": {},
    }[flaw]
    key, certificate = ca.issue("Dana R. Whitcomb, Code Enforcement Officer", **options)
    keys = folder / "keys"
    keys.mkdir(parents=True, exist_ok=True)
    write_p12(keys / f"{jurisdiction}.p12", key, certificate, [ca.certificate])
    (keys / "root.pem").write_bytes(ca.pem())
    settings = folder / f"{jurisdiction}.yaml"
    settings.write_text(
        "officers:\n"
        "  enforcement: {name: Dana R. Whitcomb, title: Code Enforcement Officer}\n"
        "signing:\n"
        f"  key: keys/{jurisdiction}.p12\n"
        "  certificate: keys/root.pem\n"
        "verification:\n"
        "  address: https://homer.example.gov\n" + extra,
        encoding="utf-8",
    )
    return settings
