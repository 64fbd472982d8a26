"""Numbering the verified quotes of an outcome for the chat page's sources rail (pure).

Numbers continue from ``first`` so that a conversation's rail keeps growing; a quote cited by
several claims keeps one number.
"""

from __future__ import annotations

from dataclasses import dataclass

from asat_web.outcome import CitationView, OutcomeView


@dataclass(frozen=True)
class RailEntry:
    number: int
    citation: CitationView


@dataclass(frozen=True)
class NumberedOutcome:
    first: int
    entries: tuple[RailEntry, ...]
    claim_numbers: tuple[tuple[int, ...], ...]  # per claim, the numbers of its quotes

    @property
    def next_number(self) -> int:
        return self.first + len(self.entries)


def number_sources(outcome: OutcomeView, first: int = 1) -> NumberedOutcome:
    if first < 1:
        raise ValueError(f"source numbers start at 1 or later, got {first}")
    numbers: dict[tuple[str, int, int], int] = {}
    entries: list[RailEntry] = []

    def number(citation: CitationView) -> int:
        key = (citation.source_id, citation.start, citation.end)
        if key not in numbers:
            numbers[key] = first + len(entries)
            entries.append(RailEntry(numbers[key], citation))
        return numbers[key]

    claim_numbers = tuple(tuple(number(c) for c in claim.citations) for claim in outcome.claims)
    for item in outcome.reading_list:
        for quote in item.quotes:
            number(quote)
    return NumberedOutcome(first, tuple(entries), claim_numbers)
