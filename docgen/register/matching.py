"""Who a case is about: names and addresses reduced to keys, and the near misses.

Pure functions. A name key ignores case, punctuation, spacing and the spelling of a
firm's form ("L.L.C." is "LLC", "Incorporated" is "Inc"); an address key does the same
for street words ("Street" is "St"). Two respondents are the same only when a key of
the name (or an alias) and of the address agree; a name that is close but not equal,
or equal at another address, is a *near* match the clerk must resolve by id: similar
names are never merged silently.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

FIRM_FORMS = {
    "llc": "llc",
    "l l c": "llc",
    "limited liability company": "llc",
    "inc": "inc",
    "incorporated": "inc",
    "corp": "corp",
    "corporation": "corp",
    "co": "co",
    "company": "co",
    "lp": "lp",
    "l p": "lp",
    "limited partnership": "lp",
    "llp": "llp",
    "l l p": "llp",
    "pllc": "pllc",
    "p l l c": "pllc",
    "ltd": "ltd",
    "limited": "ltd",
}
FIRM_WORDS = {"llc", "inc", "corp", "co", "lp", "llp", "pllc", "ltd", "partners", "sons"}
STREET_WORDS = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "route": "rte",
    "drive": "dr",
    "lane": "ln",
    "boulevard": "blvd",
    "place": "pl",
    "court": "ct",
    "highway": "hwy",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "suite": "ste",
}
NEAR = 0.86  # SequenceMatcher ratio from which two name keys are "near"


def _words(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    folded = folded.replace("&", " and ")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())


def name_key(name: str) -> str:
    """``"Tioughnioga Ridge Development, L.L.C."`` -> ``"tioughnioga ridge development llc"``."""
    words = _words(name.replace(".", " ."))
    # "l l c" and friends (initials split by the dots) become one word first.
    for spelled, short in sorted(FIRM_FORMS.items(), key=lambda kv: -len(kv[0])):
        words = re.sub(rf"(?<![a-z0-9]){spelled}(?![a-z0-9])", short, words)
    return " ".join(words.split())


def address_key(street: str, city: str, state: str, zip: str) -> str:
    street_words = [STREET_WORDS.get(w, w) for w in _words(street).split()]
    return " ".join([*street_words, "|", _words(city), "|", _words(state), zip[:5]])


def looks_like_firm(name: str) -> bool:
    return bool(FIRM_WORDS & set(name_key(name).split()))


def similarity(a: str, b: str) -> float:
    """How alike two name keys are, 0..1, ignoring the firm's form ("LLC" vs "Inc")."""
    core_a = " ".join(w for w in a.split() if w not in FIRM_WORDS) or a
    core_b = " ".join(w for w in b.split() if w not in FIRM_WORDS) or b
    return SequenceMatcher(None, core_a, core_b).ratio()


def abbreviates(a: str, b: str) -> bool:
    """Word for word the same but for shortened words: "ridge dev" and "ridge development"."""
    words_a, words_b = a.split(), b.split()
    return len(words_a) == len(words_b) and all(
        x.startswith(y) or y.startswith(x) for x, y in zip(words_a, words_b, strict=True)
    )


def is_near(a: str, b: str) -> bool:
    if a == b or abbreviates(a, b):
        return True
    matcher = SequenceMatcher(None, a, b)
    if matcher.real_quick_ratio() < NEAR - 0.15:
        return False
    return similarity(a, b) >= NEAR
