"""Text as people see it: which characters print nothing (shared by case values, which
count text of only invisible characters as missing, and passwords, whose length counts
visible characters)."""

from __future__ import annotations

import unicodedata

# Characters that print nothing, yet are not white space to str.strip(): format
# characters (zero-width space U+200B, word joiner U+2060, soft hyphen U+00AD, the tag
# characters U+E0000-E007F), variation selectors and combining grapheme joiner, and the
# blank letters (Hangul fillers U+115F, U+1160, U+3164, U+FFA0; braille blank U+2800).
BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"}


def prints_nothing(ch: str) -> bool:
    """Whether ``ch`` leaves no mark: white space, a format character, a variation
    selector, or one of the blank letters."""
    return (
        ch.isspace()
        or ch in BLANK_LETTERS
        or unicodedata.category(ch) == "Cf"
        or "\ufe00" <= ch <= "\ufe0f"
        or "\U000e0100" <= ch <= "\U000e01ef"
    )
