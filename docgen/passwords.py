"""What a secret a person chooses must be: a desk user's password (docgen.desk.base.auth) and
a signing key's passphrase (`docgen keys create`, docgen.signing.keys), by one rule, as
NIST SP 800-63B (5.1.1.2) has it: at least 12 characters, counted as they show (a
character that prints nothing, or a combining mark drawn on the one before it, adds no
length), at most 256, not only white space, not a common password (the shipped list,
also with digits or symbols around it), nor one that repeats a few characters or holds
the user's name.
"""

from __future__ import annotations

import string
import unicodedata
from functools import cache
from pathlib import Path

from docgen.text import prints_nothing

MIN_LENGTH = 12
MAX_LENGTH = 256
COMMON = Path(__file__).parent / "desk" / "common_passwords.txt"


@cache
def _common() -> frozenset[str]:
    lines = COMMON.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def shown_length(secret: str) -> int:
    """The characters of ``secret`` a person sees: a space between words counts, a
    character that prints nothing (a zero-width joiner, a variation selector, white space
    at either end) or a combining mark does not."""
    inner = secret.strip()
    return sum(
        1
        for c in inner
        if (c == " " or not prints_nothing(c)) and unicodedata.category(c) not in ("Mn", "Me")
    )


def secret_problem(secret: str, name: str = "", what: str = "password") -> str | None:
    """What is wrong with ``secret`` (a ``what``: password, passphrase), or None."""
    visible = [c for c in secret if not prints_nothing(c)]
    if secret and not visible:
        return f"{what}: only spaces or characters that print nothing"
    if shown_length(secret) < MIN_LENGTH:
        return f"{what}: at least {MIN_LENGTH} characters (counted as they show)"
    if len(secret) > MAX_LENGTH:
        return f"{what}: at most {MAX_LENGTH} characters"
    if len(set(visible)) < 5:
        return f"{what}: repeats a few characters; choose a longer phrase"
    folded = "".join(visible).casefold()
    core = folded.strip(string.digits + string.punctuation)
    if folded in _common() or core in _common():
        return f"{what}: one of the most common passwords; choose another"
    if name and len(name) >= 3 and name.casefold() in folded:
        return f"{what}: contains the user name; choose another"
    return None
