"""Numbers as written in text, and one canonical text for a number (pure).

A number is written in digits, optionally with thousands separators and a decimal part
(``2,000``, ``2000``, ``27.5``, ``1,000.50``), or as a number word (``two`` ... ``twenty``,
``thirty`` ... ``ninety``, and ``zero`` and ``one``). ``number_text`` writes a value without
separators, exponent or trailing zeros, so equal values read the same however they were written:
``2,000`` and ``2000.00`` are both ``2000``, ``2.50`` is ``2.5``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

# Digits with thousands separators (three digits after each comma, the last group not running
# on into more digits), or plain digits; either with a decimal part. No capturing groups.
NUMBER_PATTERN = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?)"

_UNITS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)
_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

NUMBER_WORDS: Mapping[str, int] = {word: value for value, word in enumerate(_UNITS)} | _TENS
"""Lower-case number words and their values."""

SCALE_WORDS: Mapping[str, int] = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
"""Words that multiply the number before them (``10 million``)."""


def parse_number(written: str) -> Decimal:
    """The value of a number written in digits (separators allowed) or as a number word.

    Raises ``ValueError`` when ``written`` is neither.
    """
    word = NUMBER_WORDS.get(written.strip().lower())
    if word is not None:
        return Decimal(word)
    digits = written.strip().replace(",", "")
    if not digits or not all(c.isdigit() or c == "." for c in digits):
        raise ValueError(f"{written!r} is not a number")
    try:
        return Decimal(digits)
    except InvalidOperation as error:
        raise ValueError(f"{written!r} is not a number") from error


def number_text(value: Decimal) -> str:
    """``value`` in plain digits: no separators, no exponent, no trailing zeros (``2.50`` -> ``2.5``)."""
    return format(value.normalize(), "f")
