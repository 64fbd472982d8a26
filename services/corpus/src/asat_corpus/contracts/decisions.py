"""The decisions a research outcome may carry that count as answers (shared by every service)."""

from __future__ import annotations

ANSWER = "answer"
# The law as it now stands is not held for the date asked, but a held compilation shows the text
# on the books then: answered from it, with a caveat naming the later Act and what is not held.
ANSWERED_AS_THEN_STOOD = "answered_as_then_stood"
ANSWERED_DECISIONS = frozenset({ANSWER, ANSWERED_AS_THEN_STOOD})


def is_answered(decision: str) -> bool:
    """Whether ``decision`` shows claims (an answer, plain or as the law then stood)."""
    return decision in ANSWERED_DECISIONS
