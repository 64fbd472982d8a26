"""The Reranker contract: one suite that every reranker adapter runs.

An adapter's test class subclasses :class:`RerankerContract`, provides a ``reranker`` fixture
(class scope is fine: a reranker holds no state between calls) and states two facts about its
scale::

    class TestMyReranker(RerankerContract):
        bounds = (0.0, 1.0)  # or None for an unbounded scale (a logit)
        reads_input_order = False

        @pytest.fixture(scope="class")
        @classmethod
        def reranker(cls) -> Reranker:
            return MyReranker(...)

What every reranker does: ``scores(question, hits)`` returns one finite float per hit, in the
hits' order (the pipeline zips them), on the scale the adapter names in ``scale`` (the gate's
thresholds are set on it), within ``bounds`` where the scale is bounded; no hits, no scores (and
no model call); the same question and hits give the same scores; the hits are not changed; every
kind of hit the index returns (a provision's subsection, a ruling, a gap marker, a
not-yet-enacted marker, a hit with no heading or text) is scored. The order of the hits is the
first stage's ranking; an adapter that does not read it (``reads_input_order = False``) gives
each hit the same score whatever its position.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

import pytest

from asat_research.rerank import Reranker
from asat_research.retrieval import Hit

QUESTION = "What aggregated turnover threshold made a small business entity in 2014-15 under s 328-110?"
DIVISION_328 = ["Chapter 3—Specialist liability rules", "Part 3-45—Rules for particular industries and occupations"]


def provision(chunk: str, number: str, fused: float, dense: float, heading: str, text: str, **extra: Any) -> Hit:
    version = f"itaa1997-s{number}@C2015C00285"
    payload: dict[str, Any] = {
        "kind": "provision",
        "act": "itaa1997",
        "provision": number,
        "heading": heading,
        "text": text,
        "start": 0,
        "hierarchy": DIVISION_328,
        "income_years": [2013, 2014, 2015, 2016],
        "version_id": version,
        **extra,
    }
    return Hit(f"{version}/{chunk}", version, fused, dense, payload)


HITS: tuple[Hit, ...] = (
    provision(
        "1",
        "328-110",
        0.0328,
        0.71,
        "Meaning of small business entity",
        "(1) You are a small business entity for an income year (the current year) if: (a) you carry on a "
        "business in the current year; and (b) your aggregated turnover for the previous income year was "
        "less than $2 million.",
    ),
    provision(
        "4",
        "328-110",
        0.0301,
        0.64,
        "Meaning of small business entity",
        "(4) You carry on a business in the current year if you are winding up a business you previously carried on.",
        start=412,
    ),
    provision(
        "1",
        "328-115",
        0.0290,
        0.66,
        "Aggregated turnover",
        "(1) Your aggregated turnover for an income year is the sum of the relevant annual turnovers.",
    ),
    provision(
        "1",
        "8-1",
        0.0161,
        0.42,
        "General deductions",
        "(1) You can deduct from your assessable income any loss or outgoing to the extent that it is "
        "incurred in gaining or producing your assessable income.",
    ),
    Hit(
        "TR 2019/1/12",
        "TR 2019/1",
        0.0155,
        0.48,
        {
            "kind": "ruling",
            "act": None,
            "provision": None,
            "title": "Income tax: when a company is carrying on a business",
            "text": "12. Whether a company carries on a business is a question of fact and degree.",
            "status": "current",
            "income_years": [2019, 2020],
        },
    ),
    Hit(
        "gap:itaa1997-s328-120@2014",
        "gap:itaa1997-s328-120",
        0.0149,
        0.40,
        {
            "kind": "gap",
            "act": "itaa1997",
            "provision": "328-120",
            "heading": "Meaning of annual turnover",
            "text": "The text in force for these days is not held.",
            "income_years": [2015],
        },
    ),
    Hit(
        "nye:itaa1997-s328-125",
        "nye:itaa1997-s328-125",
        0.0140,
        0.37,
        {"kind": "not_yet_enacted", "act": "itaa1997", "provision": "328-125", "income_years": [2015]},
    ),
)


def hundred_hits() -> list[Hit]:
    """As many candidates as the pipeline reranks (the first stage's top 100)."""
    hits = []
    for i in range(100):
        base = HITS[i % len(HITS)]
        hits.append(
            Hit(f"{base.chunk_id}~{i}", base.source_id, base.score / (1 + i / 50), base.dense_score, base.payload)
        )
    return hits


def assert_scores(scores: Sequence[float], hits: Sequence[Hit], bounds: tuple[float, float] | None) -> None:
    assert isinstance(scores, list), f"scores is a list, got {type(scores).__name__}"
    assert len(scores) == len(hits), f"{len(scores)} scores for {len(hits)} hits"
    for score in scores:
        assert isinstance(score, float), f"a score is a float, got {score!r}"
        assert math.isfinite(score), f"a score is finite, got {score!r}"
        if bounds is not None:
            low, high = bounds
            assert low <= score <= high, f"{score} is outside the scale's bounds {bounds}"


class RerankerContract:
    """Behaviour every Reranker adapter must show. Subclasses provide a ``reranker`` fixture."""

    bounds: tuple[float, float] | None = None  # the scale's range, where it has one
    reads_input_order: bool = True  # the first stage's order is one of its inputs

    def test_names_itself_and_its_scale(self, reranker: Reranker) -> None:
        assert isinstance(reranker.name, str) and reranker.name.strip()
        assert isinstance(reranker.scale, str) and reranker.scale.strip()

    def test_no_hits_no_scores(self, reranker: Reranker) -> None:
        assert reranker.scores(QUESTION, []) == []

    def test_one_finite_score_per_hit_in_order(self, reranker: Reranker) -> None:
        assert_scores(reranker.scores(QUESTION, HITS), HITS, self.bounds)

    def test_a_single_hit_is_scored(self, reranker: Reranker) -> None:
        for hit in HITS:
            assert_scores(reranker.scores(QUESTION, [hit]), [hit], self.bounds)

    def test_every_kind_of_hit_and_a_bare_payload_is_scored(self, reranker: Reranker) -> None:
        bare = Hit("bare/1", "bare", 0.01, 0.2, {"kind": "provision", "act": "itaa1997", "provision": "1-1"})
        empty_question = reranker.scores("", HITS)
        assert_scores(empty_question, HITS, self.bounds)
        hits = [*HITS, bare]
        assert_scores(reranker.scores(QUESTION, hits), hits, self.bounds)

    def test_as_many_candidates_as_the_pipeline_reranks(self, reranker: Reranker) -> None:
        hits = hundred_hits()
        assert_scores(reranker.scores(QUESTION, hits), hits, self.bounds)

    def test_same_input_same_scores(self, reranker: Reranker) -> None:
        assert reranker.scores(QUESTION, HITS) == reranker.scores(QUESTION, HITS)

    def test_the_hits_are_not_changed(self, reranker: Reranker) -> None:
        before = copy.deepcopy(list(HITS))
        reranker.scores(QUESTION, HITS)
        assert list(HITS) == before

    def test_a_hit_s_score_does_not_depend_on_its_position_unless_the_adapter_reads_the_order(
        self, reranker: Reranker
    ) -> None:
        if self.reads_input_order:
            pytest.skip(f"{reranker.name} reads the first stage's order (a feature of its own)")
        forward = reranker.scores(QUESTION, HITS)
        backward = reranker.scores(QUESTION, list(reversed(HITS)))
        assert list(reversed(backward)) == pytest.approx(forward, abs=1e-5)
