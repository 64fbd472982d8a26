"""Quantities stated in text (money, percentages, durations, member counts), normalised (pure).

The figures are the ones :func:`asat_corpus.text.figures.read_figures` reads (``$2.5b`` is
2,500,000,000 dollars; ``10 million dollars`` is money); durations are compared in months
(a year is twelve), days or weeks.

Used by the extractive generator to notice when a question states a figure of the law that the
law in force does not contain, while it states a different one: a false premise it can show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from asat_corpus.text.figures import FigureKind, read_figures

CONFIRMATION = re.compile(
    r"(?:,|—|-)\s*(?:right|correct|yes|true|isn't (?:it|she|he|that|there)|aren't (?:they|there|we)|"
    r"doesn't (?:it|she|he)|don't (?:they|i|we)|can't (?:they|it|she|he)|couldn't (?:it|they|she|he)|"
    r"wasn't (?:it|she|he)|weren't they|won't (?:it|they)|didn't (?:it|they|she|he)|hasn't (?:it|she|he)|"
    r"haven't they|is it|isn't that right|am i right)\s*\?\s*$",
    re.IGNORECASE,
)
PREMISE_OPENER = re.compile(r"^\s*(?:since|now that|given that|as)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Quantity:
    kind: str  # "money" | "percent" | "months" | "days" | "weeks" | "members"
    value: Decimal
    text: str


# Each figure kind and unit as the premise check compares it: a year is twelve months.
_KINDS: dict[tuple[FigureKind, str], tuple[str, int]] = {
    (FigureKind.MONEY, "dollar"): ("money", 1),
    (FigureKind.PERCENT, "percent"): ("percent", 1),
    (FigureKind.DURATION, "day"): ("days", 1),
    (FigureKind.DURATION, "week"): ("weeks", 1),
    (FigureKind.DURATION, "month"): ("months", 1),
    (FigureKind.DURATION, "year"): ("months", 12),
    (FigureKind.COUNT, "member"): ("members", 1),
}


def quantities(text: str) -> list[Quantity]:
    """The money, percentages, durations and member counts ``text`` states, in order."""
    found: list[Quantity] = []
    for figure in read_figures(text):
        reading = _KINDS.get((figure.kind, figure.unit))
        if reading is not None:
            kind, factor = reading
            found.append(Quantity(kind, figure.amount * factor, figure.written))
    return found


def asserts_premise(question: str) -> bool:
    """The question states something as fact and asks to have it confirmed or builds on it."""
    return bool(CONFIRMATION.search(question) or PREMISE_OPENER.search(question))


def contradicted(question: str, passages: list[str]) -> list[Quantity]:
    """Figures the question states that none of the passages contains, where the passages state
    other figures of the same kind (e.g. the question says 15%, the law says 10%)."""
    stated = quantities(question)
    held = [q for text in passages for q in quantities(text)]
    out = []
    for quantity in stated:
        same_kind = [h for h in held if h.kind == quantity.kind]
        if same_kind and all(h.value != quantity.value for h in same_kind):
            out.append(quantity)
    return out
