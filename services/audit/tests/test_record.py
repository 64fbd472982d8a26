from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from asat_audit.record import AskedBy, AuditCitation, ReadingListItem, StageLatency
from asat_corpus.contracts.decisions import Decision


def test_a_sample_record_is_valid(make_record: Any) -> None:
    assert make_record(1).decision is Decision.ANSWER
    assert make_record(3).decision is Decision.ABSTAIN_VERSION_CONFLICT


def test_a_decision_given_as_its_text_is_the_gates_decision(make_record: Any) -> None:
    # How a row read back from Postgres hands it over.
    assert make_record(decision="abstain_low_relevance").decision is Decision.ABSTAIN_LOW_RELEVANCE


@pytest.mark.parametrize("decision", ["answered", "abstained", "ANSWER", "", "answer "])
def test_a_decision_the_gate_never_makes_is_refused(make_record: Any, decision: str) -> None:
    with pytest.raises(ValueError, match="is not one of the gate's decisions") as refused:
        make_record(decision=decision)
    assert repr(decision) in str(refused.value)
    assert "abstain_low_relevance" in str(refused.value)  # the message lists the decisions there are


def test_a_decision_that_is_not_text_is_refused(make_record: Any) -> None:
    with pytest.raises(ValueError, match="decision must be one of the gate's decisions, got NoneType"):
        make_record(decision=None)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"question": "nul \x00 here"}, "NUL"),
        ({"question": "lone \ud800 surrogate"}, "surrogate"),
        ({"request_id": ""}, "request_id must not be empty"),
        ({"decision": "answered"}, "decision 'answered' is not one of the gate's decisions"),
        ({"income_year": 0}, "income_year"),
        ({"seed": 2**63}, "64-bit"),
        ({"as_of": datetime(2020, 1, 1)}, "not a datetime"),
        ({"as_known_on": datetime(2015, 10, 1)}, "as_known_on must be a date"),
        ({"as_known_on": "2015-10-01"}, "as_known_on must be a date"),
        ({"shown": "not json"}, "shown must be the JSON text"),
        ({"shown": "[1, 2]"}, "shown must be a JSON object"),
        ({"shown": ""}, "shown must not be empty"),
        ({"asked_by": {"user_id": 1}}, "asked_by must be an AskedBy"),
        ({"reasons": ["a list"]}, "tuple"),
        ({"citations": []}, "tuple"),
    ],
)
def test_invalid_records_are_refused_with_the_field_named(
    make_record: Any, changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        make_record(**changes)


@pytest.mark.parametrize("ms", [-1.0, float("nan"), float("inf"), True, "3"])
def test_latency_must_be_finite_non_negative_number(ms: Any) -> None:
    with pytest.raises(ValueError, match="latency"):
        StageLatency("retrieve", ms)


def test_citation_range_must_be_ordered() -> None:
    with pytest.raises(ValueError, match="start <= end"):
        AuditCitation("v1", (), "quote", 10, 5)


def test_reading_item_needs_a_version_id() -> None:
    with pytest.raises(ValueError, match="version_id must not be empty"):
        ReadingListItem("", (), "label")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, "jo@example.com.au", 1, None), "asked_by user_id must be a positive integer"),
        ((1, "jo@example.com.au", True, None), "asked_by practice_id must be a positive integer"),
        ((1, "jo@example.com.au", 1, 0), "asked_by client_id must be a positive integer"),
        ((1, "", 1, None), "asked_by user_email must not be empty"),
        ((1, "not an email", 1, None), "is not an email address"),
        ((1, "nul\x00@x", 1, None), "NUL"),
    ],
)
def test_a_bad_asked_by_is_refused(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        AskedBy(*args)
