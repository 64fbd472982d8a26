"""The gate's decisions, and which of them count as answers (shared by every service).

:class:`Decision` is the ``decision`` of every research outcome on the wire; the research gate
(``asat_research.gate``) decides one, the web and the evaluation read it.
"""

from __future__ import annotations

from enum import StrEnum

ANSWER = "answer"
# The law as it now stands is not held for the date asked, but a held compilation shows the text
# on the books then: answered from it, with a caveat naming the later Act and what is not held.
ANSWERED_AS_THEN_STOOD = "answered_as_then_stood"
ANSWERED_DECISIONS = frozenset({ANSWER, ANSWERED_AS_THEN_STOOD})


class Decision(StrEnum):
    """What the gate decided: an answer (plain or as the law then stood) or why it abstained."""

    ANSWER = ANSWER
    ANSWERED_AS_THEN_STOOD = ANSWERED_AS_THEN_STOOD
    ABSTAIN_OUT_OF_SCOPE = "abstain_out_of_scope"
    ABSTAIN_TEMPORAL_VIOLATION = "abstain_temporal_violation"
    ABSTAIN_TEXT_NOT_HELD = "abstain_text_not_held"
    ABSTAIN_NOT_YET_ENACTED = "abstain_not_yet_enacted"
    ABSTAIN_NOTHING_RETRIEVED = "abstain_nothing_retrieved"
    ABSTAIN_LOW_RELEVANCE = "abstain_low_relevance"
    ABSTAIN_NO_VERIFIED_CLAIM = "abstain_no_verified_claim"
    ABSTAIN_INSUFFICIENT_SOURCES = "abstain_insufficient_sources"
    ABSTAIN_VERSION_CONFLICT = "abstain_version_conflict"
    ABSTAIN_GENERATOR_DECLINED = "abstain_generator_declined"
    # The model did not answer before the request's deadline (ASAT_RESEARCH_DEADLINE_S): its call
    # was cancelled, and the question abstains with the reading list (audited like any other).
    ABSTAIN_DEADLINE = "abstain_deadline"
    # The question names one income year and the income_year/as_of parameter another: refused at
    # resolve, naming both, so that neither is chosen silently (the reply's period_conflict has both).
    PERIOD_CONFLICT = "period_conflict"


def is_answered(decision: str) -> bool:
    """Whether ``decision`` shows claims (an answer, plain or as the law then stood)."""
    return decision in ANSWERED_DECISIONS


def is_unanswered(decision: str) -> bool:
    """Whether ``decision`` is one of the gate's decisions that shows no claims: an abstention
    (``abstain_*``) or a question refused for its period (``period_conflict``). Not "error"."""
    return decision in _UNANSWERED


_UNANSWERED = frozenset(d.value for d in Decision) - ANSWERED_DECISIONS
