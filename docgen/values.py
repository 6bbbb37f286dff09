"""Values both a case and a municipality's settings hold, checked the same way."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator


def _phone(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError("a telephone number is text, e.g. (607) 555-0142")
    if re.search(r"[^\d \t().+\-/]", value):  # \s would let \r, \v, \x85... through
        raise ValueError(f"{value!r} is not a telephone number (digits and ( ) - . + only)")
    digits = re.sub(r"\D", "", value)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10 or digits[0] in "01" or digits[3] in "01":
        raise ValueError(f"{value!r} is not a ten-digit US telephone number")
    return digits


Phone = Annotated[str, BeforeValidator(_phone)]
