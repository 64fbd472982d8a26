"""The research and search wire contracts: what an outcome must hold to be shown at all."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from asat_corpus.contracts.decisions import ANSWERED_DECISIONS, Decision, is_answered
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.provider import ProviderCheckRequest
from asat_corpus.contracts.research import ResearchOutcome, ResearchRequest
from asat_corpus.contracts.search import SearchReply

QUOTE = "your aggregated turnover is less than $2 million"


def _citation(start: int = 10, quote: str = QUOTE) -> dict[str, Any]:
    return {
        "span_id": "v#s1",
        "chunk_id": "v#0",
        "source_id": "itaa1997:328-110@C2015C00285",
        "kind": "provision",
        "title": "s 328-110",
        "act": "itaa1997",
        "provision": "328-110",
        "register_ids": ["C2015C00285"],
        "authorised": True,
        "valid_from": "2014-07-01",
        "valid_to": None,
        "quote": quote,
        "start": start,
        "end": start + len(quote),
    }


def _outcome(**changes: Any) -> dict[str, Any]:
    return {
        "request_id": "r1",
        "audit_id": 1,
        "decision": "answer",
        "answered": True,
        "reasons": [],
        "scope": {"income_year": 2015, "as_of": None, "source": "parameter", "matched": "income_year=2015"},
        "claims": [{"id": "c1", "text": "Under $2 million.", "citations": [_citation()], "groundedness": 1.0}],
        "reading_list": [],
        "premise_rejected": False,
        "note": "",
        "provider": "extractive",
        "model": "extractive-v1",
        "seed": None,
        "corpus_generation": "g",
        "latencies_ms": {"resolve": 0.1},
        "dropped_claims": 0,
        "attribution": "Based on content from the Federal Register of Legislation.",
    } | changes


def test_an_outcome_round_trips_through_json() -> None:
    outcome = ResearchOutcome.model_validate(_outcome())
    assert outcome.decision is Decision.ANSWER and outcome.claims[0].citations[0].register_ids == ("C2015C00285",)
    assert ResearchOutcome.model_validate_json(outcome.model_dump_json()) == outcome


def test_the_answered_decisions_are_the_enums_answers() -> None:
    assert {d for d in Decision if is_answered(d)} == ANSWERED_DECISIONS


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"answered": False}, "must agree"),
        ({"decision": "abstain_low_relevance", "answered": False}, "abstention carries claims"),
        ({"decision": "maybe"}, "decision: Input should be"),
        (
            {"claims": [{"id": "c1", "text": "t", "citations": [_citation(start=3) | {"end": 9}], "groundedness": 1}]},
            "cannot hold",
        ),
        ({"scope": {"income_year": 2015, "as_of": None, "source": "guess", "matched": ""}}, "scope.source"),
    ],
)
def test_an_outcome_that_cannot_be_shown_is_refused_naming_why(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ResearchOutcome.model_validate(_outcome(**changes))
    assert words in describe_validation_error(caught.value)


@pytest.mark.parametrize("question", ["turnover\x00?", "turnover \ud800?"])
def test_a_question_the_audit_log_cannot_store_is_refused(question: str) -> None:
    with pytest.raises(ValidationError, match="question"):
        ResearchRequest(question=question)


def test_a_search_reply_missing_a_hit_field_names_it() -> None:
    with pytest.raises(ValidationError) as caught:
        SearchReply.model_validate(
            {"hits": [{"chunk_id": "c"}], "corpus_generation": "g", "embedder": "e", "income_year": 2015}
        )
    assert "hits.0.source_id: Field required" in describe_validation_error(caught.value)


CONFLICT = {
    "question": {"income_year": 2024, "matched": "FY2024", "start": "2023-07-01", "end": "2024-06-30"},
    "parameter": {"income_year": 2027, "name": "income_year=2027", "start": "2026-07-01", "end": "2027-06-30"},
    "reason": "the question names income year 2024 but income_year=2027 was given",
}


def test_a_period_conflict_carries_both_periods_and_only_it_does() -> None:
    refused = _outcome(
        decision="period_conflict", answered=False, claims=[], reasons=[CONFLICT["reason"]], period_conflict=CONFLICT
    )
    outcome = ResearchOutcome.model_validate(refused)
    assert outcome.period_conflict is not None and outcome.period_conflict.question.income_year == 2024
    assert ResearchOutcome.model_validate(_outcome()).period_conflict is None  # optional: older replies still read
    for bad, words in (
        (refused | {"period_conflict": None}, "period_conflict missing"),
        (_outcome(period_conflict=CONFLICT), "period_conflict given"),
    ):
        with pytest.raises(ValidationError) as caught:
            ResearchOutcome.model_validate(bad)
        assert words in describe_validation_error(caught.value)


def test_a_key_that_is_not_ascii_is_refused_without_being_named() -> None:
    # Found by schemathesis: a non-ASCII key reached the provider's request header (a 500).
    with pytest.raises(ValidationError) as refused:
        ProviderCheckRequest.model_validate({"provider": "ollama", "api_key": "k\u0080ey"})
    assert "not ASCII" in str(refused.value) and "k\u0080ey" not in str(refused.value)
