"""The contract every groundedness adapter meets, as a mixin test class.

An adapter's tests subclass ``GroundednessScorerContract`` and provide a ``scorer`` fixture, the
way Haystack's ``haystack/testing/document_store.py`` suites run against every document store.
These test the plumbing (range, determinism, empty and long input), not judgement quality.
"""

from __future__ import annotations

import math

import pytest

from asat_corpus.contracts.verification import GroundednessCheck
from asat_verifier.groundedness.port import Evidence, GroundednessScorer

CLAIM = "A loss or outgoing incurred in gaining assessable income is deductible under section 8-1."
QUOTES = (
    Evidence(
        "You can deduct from your assessable income any loss or outgoing to the extent that it is "
        "incurred in gaining or producing your assessable income.",
        source_id="ITAA1997:8-1@2020",
        act="ITAA1997",
        provision="8-1",
    ),
)


class GroundednessScorerContract:
    """Subclass and define a ``scorer`` fixture returning the adapter under test."""

    @pytest.fixture
    def scorer(self) -> GroundednessScorer:
        raise NotImplementedError("define a 'scorer' fixture returning the adapter under test")

    def test_has_a_name(self, scorer: GroundednessScorer) -> None:
        assert isinstance(scorer.name, str)
        assert scorer.name.strip()

    @pytest.mark.parametrize(
        "claim",
        [CLAIM, "The moon is made of cheese.", "", "Ünïcödé ﬁne print \u2011 8\u20101 $10 million 15%"],
    )
    def test_score_is_a_probability(self, scorer: GroundednessScorer, claim: str) -> None:
        result = scorer.score(claim, QUOTES)
        assert isinstance(result.score, float)
        assert not math.isnan(result.score)
        assert 0.0 <= result.score <= 1.0
        assert isinstance(result.grounded, bool)
        assert result.findings, "every result says why"

    def test_same_input_same_result(self, scorer: GroundednessScorer) -> None:
        assert scorer.score(CLAIM, QUOTES) == scorer.score(CLAIM, QUOTES)

    def test_no_quotes_is_not_grounded(self, scorer: GroundednessScorer) -> None:
        result = scorer.score(CLAIM, ())
        assert result.grounded is False
        assert result.score == 0.0
        assert [f.check for f in result.findings] == [GroundednessCheck.EVIDENCE]

    def test_long_and_many_quotes_are_handled(self, scorer: GroundednessScorer) -> None:
        quotes = tuple(Evidence(QUOTES[0].text * 40, source_id=f"s{i}") for i in range(5))
        result = scorer.score(CLAIM * 10, quotes)
        assert 0.0 <= result.score <= 1.0
