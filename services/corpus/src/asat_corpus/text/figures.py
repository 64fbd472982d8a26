"""Figures in running text, read as exact values: money, percentages, durations, counts, numbers (pure).

``read_figures(text)`` finds every figure of ``text``, left to right and without overlap:

- **money**, in dollars: ``$2.5b``, ``$2.5 billion``, ``$2,500,000,000``, ``A$10m``, ``AUD 300``,
  ``$ 300``, ``10 million dollars``, ``ten dollars``. After a dollar sign the scales are
  ``thousand``/``k``, ``million``/``m`` and ``billion``/``bn``/``b`` (so ``$2.5b`` is
  2,500,000,000); a scale letter must end the word (``$300 may`` is 300 dollars);
- **percentages**, in percentage points: ``8.5%``, ``8.5 per cent``, ``8.5 percent``, ``five per cent``,
  and a whole number with a vulgar fraction (½, ⅓, ⅔, ¼, ¾) as the compilations' text conversion
  writes it, the fraction's digits run on into the number's: ``371/2%`` is 37½ percentage points,
  ``331/3%`` is 33⅓ and ``11/2 %`` is 1½ (``37 1/2%`` reads the same). Only a proper fraction
  before a percent sign or "per cent" is read so; a third is exact to 28 significant digits;
- **durations**, in the unit written (``day``, ``week``, ``month``, ``year``): ``12 months``,
  ``two years``;
- **counts** of members: ``5 members``;
- other **numbers**: ``2,000``, ``27.5``, ``10 million`` (10,000,000: after a bare number only
  the words ``thousand``, ``million``, ``billion`` scale it, since ``10 m`` may be metres) and
  the number words ``two`` to ``twenty`` and ``thirty`` to ``ninety``. ``one`` and ``zero`` are
  read only before a unit (``one year``): alone, "one" is too often a pronoun.

A range is two figures: ``$18,201 – $45,000`` is 18,201 dollars and 45,000 dollars. Case does
not matter. Amounts are exact :class:`~decimal.Decimal` values; spans are offsets into ``text``
as given (a caller that normalises text reads the normalised text). Never raises.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from asat_corpus.text.numbers import NUMBER_PATTERN, NUMBER_WORDS, SCALE_WORDS, parse_number


class FigureKind(StrEnum):
    MONEY = "money"  # amount in dollars
    PERCENT = "percent"  # amount in percentage points
    DURATION = "duration"  # amount in ``unit``s: day, week, month or year
    COUNT = "count"  # amount of ``unit``s: member
    NUMBER = "number"  # a bare number


@dataclass(frozen=True)
class Figure:
    """One figure: its value (``amount`` in ``unit``s) and where and how the text wrote it.

    ``unit`` is ``dollar``, ``percent``, ``day``, ``week``, ``month``, ``year``, ``member``, or
    ``""`` for a bare number; ``written`` is ``text[start:end]``; ``numeral`` is the number as
    written within it (``2,000``, ``twelve``).
    """

    kind: FigureKind
    amount: Decimal
    unit: str
    start: int
    end: int
    written: str
    numeral: str

    @property
    def span(self) -> tuple[int, int]:
        return self.start, self.end


_SIGN_SCALES: Mapping[str, int] = {"k": 1_000, "m": 1_000_000, "b": 1_000_000_000, "bn": 1_000_000_000, **SCALE_WORDS}
_ANY_WORD = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_LONE_WORD = "|".join(sorted((w for w, v in NUMBER_WORDS.items() if v >= 2), key=len, reverse=True))
_SCALE_WORD = "|".join(SCALE_WORDS)
_SIGN_SCALE = "|".join(sorted(_SIGN_SCALES, key=len, reverse=True))
_BEFORE = r"(?<![\w.])"  # a figure's number does not continue a word or a number
_AMOUNT = rf"(?:{NUMBER_PATTERN}|(?:{_ANY_WORD})\b)"  # digits, or any number word (before a unit)
# A vulgar fraction after a whole number of percentage points, as converted text writes 37½%: "371/2%".
_FRACTIONS: Mapping[str, Decimal] = {
    "1/2": Decimal(1) / 2,
    "1/3": Decimal(1) / 3,
    "2/3": Decimal(2) / 3,
    "1/4": Decimal(1) / 4,
    "3/4": Decimal(3) / 4,
}
_FRACTION = "|".join(_FRACTIONS)

_FIGURE = re.compile(
    rf"(?P<sign>(?:\bA\$|\bAUD\s?|\$)\s?(?P<sign_n>{NUMBER_PATTERN})"
    rf"(?:\s?(?P<sign_scale>{_SIGN_SCALE})(?![a-z0-9]))?)"
    rf"|(?P<dollars>{_BEFORE}(?P<dollars_n>{_AMOUNT})(?:\s?(?P<dollars_scale>{_SCALE_WORD}))?\s?(?:dollars?|AUD)\b)"
    rf"|(?P<percent>{_BEFORE}(?P<percent_n>{_AMOUNT})(?:\s?(?P<percent_frac>{_FRACTION}))?\s?(?:%|per\s?cent\b))"
    rf"|(?P<unit>{_BEFORE}(?P<unit_n>{_AMOUNT})\s?(?P<unit_word>(?:day|week|month|year|member)s?)\b)"
    rf"|(?P<number>{_BEFORE}(?:(?P<number_n>{NUMBER_PATTERN})(?!\w)|(?P<number_w>{_LONE_WORD})\b)"
    rf"(?:\s(?P<number_scale>{_SCALE_WORD})\b)?)",
    re.IGNORECASE,
)


def _scaled(numeral: str, scale: str | None, scales: Mapping[str, int]) -> Decimal:
    value = parse_number(numeral)
    return value * scales[scale.lower()] if scale else value


def _figure(match: re.Match[str]) -> Figure:
    group = match.lastgroup
    start, end, written = match.start(), match.end(), match.group(0)
    if group == "sign":
        numeral = match["sign_n"]
        amount = _scaled(numeral, match["sign_scale"], _SIGN_SCALES)
        return Figure(FigureKind.MONEY, amount, "dollar", start, end, written, numeral)
    if group == "dollars":
        numeral = match["dollars_n"]
        amount = _scaled(numeral, match["dollars_scale"], SCALE_WORDS)
        return Figure(FigureKind.MONEY, amount, "dollar", start, end, written, numeral)
    if group == "percent":
        numeral, fraction = match["percent_n"], match["percent_frac"]
        amount = parse_number(numeral)
        if fraction is not None:
            amount += _FRACTIONS[fraction]
            numeral = _text_between(match, "percent_n", "percent_frac")
        return Figure(FigureKind.PERCENT, amount, "percent", start, end, written, numeral)
    if group == "unit":
        numeral = match["unit_n"]
        unit = match["unit_word"].lower().removesuffix("s")
        kind = FigureKind.COUNT if unit == "member" else FigureKind.DURATION
        return Figure(kind, parse_number(numeral), unit, start, end, written, numeral)
    numeral = match["number_n"] or match["number_w"]
    amount = _scaled(numeral, match["number_scale"], SCALE_WORDS)
    return Figure(FigureKind.NUMBER, amount, "", start, end, written, numeral)


def _text_between(match: re.Match[str], first: str, last: str) -> str:
    """The matched text from group ``first``'s start to group ``last``'s end ("371/2")."""
    return match.string[match.start(first) : match.end(last)]


def read_figures(text: str) -> tuple[Figure, ...]:
    """Every figure of ``text`` in order of appearance (see the module docstring)."""
    return tuple(_figure(match) for match in _FIGURE.finditer(text))
