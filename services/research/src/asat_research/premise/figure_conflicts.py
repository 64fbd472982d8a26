"""A figure a premise states against the figure the law gives the same concept (pure).

Each figure the statements state of the law
(:func:`~asat_research.premise.stated_figures.stated_figures`) is compared only with the figures
of the provision texts of the same kind (money with money, months with months, a date with a
date) whose concept it shares (:func:`~asat_research.premise.figure_concepts.shared_concept`).
Where the law states the same value for that concept anywhere in the texts, the figure agrees;
where the law states the concept only with other values, the figure conflicts, and the conflict
names the law's figure whose concept it shares most closely (on a tie, one bounded as the
question's is: "up to 10 members" against "fewer than 5 members" rather than "a fund with only
one member"; then the first).

Whole counts bounded in other words are the same figure ("up to 4 members" is "fewer than 5
members": :func:`same_figure`), and a figure is not contradicted by a sentence of the law that
states it, whatever its words reach (a list: "40% for a feature film; otherwise 30%"). A figure
with nothing comparable in the law is neither: "$6 million turnover" is never compared with "12
months", nor "the spouse earns $13,800" with a turnover of $2 million.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from asat_research.generation.quantities import Quantity
from asat_research.premise.figure_concepts import (
    Bound,
    FigureInContext,
    concept_strength,
    figures_in_context,
    shared_concept,
)
from asat_research.premise.stated_figures import stated_figures


@dataclass(frozen=True)
class FigureComparison:
    """A figure the question states and the law's figure for the same concept."""

    stated: Quantity
    law: Quantity
    concept: str  # what both are stated for ("turnover", "holding period", "cgt asset")
    law_sentence: str  # the line of the provision text that states the law's figure, verbatim
    statement: str  # the asserted statement that states the question's figure
    passage: int  # which of the provision texts holds the law's figure


@dataclass(frozen=True)
class FigureConflict(FigureComparison):
    """The law gives the concept other figures, not the question's: a false premise it can show."""


@dataclass(frozen=True)
class FigureAgreement(FigureComparison):
    """The law gives the concept the question's figure."""


@dataclass(frozen=True)
class _Candidate:
    figure: FigureInContext
    concept: str
    strength: int
    passage: int


def same_figure(stated: FigureInContext, law: FigureInContext) -> bool:
    """The two state the same figure: equal values, or, for a count of members (whole numbers),
    "up to 4" against "fewer than 5"."""
    a, b = stated.quantity, law.quantity
    if a.kind != b.kind:
        return False
    if a.value == b.value:
        return True
    if a.kind == "members":
        if stated.bound is Bound.AT_MOST and law.bound is Bound.BELOW:
            return a.value + 1 == b.value
        if stated.bound is Bound.BELOW and law.bound is Bound.AT_MOST:
            return a.value == b.value + 1
    return False


def _figures(provision_texts: Sequence[str]) -> list[tuple[FigureInContext, ...]]:
    return [figures_in_context(text) for text in provision_texts]


def _comparisons(
    statements: Sequence[str], figures: Sequence[Sequence[FigureInContext]]
) -> Iterator[tuple[str, FigureInContext, list[_Candidate]]]:
    """Each figure the statements state of the law, with the law's figures of its kind and concept."""
    held = [(i, figure) for i, passage in enumerate(figures) for figure in passage]
    for statement in statements:
        for stated in stated_figures(statement):
            candidates = []
            for passage, law in held:
                if law.quantity.kind != stated.quantity.kind:
                    continue
                concept = shared_concept(stated, law)
                if concept is not None:
                    candidates.append(_Candidate(law, concept, concept_strength(stated, law), passage))
            if candidates:
                yield statement, stated, candidates


def _conflict(statement: str, stated: FigureInContext, candidate: _Candidate) -> FigureConflict:
    law = candidate.figure
    return FigureConflict(stated.quantity, law.quantity, candidate.concept, law.line, statement, candidate.passage)


def _agreement(statement: str, stated: FigureInContext, candidate: _Candidate) -> FigureAgreement:
    law = candidate.figure
    return FigureAgreement(stated.quantity, law.quantity, candidate.concept, law.line, statement, candidate.passage)


def figure_conflict(statements: Sequence[str], provision_texts: Sequence[str]) -> FigureConflict | None:
    """The first figure ``statements`` state of the law that the provision texts contradict: they
    give its concept only other figures of its kind. None when there is no such figure."""
    conflicts = figure_conflicts(statements, provision_texts)
    return conflicts[0] if conflicts else None


def figure_conflicts(statements: Sequence[str], provision_texts: Sequence[str]) -> tuple[FigureConflict, ...]:
    """For the first figure the texts contradict (see :func:`figure_conflict`), the law's figure in
    each text that gives its concept: the closest first (the one :func:`figure_conflict` names),
    then the others in the texts' order. Empty when no figure is contradicted."""
    figures = _figures(provision_texts)
    for statement, stated, candidates in _comparisons(statements, figures):
        if any(same_figure(stated, c.figure) for c in candidates):
            continue
        if any(same_figure(stated, f) for c in candidates for f in _sentence_of(c, figures)):
            continue  # a list the concept words did not reach: "40% for a feature film, 30% otherwise"
        if not _states_the_rule(statement, stated, candidates):
            continue  # "the company has turnover of $12 million": a value to test against the law's bound
        # the closest concept, then a figure bounded as the question's is ("fewer than 5" for "up
        # to 10", not "only one"); max keeps the first of equals
        unbounded = stated.bound is Bound.NONE
        closeness = {id(c): (c.strength, (c.figure.bound is Bound.NONE) == unbounded) for c in candidates}
        best = max(candidates, key=lambda c: closeness[id(c)])
        per_text: dict[int, _Candidate] = {}
        for candidate in candidates:
            held = per_text.get(candidate.passage)
            if held is None or closeness[id(candidate)] > closeness[id(held)]:
                per_text[candidate.passage] = candidate
        others = [c for passage, c in sorted(per_text.items()) if passage != best.passage]
        return tuple(_conflict(statement, stated, c) for c in [best, *others])
    return ()


# Words that make a stated figure a statement of the rule itself ("the threshold was $10 million",
# "cuts out once the spouse earns $13,800"), not a value of the client's case.
_RULE_CUE = re.compile(
    r"\b(?:thresholds?|caps?|capped|limits?|ceiling|cut[- ]?off|cuts? out|maximum|minimum|once|until|"
    r"up to|at least|at most|more than|less than|fewer than|no more than|exceeds?)\b",
    re.IGNORECASE,
)


def _states_the_rule(statement: str, stated: FigureInContext, candidates: Sequence[_Candidate]) -> bool:
    """Whether the stated figure can contradict the law's. Where the law bounds the concept ("less
    than $50 million") and the question states a plain value of it ("the company has turnover of
    $12 million"), the value is one to test against the bound, not a rival bound: only words that
    state a rule (threshold, limit, once ...) make it one. A plain value against the law's plain
    value (a rate, a period) is always comparable."""
    if stated.bound is not Bound.NONE or all(c.figure.bound is Bound.NONE for c in candidates):
        return True
    return bool(_RULE_CUE.search(statement))


def _sentence_of(candidate: _Candidate, figures: Sequence[Sequence[FigureInContext]]) -> list[FigureInContext]:
    """The figures of the law's sentence that holds ``candidate``."""
    return [f for f in figures[candidate.passage] if f.sentence_start == candidate.figure.sentence_start]


def figure_agreements(statements: Sequence[str], provision_texts: Sequence[str]) -> tuple[FigureAgreement, ...]:
    """The figures ``statements`` state of the law that the provision texts state for the same
    concept, each with the law's figure whose concept it shares most closely."""
    agreed = []
    for statement, stated, candidates in _comparisons(statements, _figures(provision_texts)):
        same = [c for c in candidates if same_figure(stated, c.figure)]
        if same:
            agreed.append(_agreement(statement, stated, max(same, key=lambda c: c.strength)))
    return tuple(agreed)


def states_a_comparable_figure(statements: Sequence[str], provision_text: str) -> bool:
    """``provision_text`` states a figure of the kind and concept of one the statements state."""
    return any(True for _ in _comparisons(statements, _figures((provision_text,))))
