from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.generation.port import GeneratedClaim, GenerationError
from asat_research.generation.reply_parser import SchemaViolation, parse_generation, parse_selection

OFFERED = ("S1", "S2", "S3")
WHO = {"provider": "p", "model": "m"}


def _claims(*claims: object, premise_rejected: bool = False) -> str:
    return json.dumps({"claims": list(claims), "premise_rejected": premise_rejected})


def test_a_good_selection_keeps_the_model_order_and_drops_repeats() -> None:
    selection = parse_selection('{"span_keys": ["S3", "S1", "S3"]}', OFFERED, **WHO)
    assert (selection.keys, selection.provider, selection.model) == (("S3", "S1"), "p", "m")


def test_an_empty_selection_is_allowed() -> None:
    assert parse_selection({"span_keys": []}, OFFERED, **WHO).keys == ()


def test_a_good_generation_parses_from_text_or_decoded_tool_input() -> None:
    reply = {"claims": [{"text": "Under $2 million.", "span_keys": ["S3"]}], "premise_rejected": True}
    for payload in (json.dumps(reply), reply):
        generation = parse_generation(payload, OFFERED, seed=7, **WHO)
        assert generation.claims == (GeneratedClaim("Under $2 million.", ("S3",)),)
        assert (generation.premise_rejected, generation.seed, generation.note) == (True, 7, "")


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ("The threshold is $2 million.", "not JSON"),
        ('```json\n{"span_keys": ["S1"]}\n```', "not JSON"),
        ('["S1"]', "must be a JSON object"),
        ("{}", "lacks span_keys"),
        ('{"span_keys": ["S1"], "why": "x"}', "outside the schema: why"),
        ('{"span_keys": "S1"}', "must be a list"),
        ('{"span_keys": [1]}', "must hold strings"),
        ('{"span_keys": ["S4"]}', "cites 'S4', which was not offered"),
        ('{"span_keys": ["s1"]}', "cites 's1', which was not offered"),
        ('{"span_keys": ["S1"], "span_keys": ["S4"]}', "appears more than once"),
    ],
)
def test_a_selection_outside_the_schema_is_refused(payload: str, reason: str) -> None:
    with pytest.raises(SchemaViolation, match=reason):
        parse_selection(payload, OFFERED, **WHO)


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (_claims({"text": "x", "span_keys": ["S9"]}), r"claims\[0\].span_keys cites 'S9'"),
        (_claims({"text": "ok", "span_keys": ["S1"]}, {"text": "x", "span_keys": ["S9"]}), r"claims\[1\]"),
        (_claims({"text": "x", "span_keys": []}), "must cite at least one span"),
        (_claims({"text": "  ", "span_keys": ["S1"]}), "non-empty string"),
        (_claims({"text": 3, "span_keys": ["S1"]}), "non-empty string"),
        (_claims({"text": "x", "span_keys": ["S1"], "quote": "less than"}), "outside the schema: quote"),
        (_claims({"span_keys": ["S1"]}), "lacks text"),
        (_claims("a claim"), "must be an object"),
        ('{"claims": [], "premise_rejected": "no"}', "true or false"),
        ('{"claims": [], "premise_rejected": 0}', "true or false"),
        ('{"claims": {}, "premise_rejected": false}', "claims must be a list"),
        ('{"claims": []}', "lacks premise_rejected"),
    ],
)
def test_a_generation_outside_the_schema_is_refused_whole(payload: str, reason: str) -> None:
    with pytest.raises(SchemaViolation, match=reason):
        parse_generation(payload, OFFERED, seed=None, **WHO)


def test_a_schema_violation_is_a_generation_error() -> None:
    assert issubclass(SchemaViolation, GenerationError)


KEYS = st.sampled_from(OFFERED)


@given(st.lists(KEYS, max_size=8))
def test_offered_keys_always_parse_in_first_seen_order(keys: list[str]) -> None:
    assert parse_selection({"span_keys": keys}, OFFERED, **WHO).keys == tuple(dict.fromkeys(keys))


@given(st.lists(KEYS, min_size=1, max_size=4), st.text(min_size=1).filter(lambda t: t.strip() != ""))
def test_a_claim_with_a_foreign_key_is_always_refused(keys: list[str], foreign: str) -> None:
    if foreign in OFFERED:
        return
    reply = {"claims": [{"text": "x", "span_keys": [*keys, foreign]}], "premise_rejected": False}
    with pytest.raises(SchemaViolation, match="was not offered"):
        parse_generation(reply, OFFERED, seed=None, **WHO)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | KEYS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["claims", "text", "span_keys", "premise_rejected", "x"]), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(st.one_of(st.text(max_size=40), JSON.map(json.dumps)))
def test_any_reply_either_parses_within_the_offered_keys_or_is_a_schema_violation(payload: str) -> None:
    try:
        generation = parse_generation(payload, OFFERED, seed=None, **WHO)
    except SchemaViolation:
        return
    assert all(claim.text.strip() and set(claim.span_keys) <= set(OFFERED) for claim in generation.claims)
