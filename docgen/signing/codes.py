"""The verification line of an issued document: the public check's address, the number,
an access code, and a QR code of the address with the code.

An access code is 12 characters drawn at random (``secrets``) from 31 upper-case letters
and digits with no look-alikes (no 0/O, 1/I/L), printed in three groups of four:
``7K3M-Q9PX-2D4H``, about 59 bits. The register keeps only its Argon2id hash; a code typed
by a person may be in lower case, with spaces or without hyphens.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
GROUPS, GROUP = 3, 4
LENGTH = GROUPS * GROUP
NEVER = "0000-0000-0000"  # never a code (0 is not in the alphabet): a malformed one's stand-in
# Where an address has no public check of its own (settings: verification.address): the
# desk serving on this machine (`docgen serve` sets LOCAL_DESK to the address it listens
# on), else the desk's default address.
LOCAL_ADDRESS = "http://127.0.0.1:8000"
LOCAL_DESK = "DOCGEN_SERVE_LOCAL_ADDRESS"


def local_address() -> str:
    """The address of the desk on this machine: the one serving (its port), else the default."""
    return os.environ.get(LOCAL_DESK) or LOCAL_ADDRESS


def new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return grouped(raw)


def grouped(raw: str) -> str:
    return "-".join(raw[i : i + GROUP] for i in range(0, LENGTH, GROUP))


def normalized(typed: str) -> str | None:
    """``typed`` as the printed code, or None when it cannot be one."""
    raw = "".join(ch for ch in typed.upper() if ch not in " -\t")
    if len(raw) != LENGTH or any(ch not in ALPHABET for ch in raw):
        return None
    return grouped(raw)


@cache
def _hasher() -> Any:
    # argon2's C bindings: only hashing an access code needs them; every document kind
    # imports this module (documents.kind), so `docgen check` would load them too
    from argon2 import PasswordHasher

    # The code is random (59 bits) and checks are rate-limited: a light Argon2id suffices
    # to keep a copied database from giving the codes away.
    return PasswordHasher(time_cost=2, memory_cost=8 * 1024, parallelism=1)


def hash_code(code: str) -> str:
    hashed: str = _hasher().hash(code)
    return hashed


def code_matches(stored: str | None, typed: str | None) -> bool:
    """Whether ``typed`` is the code hashed as ``stored`` (False for anything missing)."""
    # argon2's C bindings: only checking an access code needs them (see _hasher)
    from argon2.exceptions import InvalidHashError, VerificationError

    code = normalized(typed or "")
    if not stored:
        return False
    try:  # a malformed code is checked all the same (as one that cannot match): what a
        # check costs never tells a malformed code, or an unknown number, from the rest
        return _hasher().verify(stored, code or NEVER) and code is not None
    except (VerificationError, InvalidHashError):
        return False


def check_address(base: str, number: str, code: str | None = None) -> str:
    address = f"{base.rstrip('/')}/v/{quote(number, safe='')}"
    return f"{address}?code={code}" if code else address


def qr_svg(address: str) -> str:
    """The QR code of ``address`` as inline SVG (a tagged figure, its title the address)."""
    # xml, ssl, segno take 17 ms to import: loaded on first use
    import segno

    qr = segno.make(address, error="m")
    return Markup(qr.svg_inline(scale=2, border=4, title="QR code: " + address))


@dataclass(frozen=True)
class IssueMark:
    """What an issued document prints about itself: where and how to check it, and who
    signed it (None: issued without a signing key, and the page says so)."""

    base: str  # the public check's web address
    number: str
    code: str
    signed_for: str  # the municipality
    signed_by: str | None  # the officer, "Dana R. Whitcomb, Code Enforcement Officer"
    signed: bool

    @property
    def address(self) -> str:
        return check_address(self.base, self.number)

    @property
    def qr(self) -> str:
        return qr_svg(check_address(self.base, self.number, self.code))
