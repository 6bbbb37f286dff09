"""Look-alike names measured (not a test): on a realistic list of distinct names, how many
pairs of two different names the loose keys ask about (false positives), before and after
EXTRA_LOOK_ALIKES and the two readings of Cyrillic "т"; and how many names written wholly
in Cyrillic look-alikes are asked about (found).

    .venv/bin/python -m benchmarks.name_lookalikes [--per-locale 3000] [--seed 37]

The names are Faker's first and last names (seeded) of Latin (US, Spain, Germany, France,
Poland, Vietnam), Cyrillic (Russia, Ukraine, Bulgaria), Greek, Arabic, Chinese, Japanese
and Korean locales, and each Cyrillic and Greek name romanized as well; one name per
name key. "Before" is the loose key of UTS #39 alone (docgen before this change);
"after" looks a name up by all its loose_keys. A pair asked about is two different name
keys whose loose readings meet; one whose names differ only in accents, marks or word
order is the loose key's purpose and is counted apart.
"""

from __future__ import annotations

import argparse
import unicodedata
from collections import defaultdict

from docgen.register.people.matching import look_alikes, loose_key, loose_keys, name_key

LOCALES = {
    "Latin": ["en_US", "es_ES", "de_DE", "fr_FR", "pl_PL", "vi_VN"],
    "Cyrillic": ["ru_RU", "uk_UA", "bg_BG"],
    "Greek": ["el_GR"],
    "Arabic": ["ar_AA"],
    "Chinese": ["zh_CN"],
    "Japanese": ["ja_JP"],
    "Korean": ["ko_KR"],
}
# Latin small letters and the Cyrillic letter a spoofer writes for each (UTS #39 and
# EXTRA_LOOK_ALIKES): a name all of whose letters are here can be written wholly in Cyrillic.
CYRILLIC_FOR = dict(zip("aceopxysijhdnmtkbwr", "асеорхуѕіјһԁптткьшг", strict=True))
# Romanized (ICAO Doc 9303 for Cyrillic, ELOT 743 for Greek, simplified): "Иван Петров" is
# also "Ivan Petrov", another way of writing the name, never a look-alike of it.
ROMAN_CYRILLIC = (
    "a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch ie y _ e iu ia i i ie g"
)
ROMAN_GREEK = "a v g d e z i th i k l m n x o p r s s t y f ch ps o"
ROMAN = {
    letter: roman.strip("_")
    for letters, romans in (
        ("абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ", ROMAN_CYRILLIC),
        ("αβγδεζηθικλμνξοπρσςτυφχψω", ROMAN_GREEK),
    )
    for letter, roman in zip(letters, romans.split(), strict=True)
}


def uts39_loose_key(name: str) -> str:
    """The loose key before this change: UTS #39's confusables alone, one reading."""
    plain = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    plain = "".join(c for c in plain.translate(look_alikes()) if not unicodedata.combining(c))
    return " ".join(sorted(name_key(plain).split()))


def distinct_names(per_locale: int, seed: int) -> dict[str, str]:
    """name -> its script; one name per name key."""
    from faker import Faker

    names: dict[str, str] = {}
    keys: set[str] = set()
    for script, locales in LOCALES.items():
        for locale in locales:
            fake = Faker(locale)
            fake.seed_instance(seed)
            for _ in range(per_locale // len(locales)):
                name = f"{fake.first_name()} {fake.last_name()}"
                written_as = [(name, script)]
                if script in ("Cyrillic", "Greek"):
                    written_as.append((romanized(name), f"{script} romanized"))
                for written, how in written_as:
                    if name_key(written) not in keys:
                        keys.add(name_key(written))
                        names[written] = how
    return names


def romanized(name: str) -> str:
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(
        "".join(ROMAN.get(c, c) for c in word.lower()).capitalize() for word in plain.split()
    )


def unaccented(name: str) -> str:
    """The name's words without marks, case or order: what the loose key is for."""
    plain = unicodedata.normalize("NFKD", name.casefold())
    return " ".join(sorted("".join(c for c in plain if not unicodedata.combining(c)).split()))


def asked_pairs(names: list[str], stored, readings) -> set[tuple[str, str]]:
    """Pairs of different name keys one of which is found by the other's loose readings."""
    kept: dict[str, list[str]] = defaultdict(list)
    for name in names:
        kept[stored(name)].append(name)
    pairs = set()
    for name in names:
        for reading in readings(name):
            for other in kept.get(reading, ()):
                if name_key(other) != name_key(name):
                    pairs.add(tuple(sorted((name, other))))
    return pairs


def report(label: str, pairs: set, names: dict[str, str]) -> None:
    total = len(names) * (len(names) - 1) // 2
    purpose = {p for p in pairs if unaccented(p[0]) == unaccented(p[1])}
    false = pairs - purpose
    across = sorted(p for p in false if names[p[0]] != names[p[1]])
    within = sorted(p for p in false if names[p[0]] == names[p[1]])
    print(
        f"{label}: {len(pairs)} pairs asked about of {total:,} "
        f"({len(purpose)} differ only in accents, marks or order); "
        f"others {len(false)} = {len(false) / total * 1e6:.2f} per million pairs "
        f"({len(across)} across scripts, {len(within)} within one)"
    )
    for a, b in (across + within)[:12]:
        print(f"    {a} ({names[a]})  ~  {b} ({names[b]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-locale", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    names = distinct_names(args.per_locale, args.seed)
    counts = defaultdict(int)
    for script in names.values():
        counts[script] += 1
    print(f"{len(names):,} distinct names: " + ", ".join(f"{s} {n}" for s, n in counts.items()))
    listed = list(names)
    report(
        "before (UTS #39 alone)",
        asked_pairs(listed, uts39_loose_key, lambda n: {uts39_loose_key(n)}),
        names,
    )
    report(
        "after (with EXTRA_LOOK_ALIKES, т read two ways)",
        asked_pairs(listed, loose_key, loose_keys),
        names,
    )
    # Names written wholly in Cyrillic look-alikes, each against its Latin original.
    latin = [n for n, s in names.items() if s == "Latin"]
    spoofable = [n for n in latin if all(c in CYRILLIC_FOR or c == " " for c in n.lower())]
    spoofs = {n: "".join(CYRILLIC_FOR.get(c, c) for c in n.lower()) for n in spoofable}
    before = sum(uts39_loose_key(s) == uts39_loose_key(n) for n, s in spoofs.items())
    after = sum(loose_key(n) in loose_keys(s) for n, s in spoofs.items())
    both = sum(loose_key(s) in loose_keys(n) for n, s in spoofs.items())
    print(
        f"{len(spoofs)} Latin names written wholly in Cyrillic look-alikes: asked about "
        f"before {before}, after {after} (and {both} with the Cyrillic one on record)"
    )


if __name__ == "__main__":
    main()
