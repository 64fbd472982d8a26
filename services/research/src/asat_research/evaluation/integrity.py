"""Referential integrity: do a case's gold authorities resolve in the served corpus? (pure)

Counted for ``expect: answer|reject_premise`` cases only: an authority resolves when the corpus
holds a text in force for the case's date (a ruling: reachable then) and, where the gold pins a
``register_id``, that text comes from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from asat_research.gold import AuthorityResolver, CaseDate, Expect, GoldCase, ProvisionRef


@dataclass(frozen=True)
class GoldIntegrity:
    total: int  # gold authorities counted (0 for an abstain case)
    resolved: int
    problems: tuple[str, ...] = ()  # one per authority that does not resolve


def gold_integrity(case: GoldCase, resolver: AuthorityResolver) -> GoldIntegrity:
    if case.expect is Expect.ABSTAIN:
        return GoldIntegrity(0, 0)
    when = CaseDate.of(case)
    problems: list[str] = []
    for authority in case.gold:
        found = resolver.lookup(authority, when)
        if not found.in_force:
            problems.append(f"{authority.label()} does not resolve {when}: {found.message}")
        elif (
            isinstance(authority, ProvisionRef)
            and authority.register_id is not None
            and authority.register_id not in found.register_ids
        ):
            held = ", ".join(found.register_ids) or "no compilation"
            problems.append(f"{authority.label()}: the text in force {when} is from {held}")
    return GoldIntegrity(len(case.gold), len(case.gold) - len(problems), tuple(problems))
