"""`docgen keys`: a municipality's signing key, made for a pilot or shown."""

from __future__ import annotations

import sys

import click

from docgen.errors import DocgenError
from docgen.law import JURISDICTION_HELP


@click.group()
def keys() -> None:
    """The municipality's signing key and certificate (named in its settings)."""


@keys.command("create")
@click.option(
    "--jurisdiction",
    "-j",
    required=True,
    help=JURISDICTION_HELP,
)
@click.option("--passphrase-stdin", is_flag=True, help="read the key's passphrase from stdin")
@click.option("--force", is_flag=True, help="replace a key already made")
def create(jurisdiction: str, passphrase_stdin: bool, force: bool) -> None:
    """Make a self-signed signing certificate and key and name them in the settings.

    For a test or a pilot: a certificate from the municipality's certificate authority is
    used instead by naming its PKCS#12 file and certificate in the settings (README)."""
    # signing.keys loads cryptography (+33 ms): kept out of `docgen --help`'s start
    from docgen.signing.keys import create_pilot_key, describe, read_certificate

    if passphrase_stdin:
        secret = sys.stdin.readline().rstrip("\r\n")
    else:
        secret = click.prompt("passphrase", hide_input=True, confirmation_prompt=True)
    key, certificate = create_pilot_key(jurisdiction, secret.encode("utf-8"), force)
    click.echo(f"key:         {key}")
    click.echo(f"certificate: {certificate}")
    for line in describe(read_certificate(certificate)):
        click.echo(line)
    click.echo("the next `docgen issue` signs with it (passphrase: DOCGEN_SIGNING_PASSPHRASE)")


@keys.command("show")
@click.option(
    "--jurisdiction",
    "-j",
    required=True,
    help=JURISDICTION_HELP,
)
def show(jurisdiction: str) -> None:
    """Print the signing certificate's subject, validity and SHA-256 fingerprint."""
    # law.packs and others load pydantic (+180 ms): kept out of `docgen --help`'s start
    from docgen.law.packs import load_pack
    from docgen.settings import load_settings, settings_path
    from docgen.signing.keys import describe, read_certificate, usable

    pack = load_pack(jurisdiction)
    local = load_settings(pack.id)
    if local is None or local.settings.signing is None:
        raise DocgenError(
            f"{settings_path(pack.id)}: no signing key is named (signing.key, "
            "signing.certificate); documents are issued unsigned"
        )
    certificate = read_certificate(local.settings.signing.certificate)
    click.echo(f"key:         {local.settings.signing.key}")
    click.echo(f"certificate: {local.settings.signing.certificate}")
    for line in describe(certificate):
        click.echo(line)
    usable(certificate, where=str(local.settings.signing.certificate))
    click.echo("usable for signing: yes")
