from __future__ import annotations

import hashlib
import json
from dataclasses import fields, replace
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from asat_audit.canonical import (
    GENESIS_HASH,
    canonical_bytes,
    chain_hash,
    format_timestamp,
    record_document,
)
from asat_audit.record import (
    RECORD_FIELDS,
    AskedBy,
    AuditCitation,
    AuditRecord,
    ReadingListItem,
    StageLatency,
)
from asat_corpus.contracts.decisions import Decision

MOMENT = datetime(2024, 7, 1, 3, 4, 5, 6, tzinfo=UTC)

texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20)
names = texts.filter(bool)
str_tuples = st.lists(texts, max_size=3).map(tuple)
citations = st.builds(
    AuditCitation,
    version_id=names,
    register_ids=str_tuples,
    quote=texts,
    start=st.integers(0, 1000),
    end=st.integers(1000, 2000),
)
reading_items = st.builds(ReadingListItem, version_id=names, register_ids=str_tuples, label=texts)
latencies = st.builds(StageLatency, stage=names, ms=st.floats(0, 1e9, allow_nan=False, allow_infinity=False))

FIELD_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "request_id": names,
    "question": texts,
    "as_of": st.none() | st.dates(),
    "income_year": st.none() | st.integers(1900, 2100),
    "decision": st.sampled_from(Decision),
    "reasons": str_tuples,
    "citations": st.lists(citations, max_size=2).map(tuple),
    "verified_quotes": st.lists(citations, max_size=2).map(tuple),
    "reading_list": st.lists(reading_items, max_size=2).map(tuple),
    "provider": texts,
    "model": texts,
    "seed": st.none() | st.integers(-(2**63), 2**63 - 1),
    "corpus_generation": texts,
    "latencies": st.lists(latencies, max_size=3).map(tuple),
    "as_known_on": st.none() | st.dates(),
    "shown": st.none() | st.dictionaries(names, texts, max_size=3).map(lambda d: json.dumps(d, ensure_ascii=False)),
    "asked_by": st.none()
    | st.builds(
        AskedBy,
        user_id=st.integers(1, 2**63 - 1),
        user_email=st.emails(),
        practice_id=st.integers(1, 2**63 - 1),
        client_id=st.none() | st.integers(1, 2**63 - 1),
    ),
}
records = st.builds(AuditRecord, **FIELD_STRATEGIES)


def test_every_record_field_has_a_strategy_and_a_place_in_the_document(make_record: Any) -> None:
    # A field added to AuditRecord but left out of the hashed document would not be protected.
    assert set(FIELD_STRATEGIES) == set(RECORD_FIELDS) == {f.name for f in fields(AuditRecord)}
    asked_by = AskedBy(7, "jo@example.com.au", 3, None)
    document = record_document(
        1, MOMENT, make_record(as_known_on=date(2015, 10, 1), shown='{"note":"x"}', asked_by=asked_by)
    )
    assert set(document) == set(RECORD_FIELDS) | {"id", "recorded_at"}
    # Unset, as_known_on, shown and asked_by are the fields left out (so older rows keep their hashes).
    assert set(record_document(1, MOMENT, make_record())) == set(document) - {"as_known_on", "shown", "asked_by"}
    assert document["shown"] == '{"note":"x"}'  # the stored text itself, so the hash covers its bytes
    assert document["asked_by"] == {
        "user_id": 7,
        "user_email": "jo@example.com.au",
        "practice_id": 3,
        "client_id": None,
    }


def test_canonical_bytes_are_sorted_compact_utf8() -> None:
    document = {"b": [1, 2.5], "a": "café ✓", "c": None}
    assert canonical_bytes(document) == '{"a":"café ✓","b":[1,2.5],"c":null}'.encode()


def test_canonical_bytes_refuse_nan() -> None:
    with pytest.raises(ValueError):
        canonical_bytes({"ms": float("nan")})


def test_chain_hash_is_sha256_of_prev_hash_then_canonical_json() -> None:
    expected = hashlib.sha256(b"0" * 64 + b'{"a":1,"b":"\xc3\xa9"}').hexdigest()
    assert chain_hash(GENESIS_HASH, {"b": "é", "a": 1}) == expected


@pytest.mark.parametrize("bad", ["", "0" * 63, "A" * 64, "g" * 64])
def test_chain_hash_rejects_a_malformed_prev_hash(bad: str) -> None:
    with pytest.raises(ValueError, match="64 lowercase hex"):
        chain_hash(bad, {})


def test_timestamps_are_utc_with_six_fraction_digits() -> None:
    sydney = timezone(timedelta(hours=10))
    assert format_timestamp(datetime(2024, 7, 1, 13, 0, tzinfo=sydney)) == "2024-07-01T03:00:00.000000Z"
    assert format_timestamp(MOMENT) == "2024-07-01T03:04:05.000006Z"


def test_naive_timestamps_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        format_timestamp(datetime(2024, 7, 1))


def test_document_uses_iso_dates_and_plain_json(make_record: Any) -> None:
    document = record_document(7, MOMENT, make_record(as_of=date(2019, 7, 1)))
    assert document["as_of"] == "2019-07-01"
    assert type(document["decision"]) is str  # the decision's text, not the enum member
    assert document["id"] == 7
    assert document["latencies"] == [
        {"stage": "retrieve", "ms": 12.5},
        {"stage": "generate", "ms": 3.0},
        {"stage": "verify", "ms": 0.25},
    ]


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(record=records, data=st.data())
def test_any_single_field_change_changes_the_hash(record: AuditRecord, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(FIELD_STRATEGIES)))
    new_value = data.draw(FIELD_STRATEGIES[name])
    changed = replace(record, **{name: new_value})
    before = record_document(1, MOMENT, record)
    after = record_document(1, MOMENT, changed)
    assume(before != after)  # e.g. a latency of 3 ms drawn again as 3.0 is the same value
    assert chain_hash(GENESIS_HASH, before) != chain_hash(GENESIS_HASH, after)


@given(record=records, other_id=st.integers(2, 10**9), shift=st.integers(1, 10**6))
def test_id_timestamp_and_prev_hash_are_covered(record: AuditRecord, other_id: int, shift: int) -> None:
    digest = chain_hash(GENESIS_HASH, record_document(1, MOMENT, record))
    assert chain_hash(GENESIS_HASH, record_document(other_id, MOMENT, record)) != digest
    later = MOMENT + timedelta(microseconds=shift)
    assert chain_hash(GENESIS_HASH, record_document(1, later, record)) != digest
    assert chain_hash("f" * 64, record_document(1, MOMENT, record)) != digest


@given(record=records)
def test_the_hash_is_deterministic(record: AuditRecord) -> None:
    copy = replace(record)
    assert chain_hash(GENESIS_HASH, record_document(3, MOMENT, record)) == chain_hash(
        GENESIS_HASH, record_document(3, MOMENT, copy)
    )


# A record as the log stored it before ``as_known_on`` existed, with its canonical form and hash
# as computed by that code (commit 67a3b2f; its decision since changed from "answered", which no
# gate decides, to "answer", and the hash recomputed with hashlib alone). Neither may ever
# change: rows in a database must still verify.
PINNED_RECORD = AuditRecord(
    request_id="req-7",
    question="Was s 8-1 satisfied? café",
    as_of=date(2015, 10, 1),
    income_year=2016,
    decision=Decision.ANSWER,
    reasons=("all quotes verified",),
    citations=(AuditCitation("ITAA1997/8-1@2015-07-01", ("C2015C00001",), "a loss or outgoing", 10, 28),),
    verified_quotes=(),
    reading_list=(ReadingListItem("ITAA1997/8-1@2015-07-01", ("C2015C00001",), "ITAA 1997 s 8-1"),),
    provider="extractive",
    model="extractive-v1",
    seed=42,
    corpus_generation="gen-1",
    latencies=(StageLatency("retrieve", 12.5),),
)
PINNED_CANONICAL = (
    '{"as_of":"2015-10-01","citations":[{"end":28,"quote":"a loss or outgoing","register_ids":["C2015C00001"],'
    '"start":10,"version_id":"ITAA1997/8-1@2015-07-01"}],"corpus_generation":"gen-1","decision":"answer",'
    '"id":3,"income_year":2016,"latencies":[{"ms":12.5,"stage":"retrieve"}],"model":"extractive-v1",'
    '"provider":"extractive","question":"Was s 8-1 satisfied? café","reading_list":[{"label":"ITAA 1997 s 8-1",'
    '"register_ids":["C2015C00001"],"version_id":"ITAA1997/8-1@2015-07-01"}],"reasons":["all quotes verified"],'
    '"recorded_at":"2024-07-01T03:04:05.000006Z","request_id":"req-7","seed":42,"verified_quotes":[]}'
)
PINNED_HASH = "974c551f3ef5dd2a7da7e5c7efe1017f6d509761c21dd220170d7819a393ba46"


def test_a_record_without_as_known_on_keeps_its_canonical_form_and_hash() -> None:
    assert PINNED_RECORD.as_known_on is None
    document = record_document(3, MOMENT, PINNED_RECORD)
    assert "as_known_on" not in document
    assert canonical_bytes(document) == PINNED_CANONICAL.encode("utf-8")
    assert chain_hash(GENESIS_HASH, document) == PINNED_HASH
    explicit = replace(PINNED_RECORD, as_known_on=None)
    assert chain_hash(GENESIS_HASH, record_document(3, MOMENT, explicit)) == PINNED_HASH


def test_a_set_as_known_on_is_in_the_canonical_form_and_the_hash() -> None:
    record = replace(PINNED_RECORD, as_known_on=date(2015, 10, 31))
    document = record_document(3, MOMENT, record)
    assert document["as_known_on"] == "2015-10-31"
    expected = PINNED_CANONICAL.replace('{"as_of":"2015-10-01",', '{"as_known_on":"2015-10-31","as_of":"2015-10-01",')
    assert canonical_bytes(document) == expected.encode("utf-8")
    digest = chain_hash(GENESIS_HASH, document)
    assert digest != PINNED_HASH
    later = replace(record, as_known_on=date(2015, 11, 1))
    assert digest != chain_hash(GENESIS_HASH, record_document(3, MOMENT, later))


@given(record=records)
def test_as_known_on_only_adds_its_own_key(record: AuditRecord) -> None:
    without = record_document(1, MOMENT, replace(record, as_known_on=None))
    with_it = record_document(1, MOMENT, replace(record, as_known_on=date(2015, 10, 1)))
    assert with_it == {**without, "as_known_on": "2015-10-01"}
