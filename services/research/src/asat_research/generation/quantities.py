"""Quantities stated in text (money, percentages, durations, member counts), normalised (pure).

Used by the extractive generator to notice when a question states a figure of the law that the
law in force does not contain, while it states a different one: a false premise it can show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SCALE = {
    "thousand": 1_000,
    "k": 1_000,
    "million": 1_000_000,
    "m": 1_000_000,
    "billion": 1_000_000_000,
    "bn": 1_000_000_000,
}
_MONEY = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(thousand|million|billion|bn|k|m)?\b", re.IGNORECASE)
_PERCENT = re.compile(r"\b(\d+(?:\.\d+)?)\s?(?:%|per\s?cent\b)", re.IGNORECASE)
_DURATION = re.compile(r"\b(\d+)\s?(days?|weeks?|months?|years?)\b", re.IGNORECASE)
_MEMBERS = re.compile(r"\b(\d+)\s+(members?)\b", re.IGNORECASE)
_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
}
_WORD_DURATION = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(days?|weeks?|months?|years?|members?)\b",
    re.IGNORECASE,
)

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
    value: float
    text: str


def _unit(word: str) -> tuple[str, float]:
    word = word.lower().rstrip("s")
    if word == "year":
        return "months", 12.0
    return (word + "s", 1.0) if word in ("month", "day", "week", "member") else (word, 1.0)


def quantities(text: str) -> list[Quantity]:
    found: list[Quantity] = []
    for match in _MONEY.finditer(text):
        value = float(match.group(1).replace(",", ""))
        scale = match.group(2)
        found.append(Quantity("money", value * _SCALE.get((scale or "").lower(), 1), match.group(0).strip()))
    for match in _PERCENT.finditer(text):
        found.append(Quantity("percent", float(match.group(1)), match.group(0)))
    for pattern in (_DURATION, _MEMBERS):
        for match in pattern.finditer(text):
            kind, factor = _unit(match.group(2))
            found.append(Quantity(kind, float(match.group(1)) * factor, match.group(0)))
    for match in _WORD_DURATION.finditer(text):
        kind, factor = _unit(match.group(2))
        found.append(Quantity(kind, _WORDS[match.group(1).lower()] * factor, match.group(0)))
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
        if same_kind and all(abs(h.value - quantity.value) > 1e-9 for h in same_kind):
            out.append(quantity)
    return out
