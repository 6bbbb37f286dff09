"""Who a case is about: names and addresses reduced to keys, and the near misses.

Pure functions. Text is read as Unicode NFKC, case-folded, so every letter and digit of
every script is kept (李娜 and 王伟 are two names, "Пётр" is not "Иван") while a
full-width "Ｓｍｉｔｈ" is "smith"; punctuation and spacing are ignored (spaces inside a
name written without them, in Chinese, Japanese or Korean, too: "王 伟" is "王伟"), and so is the
spelling of a firm's form ("L.L.C." is "LLC", "Incorporated" is "Inc"). An address key
does the same for street words ("Street" is "St").

Two respondents are the same only when a key of the name (or an alias) and of the address
agree exactly. A name that is close but not equal is a *near* match the clerk must
resolve by id, never merged and never split silently:

- the same words in another order ("Smith, John", "SMITH JOHN" and "John Smith"),
- the same letters but for accents, marks or look-alike letters of another script
  (a Cyrillic "Ѕmіth" for "Smith", "Jose" for "José"; a name written wholly in look-alikes,
  "ЅСОТТ" for "SCOTT" or "Јоһп Ѕтітһ" for "John Smith", the same): the *loose key*
  compares them, letters mapped by Unicode's confusables (UTS #39) and the few letters
  that table pairs with other shapes (``EXTRA_LOOK_ALIKES``); a letter read two ways
  (Cyrillic "т": "t" or "m") is compared both ways (``loose_keys``). Transliteration is no
  look-alike: "Иван Петров" is not near "Ivan Petrov",
- a shortened word ("Ridge Dev" for "Ridge Development"), or a small misspelling.

A name with no letter or digit at all (``"!!!"``) has no key and matches nothing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from difflib import SequenceMatcher
from functools import cache, lru_cache
from importlib.resources import files
from itertools import product
from math import prod

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

CJK = "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# Han, kana and Hangul: names written without spaces ("王伟"), so a space typed inside
# one ("王 伟") is no word break
_CJK_SPACE = re.compile(rf"(?<=[{CJK}]) +(?=[{CJK}])")


# Letters that read as a Latin letter in print but that Unicode's confusables (UTS #39) pair
# with another shape: a small capital (т with "ᴛ", н with "ʜ", в with "ʙ"), a Greek or IPA
# letter (п with "π", к and κ with "ĸ", м with "ʍ"), so look_alikes() leaves them unread and a
# name written in them ("Јоһп Ѕтітһ") was a new respondent. These are the letters Chromium
# adds to UTS #39's skeletons for its look-alike domain check (components/url_formatter/
# spoof_checks/idn_spoof_checker.cc, ``extra_confusable_mapper_``: "[ĸκкқҝҟҡӄԟ] > k;
# [ŋпԥ] > n; [ŧтҭԏ] > t; [ƅьҍв] > b; [ωшщ] > w; [мӎ] > m; ґ > r; [χҳӽӿ] > x;
# [ħнћңҥӈӊԋԧԩ] > h"), the common letters of Cyrillic and Greek names among them (not
# Greek ω: its capital Ω reads as no Latin letter, so a name in capitals and in small
# letters would be read apart). Cyrillic "т" has two readings: upright the small capital
# T (Chromium's "t"), italic and in handwriting the Latin "m" (the "т" of "Ѕтітһ" stands
# for both its m and its t). Most of these make a name's small letters read as its
# capitals already did (К "K", к "k"; Т "T", т "t").
EXTRA_LOOK_ALIKES: dict[str, str] = {
    "п": "n",
    "к": "k",
    "κ": "k",
    "н": "h",
    "м": "m",
    "в": "b",
    "ь": "b",
    "ш": "w",
    "щ": "w",
    "χ": "x",
    "ґ": "r",
    "т": "tm",
}
# A letter read more than one way stays itself in the loose key; loose_keys() reads it
# each way, and reads each Latin letter it may stand for as it (m and t as т).
TWO_WAYS = {c: r for c, r in EXTRA_LOOK_ALIKES.items() if len(r) > 1}
_STANDS_FOR = {
    latin: "".join(c for c, r in TWO_WAYS.items() if latin in r)
    for latin in "".join(TWO_WAYS.values())
}
MAX_READINGS = 128  # a name with more readings than this is read only as written


@cache
def look_alikes() -> dict[int, str]:
    """Every letter of another script that Unicode's confusables (UTS #39, the data the
    confusable-homoglyphs package ships) pair with an ASCII letter or digit, directly or
    through one other look-alike: Cyrillic "Ѕ" -> "S", Greek "Ο" -> "O", Cherokee "Ꭺ" -> "A".
    Taken from the maintained data rather than a hand list, which knew 60 of them."""
    data = json.loads((files("confusable_homoglyphs") / "confusables.json").read_text("utf-8"))
    table: dict[int, str] = {}
    for char, pairs in data.items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        near = [p["c"] for p in pairs]
        latin = [c for c in near if len(c) == 1 and c.isascii() and c.isalnum()]
        further = [q["c"] for c in near for q in data.get(c, [])]
        latin += [c for c in further if len(c) == 1 and c.isascii() and c.isalnum()]
        if latin:  # a letter of the same case first (a capital Iota is "I", not "l")
            table[ord(char)] = min(latin, key=lambda c: (c.isupper() != char.isupper(), c))
    return table


@cache
def _loose_table() -> dict[int, str]:
    """look_alikes() with EXTRA_LOOK_ALIKES; a letter of two readings kept as itself."""
    extra = {ord(c): r for c, r in EXTRA_LOOK_ALIKES.items() if c not in TWO_WAYS}
    return {**look_alikes(), **extra}


def fold(text: str) -> str:
    """NFKC, case-folded (and NFKC again: folding can leave a compatibility form)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def words_of(text: str) -> str:
    """The letters, marks and digits of ``text`` (any script), folded; words one space
    apart, and none between two letters of a script written without spaces (CJK)."""
    folded = fold(text).replace("&", " and ")
    kept = "".join(ch if unicodedata.category(ch)[0] in "LMN" else " " for ch in folded)
    return _CJK_SPACE.sub("", " ".join(kept.split()))


# "l l c" and friends (initials split by the dots) become one word first: longest first.
_FIRM_PATTERNS = [
    (re.compile(rf"(?<!\w){spelled}(?!\w)"), short)
    for spelled, short in sorted(FIRM_FORMS.items(), key=lambda kv: -len(kv[0]))
]


def _firm_forms(words: str) -> str:
    for pattern, short in _FIRM_PATTERNS:
        words = pattern.sub(short, words)
    return " ".join(words.split())


# name_key and loose_key are pure and called for every name an import or an issue reads
# (each row's name several times): remembered for the names seen most recently.
@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """``"Tioughnioga Ridge Development, L.L.C."`` -> ``"tioughnioga ridge development llc"``;
    ``""`` for a name with no letter or digit (which matches nothing)."""
    return _firm_forms(words_of(name.replace(".", " .")))


def _loose_words(name: str) -> str:
    """The name's words without accents or marks, look-alike letters read as Latin."""
    plain = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    plain = "".join(c for c in plain.translate(_loose_table()) if not unicodedata.combining(c))
    return name_key(plain)


@lru_cache(maxsize=65536)
def loose_key(name: str) -> str:
    """The name's words without accents or marks, look-alike letters read as Latin, in
    sorted order: equal loose keys of different names are a near match, never the same.
    This is the key kept on record; a name is looked up by all its ``loose_keys``."""
    return " ".join(sorted(_loose_words(name).split()))


@lru_cache(maxsize=65536)
def loose_keys(name: str) -> frozenset[str]:
    """Every loose key ``name`` may be read as: its own, and with each letter of two
    readings (``TWO_WAYS``) read each way and each Latin letter such a letter may stand
    for read as it or as that letter ("Ѕтітһ" as "smith", "stith", "smimh" and "stimh";
    "Smith" also as "sтiтh", the key "Ѕтітһ" is kept under). Both
    directions, so a name of look-alikes is asked about whichever of the two came first.
    A letter stands only for its readings, never one Latin letter for another: "Stith"
    is not read as "Smith"."""
    words = _loose_words(name)
    ways = [tuple(TWO_WAYS[c]) if c in TWO_WAYS else (c, *_STANDS_FOR.get(c, "")) for c in words]
    if prod(len(w) for w in ways) > MAX_READINGS:
        return frozenset({loose_key(name)})
    read = {" ".join(sorted("".join(letters).split())) for letters in product(*ways)}
    return frozenset({loose_key(name), *read})


@lru_cache(maxsize=65536)
def address_key(street: str, city: str, state: str, zip: str) -> str:
    street_words = [STREET_WORDS.get(w, w) for w in words_of(street).split()]
    return " ".join([*street_words, "|", words_of(city), "|", words_of(state), zip[:5]])


def looks_like_firm(name: str) -> bool:
    return bool(FIRM_WORDS & set(name_key(name).split()))


def similarity(a: str, b: str, at_least: float = 0.0) -> float:
    """How alike two name keys are, 0..1, ignoring the firm's form ("LLC" vs "Inc"); with
    ``at_least``, a bound below it is returned without the full comparison (SequenceMatcher's
    quick ratios are upper bounds of its ratio)."""
    core_a = " ".join(w for w in a.split() if w not in FIRM_WORDS) or a
    core_b = " ".join(w for w in b.split() if w not in FIRM_WORDS) or b
    matcher = SequenceMatcher(None, core_a, core_b)
    for bound in (matcher.real_quick_ratio, matcher.quick_ratio):
        if (ratio := bound()) < at_least:
            return ratio
    return matcher.ratio()


def abbreviates(a: str, b: str) -> bool:
    """Word for word the same but for shortened words: "ridge dev" and "ridge development"."""
    words_a, words_b = a.split(), b.split()
    return len(words_a) == len(words_b) and all(
        x.startswith(y) or y.startswith(x) for x, y in zip(words_a, words_b, strict=True)
    )


@lru_cache(maxsize=65536)  # a pure function, asked again for every name at each desk check
def is_near(a: str, b: str) -> bool:
    """Two name keys that may name the same person or firm (equal keys included); keys
    with no words are near nothing. Loose keys are compared apart (see ``loose_key``)."""
    if not a or not b:
        return False
    if a == b or abbreviates(a, b) or sorted(a.split()) == sorted(b.split()):
        return True
    if 2 * min(len(a), len(b)) / (len(a) + len(b)) < NEAR - 0.15:  # real_quick_ratio
        return False  # lengths too far apart (and no matcher built: a desk check scans all)
    return similarity(a, b, NEAR) >= NEAR
