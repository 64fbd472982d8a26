"""The probe's fixed source set and questions (test data in the shape of ITAA 1997 s 328-110).

Three spans keyed ``S1`` to ``S3``; ``S3`` answers the round-trip question. The key questions ask
for exactly one key by name: ``S2`` is offered, ``S7`` never is, so a provider that enforces the
schema's ``enum`` returns ``S2`` for the first and cannot return ``S7`` for the second.
"""

from __future__ import annotations

from collections.abc import Sequence

from asat_research.generation.port import NumberedSpan

LABEL = "ITAA 1997 s 328-110 [provider probe: fixed test text, not a live source]"
SOURCE_ID = "provider-probe:328-110"

SPANS: tuple[NumberedSpan, ...] = (
    NumberedSpan(
        "S1",
        f"{SOURCE_ID}#s1",
        SOURCE_ID,
        LABEL,
        "(1) You are a small business entity for an income year (the current year) if: "
        "(a) you carry on a business in the current year; and",
    ),
    NumberedSpan(
        "S2",
        f"{SOURCE_ID}#s2",
        SOURCE_ID,
        LABEL,
        "(4) You carry on a business in the current year if you are winding up a business you previously carried on.",
    ),
    NumberedSpan(
        "S3",
        f"{SOURCE_ID}#s3",
        SOURCE_ID,
        LABEL,
        "(b) your aggregated turnover for the previous income year was less than $2 million.",
    ),
)
ROUND_TRIP_QUESTION = "What aggregated turnover threshold made a business a small business entity in 2014-15?"
OFFERED_KEY = "S2"
UNOFFERED_KEY = "S7"


def key_question(key: str) -> str:
    """A question whose only right answer is the one span key it names."""
    return f"This question tests span keys only. Return exactly one span key: {key}."


def offered_keys() -> tuple[str, ...]:
    return tuple(span.key for span in SPANS)


def spans_for(keys: Sequence[str]) -> tuple[NumberedSpan, ...]:
    """The spans with these keys, in source order (as the pipeline offers pass 2)."""
    wanted = set(keys)
    return tuple(span for span in SPANS if span.key in wanted)
