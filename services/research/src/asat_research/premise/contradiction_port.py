"""The contradiction model as the extractive generator sees it (a port).

:class:`~asat_research.premise.contradiction_model.ContradictionModel` (trained on statements
built from ATO Interpretative Decisions, calibrated, its rejection threshold set out of fold) is
the adapter; a unit test may give a fake. ``score`` says whether provision texts contradict a
statement at or above the model's threshold, with the passage and sentence that gives the most
evidence of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from asat_research.premise.contradiction_features import Quote


@dataclass(frozen=True)
class Verdict:
    probability: float  # calibrated probability that the text contradicts the statement
    rejected: bool  # probability >= the model's threshold
    quote: Quote | None  # the sentence that contradicts it (None when the text is empty)


class ContradictionScorer(Protocol):
    threshold: float  # the calibrated probability from which a statement is rejected

    def score(self, statement: str, provision_text: str | Sequence[str]) -> Verdict: ...
