"""Numbering the cited provision versions of an outcome for the chat page's sources rail (pure).

One rail entry per provision version (``asat_web.evidence``), its verified quotes beneath in
document order; a claim refers to the numbers of the versions it quotes. Numbers continue from
``first`` so that a conversation's rail keeps growing; a version cited by several claims (or by
one claim several times) keeps one number.
"""

from __future__ import annotations

from dataclasses import dataclass

from asat_web.evidence import ProvisionEvidence, group_by_provision
from asat_web.outcome import OutcomeView


@dataclass(frozen=True)
class RailEntry:
    number: int
    provision: ProvisionEvidence


@dataclass(frozen=True)
class NumberedOutcome:
    first: int
    entries: tuple[RailEntry, ...]
    claim_numbers: tuple[tuple[int, ...], ...]  # per claim, the numbers of the versions it quotes

    @property
    def next_number(self) -> int:
        return self.first + len(self.entries)


def number_sources(outcome: OutcomeView, first: int = 1) -> NumberedOutcome:
    """The versions quoted by the claims, then by the reading list, numbered from ``first``."""
    if first < 1:
        raise ValueError(f"source numbers start at 1 or later, got {first}")
    cited = [c for claim in outcome.claims for c in claim.citations]
    cited += [q for item in outcome.reading_list for q in item.quotes]
    groups = group_by_provision(cited)
    numbers = {group.source_id: first + n for n, group in enumerate(groups)}
    claim_numbers = tuple(
        tuple(dict.fromkeys(numbers[c.source_id] for c in claim.citations)) for claim in outcome.claims
    )
    entries = tuple(RailEntry(numbers[g.source_id], g) for g in groups)
    return NumberedOutcome(first, entries, claim_numbers)
