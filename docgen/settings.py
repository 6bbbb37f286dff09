"""A municipality's own settings, kept outside the package: what a village edits.

The law lives in the packs (docgen/law/*.yaml); the values a village changes without a
local law (its telephone and office hours, who holds which office, the standing
resolutions its officers sign under, the key it signs documents with) live in one YAML
file per municipality in the register's home::

    $DOCGEN_HOME/settings/<jurisdiction>.yaml   (or DOCGEN_SETTINGS=DIR/<jurisdiction>.yaml)

An upgrade of docgen never writes there. The file is validated like a pack (every key
known, every value typed; an error names the file and the key path), and its values
replace the pack's when the pack is loaded (:func:`overlay`), keeping the pack's citation:
a telephone number is still the office "§ 228-79C(1)(f)" names. Everything is optional;
a key left out keeps the pack's value. Paths (the signing key, the certificate) are read
relative to the settings file::

    offices:
      phone: (607) 749-3322
      hours: Monday to Friday, 8:30 a.m. to 4:30 p.m.
    officers:
      enforcement: {name: Dana R. Whitcomb, title: Code Enforcement Officer}
      signatory: {name: Hal Brennan, title: Mayor}
    resolutions:
      instruments: {body: Board of Trustees, date: 2026-01-05, resolution: "2026-04"}
    signing:
      key: keys/village.p12            # PKCS#12; passphrase from DOCGEN_SIGNING_PASSPHRASE
      certificate: keys/village.pem    # the trust root `docgen verify` checks against
      timestamp_url: https://tsa.example.org/   # optional: PAdES B-T instead of B-B
    verification:
      address: https://village.example.gov          # the public check: ADDRESS/v/NUMBER
    smtp:                                         # optional: contractors' invitations by e-mail
      host: mail.village.example.gov
      port: 587
      from: Village Clerk <clerk@village.example.gov>
      starttls: true
      username: clerk@village.example.gov           # password from DOCGEN_SMTP_PASSWORD
    language_access:
      taglines: [es, zh, ru]     # the tagline block's languages (LAW.md § 13); by default
                                 # the twelve of Executive Law § 202-a
                                 # (docgen/law/language/taglines.yaml)
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)

from docgen.errors import DocgenError
from docgen.law.strict_yaml import describe_errors, strict_load
from docgen.law.taglines import catalog, default_languages, unknown
from docgen.values import Phone

SETTINGS_ENV = "DOCGEN_SETTINGS"
HOME_ENV = "DOCGEN_HOME"

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class SettingsInvalid(DocgenError):
    """A settings file that cannot be used: names the file, the key path and what is wrong."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Offices(_Strict):
    """The municipal offices: the letterhead, where appeals are filed, when it is open."""

    name: Text | None = None
    street: Text | None = None
    city: Text | None = None
    phone: Phone | None = None
    hours: Text | None = None
    appeal_office: Text | None = None  # the office that receives a notice of appeal


class Officer(_Strict):
    name: Text
    title: Text


class Officers(_Strict):
    """Who holds the offices documents name: the officer who enforces the article, and
    the officer who signs recorded instruments for the municipality."""

    enforcement: Officer | None = None
    signatory: Officer | None = None


class Resolution(_Strict):
    body: Text
    date: date
    resolution: Text


class Resolutions(_Strict):
    # The standing resolution under which the signatory signs every easement and agreement.
    instruments: Resolution | None = None


class Signing(_Strict):
    """The municipality's signing key (PKCS#12) and the certificate that verifies it."""

    key: Path
    certificate: Path
    timestamp_url: Text | None = None

    @field_validator("timestamp_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("https://", "http://")):
            raise ValueError(f"{value!r} is not a web address (https://...)")
        return value


class Verification(_Strict):
    address: Text  # the public check's web address: ADDRESS/v/NUMBER?code=CODE

    @field_validator("address")
    @classmethod
    def _web_address(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise ValueError(f"{value!r} is not a web address (https://...)")
        if parts.username or parts.password or parts.query or parts.fragment:
            raise ValueError(
                f"{value!r}: the public check's address is a plain site address "
                "(https://host or https://host/path), without a user, query or fragment"
            )
        try:
            parts.port  # noqa: B018 - urlsplit checks the port only when asked
        except ValueError:
            raise ValueError(f"{value!r} has an impossible port") from None
        return value.rstrip("/")


def is_loopback(address: str) -> bool:
    """Whether the web ``address`` names this machine only (127.0.0.0/8, ::1, localhost):
    a document printing it tells the public to check it where nobody else can."""
    host = (urlsplit(address).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Smtp(_Strict):
    """The mail server that sends contractors their invitations. The password is never in
    the file: it comes from the environment (:data:`SMTP_PASSWORD_ENV`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    host: Text
    port: int = 587
    sender: Text = Field(alias="from")
    starttls: bool = True
    username: Text | None = None

    @field_validator("port")
    @classmethod
    def _port(cls, value: int) -> int:
        if not 0 < value < 65536:
            raise ValueError(f"{value} is not a port (1 to 65535)")
        return value


SMTP_PASSWORD_ENV = "DOCGEN_SMTP_PASSWORD"


class LanguageAccess(_Strict):
    """The languages of the block every delivered document carries (LAW.md § 13)."""

    taglines: tuple[str, ...] = Field(default_factory=default_languages)

    @field_validator("taglines")
    @classmethod
    def _known(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        missing = unknown(value)
        if missing:
            raise ValueError(
                f"no reviewed tagline wording for {', '.join(missing)}; "
                f"languages: {', '.join(catalog())}"
            )
        if len(set(value)) != len(value):
            raise ValueError("a language is listed twice")
        return value


class FeeSchedule(_Strict):
    """The municipality's fee schedule for the services § 228-79D lets it charge for ("reasonable
    costs at prevailing rates for review of SWPPPs, inspections, or SMP maintenance"): the
    schedule as adopted (by whom, when) and the rate of each service. A setting, never the
    pack's: the law sets no figure."""

    adopted: Text  # "adopted by the Board of Trustees, resolution 2026-14, January 12, 2026"
    swppp_review: Decimal = Field(gt=0)
    inspection: Decimal = Field(gt=0)


class Settings(_Strict):
    offices: Offices = Offices()
    officers: Officers = Officers()
    resolutions: Resolutions = Resolutions()
    signing: Signing | None = None
    verification: Verification | None = None
    smtp: Smtp | None = None
    language_access: LanguageAccess = LanguageAccess()
    fee_schedule: FeeSchedule | None = None


def tagline_languages(jurisdiction: str) -> tuple[str, ...]:
    """The tagline languages ``jurisdiction``'s settings choose (the default without any)."""
    local = load_settings(jurisdiction)
    return (local.settings if local else Settings()).language_access.taglines


@dataclass(frozen=True, eq=False)  # one per file read: hashed by identity (pack caches)
class LocalSettings:
    """A settings file read and checked, with its paths made absolute."""

    path: Path
    jurisdiction: str
    settings: Settings


def home() -> Path:
    """The register's home: ``DOCGEN_HOME``, or the platform's user data folder."""
    given = os.environ.get(HOME_ENV, "").strip()
    if given:
        return Path(given).expanduser().resolve()
    # platformdirs: only a register without DOCGEN_HOME needs it, not `docgen check`
    from platformdirs import user_data_dir

    return Path(user_data_dir("docgen", appauthor=False))


def settings_folder() -> Path:
    given = os.environ.get(SETTINGS_ENV, "").strip()
    return Path(given).expanduser().resolve() if given else home() / "settings"


def settings_path(jurisdiction: str) -> Path:
    return settings_folder() / f"{jurisdiction.strip().lower()}.yaml"


def load_settings(jurisdiction: str) -> LocalSettings | None:
    """The settings of ``jurisdiction``, or None where the municipality has none."""
    path = settings_path(jurisdiction)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise SettingsInvalid(f"{path}: cannot read the settings: {err.strerror}") from None
    return read_settings(path, stat.st_mtime_ns, stat.st_size)


@cache
def read_settings(path: Path, mtime: int = 0, size: int = 0) -> LocalSettings:
    """The settings file at ``path`` validated (cached until the file changes)."""
    try:
        text = path.read_text(encoding="utf-8")
        data = strict_load(text) if text.strip() else {}
    except (OSError, UnicodeDecodeError) as err:
        raise SettingsInvalid(f"{path}: cannot read the settings: {err}") from None
    except (yaml.YAMLError, ValueError) as err:  # ValueError: an impossible date
        raise SettingsInvalid(f"{path}: not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise SettingsInvalid(f"{path}: settings are a mapping of keys to values")
    try:
        settings = Settings.model_validate(data)
    except ValidationError as err:
        problems = describe_errors(f"{path}: invalid settings", err, "settings")
        raise SettingsInvalid(problems) from None
    if settings.signing is not None:
        folder = path.parent
        signing = settings.signing.model_copy(
            update={
                "key": folder / settings.signing.key.expanduser(),
                "certificate": folder / settings.signing.certificate.expanduser(),
            }
        )
        settings = settings.model_copy(update={"signing": signing})
    return LocalSettings(path, path.stem.lower(), settings)


def overlay(data: dict[str, Any], local: LocalSettings) -> dict[str, Any]:
    """The pack ``data`` (one version, resolved) with ``local``'s values in place of the
    pack's, each keeping the citation of the value it replaces (or of its group, for a
    value the pack leaves out). A setting for a group the pack does not give is an error
    naming the settings file and key: there is nothing it could replace."""
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    s = local.settings

    def put(group: str, key: str, value: Any, setting: str) -> None:
        if value is None:
            return
        if not isinstance(data.get(group), dict):
            raise SettingsInvalid(
                f"{local.path}: {setting}: the {local.jurisdiction} pack gives no {group} "
                "for this setting to replace"
            )
        old = data[group].get(key)
        ref = old["ref"] if isinstance(old, dict) else data[group]["ref"]
        data[group] = {**data[group], key: {"value": value, "ref": ref}}

    for key in ("name", "street", "city", "phone", "hours"):
        put("offices", key, getattr(s.offices, key), f"offices.{key}")
    put("enforcement", "appeal_office", s.offices.appeal_office, "offices.appeal_office")
    if s.officers.signatory is not None:
        put("recording", "signatory", s.officers.signatory.title, "officers.signatory")
        put("recording", "signatory_name", s.officers.signatory.name, "officers.signatory")
    if s.resolutions.instruments is not None:
        put(
            "recording",
            "authorization",
            s.resolutions.instruments.model_dump(),
            "resolutions.instruments",
        )
    return data


def address_problem(local: LocalSettings) -> str | None:
    """What is wrong with ``local``'s public check address (None: a public address)."""
    verification = local.settings.verification
    if verification is None:
        return (
            f"{local.path}: verification.address is not set: documents issued for "
            f"{local.jurisdiction} would tell the public to check them on this machine only"
        )
    if is_loopback(verification.address):
        return (
            f"{local.path}: verification.address is {verification.address}, which only this "
            "machine can reach; set the desk's public address (https://...)"
        )
    return None


def public_address_problems(jurisdictions: list[str]) -> list[str]:
    """Why a desk reached from other machines would print an address nobody can visit.
    Every issued document tells the public to check it at the settings'
    ``verification.address``: each municipality with a settings file must give one that
    is not loopback, and at least one must. (A municipality without settings cannot issue
    from such a desk: :func:`docgen.register.matter.checks.prepare` refuses.) Empty when fine."""
    found = [local for j in jurisdictions if (local := load_settings(j)) is not None]
    problems = [said for local in found if (said := address_problem(local)) is not None]
    if not found:
        problems.append(
            f"no settings file in {settings_folder()} gives verification.address, the public "
            "check's address printed on every issued document"
        )
    return problems
