"""The verification wire contract: what parses, what is refused, and stable codes."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from asat_corpus.contracts.claims import Claim, Quote
from asat_corpus.contracts.sources import SourceRef
from asat_corpus.contracts.verification import (
    ClaimFailure,
    QuoteFailure,
    VerificationRequest,
    VerificationResponse,
)


def _request(**overrides: object) -> dict[str, object]:
    body: dict[str, object] = {
        "claims": [{"id": "c1", "text": "t", "source_ids": ["s1"], "quotes": [{"source_id": "s1", "text": "q"}]}],
        "sources": [{"id": "s1", "text": "x", "valid_from": "2020-07-01", "valid_to": None}],
        "retrieved_source_ids": ["s1"],
    }
    body.update(overrides)
    return body


def test_request_parses_from_json() -> None:
    request = VerificationRequest.model_validate_json(
        '{"claims": [], "sources": [{"id": "s", "text": "x", "valid_from": "2020-07-01"}], "retrieved_source_ids": []}'
    )
    assert request.sources[0].valid_from == date(2020, 7, 1)
    assert request.sources[0].act is None


def test_request_parses_from_python() -> None:
    request = VerificationRequest.model_validate(_request())
    assert request.claims[0] == Claim(id="c1", text="t", source_ids=["s1"], quotes=[Quote(source_id="s1", text="q")])


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"sources": [{"id": "s1", "text": "a"}, {"id": "s1", "text": "b"}]}, "source id 's1' appears more than once"),
        ({"claims": [{"id": "c", "text": "a"}, {"id": "c", "text": "b"}]}, "claim id 'c' appears more than once"),
        ({"sources": [{"id": "s1", "text": "x", "valid_to": 0}]}, "a day must be written YYYY-MM-DD"),
        ({"sources": [{"id": "s1", "text": "x", "valid_to": "2020-07-01T00:00:00"}]}, "YYYY-MM-DD"),
        ({"sources": [{"id": "", "text": "x"}]}, "at least 1 character"),
        ({"extra": 1}, "Extra inputs are not permitted"),
    ],
)
def test_request_refuses(overrides: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        VerificationRequest.model_validate(_request(**overrides))


def test_source_ref_is_immutable() -> None:
    source = SourceRef(id="s", text="x")
    with pytest.raises(ValidationError):
        source.text = "y"  # type: ignore[misc]


def test_reason_codes_are_stable() -> None:
    assert [r.value for r in QuoteFailure] == [
        "unknown_source",
        "source_not_retrieved",
        "source_not_cited",
        "too_short",
        "not_a_substring",
    ]
    assert [r.value for r in ClaimFailure] == [
        "no_quotes",
        "quote_not_verified",
        "unknown_cited_source",
        "cited_source_not_retrieved",
        "not_grounded",
    ]


def test_response_round_trips() -> None:
    payload = {
        "scorer": "deterministic",
        "verified": False,
        "claims": [
            {
                "id": "c1",
                "verified": False,
                "grounded": False,
                "groundedness_score": 0.0,
                "reasons": [{"code": "no_quotes", "message": "the claim has no quote"}],
                "findings": [{"check": "evidence", "passed": False, "message": "none"}],
                "quotes": [],
            }
        ],
    }
    response = VerificationResponse.model_validate(payload)
    assert response.claims[0].reasons[0].code is ClaimFailure.NO_QUOTES
    assert VerificationResponse.model_validate_json(response.model_dump_json()) == response
