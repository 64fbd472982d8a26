from __future__ import annotations

import pytest

from asat_research.generation.port import GenerationError, NumberedSpan
from asat_research.generation.prompts import SYSTEM, claims_schema, render_spans, selection_schema
from asat_research.generation.reply_parser import SchemaViolation
from asat_research.generation.two_pass import (
    ModelReply,
    PassRequest,
    run_select,
    run_write,
    selection_request,
    writing_request,
)
from services.research.tests.generation.spans import OFFERED, QUESTION, S1, SELECTED


def test_each_pass_sends_an_enum_of_exactly_the_keys_it_shows() -> None:
    select, write = selection_request(QUESTION, OFFERED), writing_request(QUESTION, SELECTED)
    assert (select.keys, select.schema) == (("S1", "S2", "S3"), selection_schema(["S1", "S2", "S3"]))
    assert (write.keys, write.schema) == (("S1", "S3"), claims_schema(["S1", "S3"]))
    assert select.system == write.system == SYSTEM
    assert render_spans(SELECTED) in write.user and "[S2]" not in write.user
    assert QUESTION in select.user and QUESTION in write.user
    assert (select.schema_name, write.schema_name) == ("select_spans", "cite_spans")


def test_repeated_span_keys_are_refused_before_anything_is_sent() -> None:
    with pytest.raises(GenerationError, match="S1 repeat"):
        selection_request(QUESTION, [S1, S1])


def test_the_reply_records_who_answered_not_who_was_asked() -> None:
    def ask(request: PassRequest) -> ModelReply:
        return ModelReply('{"span_keys": ["S1"]}', provider="router/Upstream", model="model-v2")

    selection = run_select(ask, QUESTION, OFFERED, provider="router", model="model")
    assert (selection.provider, selection.model) == ("router/Upstream", "model-v2")


def test_no_spans_means_no_call() -> None:
    def ask(request: PassRequest) -> ModelReply:
        raise AssertionError("no request may be sent without spans")

    empty: list[NumberedSpan] = []
    assert run_select(ask, QUESTION, empty, provider="p", model="m").keys == ()
    generation = run_write(ask, QUESTION, empty, provider="p", model="m", seed=7)
    assert (generation.claims, generation.seed) == ((), 7)


def test_a_violation_names_provider_and_model_and_says_nothing_was_repaired() -> None:
    def ask(request: PassRequest) -> ModelReply:
        return ModelReply("Sure! The answer is $2 million.", provider="router/Cheap", model="tiny")

    with pytest.raises(
        SchemaViolation, match=r"provider router/Cheap \(model tiny\) ignored the JSON schema"
    ) as caught:
        run_write(ask, QUESTION, SELECTED, provider="router", model="tiny", seed=7)
    assert "discarded, not repaired" in str(caught.value)
    assert "ASAT_GENERATION_PROVIDER=extractive" in str(caught.value)


def test_pass_2_hears_what_the_question_asserts_and_a_figure_the_law_gives_otherwise() -> None:
    asserting = "Since the aggregated turnover threshold was $10 million in 2014-15, my client qualifies, right?"
    request = writing_request(asserting, SELECTED)
    assert (
        "The question asserts:" in request.user
        and "premise_rejected to true only if a span contradicts" in request.user
    )
    assert "$10 million" in request.user.split("The question asserts:")[1]
    assert "The spans give $2 million for the turnover, where the question says $10 million." in request.user


def test_a_true_premise_gets_the_hint_without_a_figure_and_a_plain_question_gets_none() -> None:
    true_premise = "Since the aggregated turnover threshold was $2 million in 2014-15, my client qualifies, right?"
    assert "The question asserts:" in writing_request(true_premise, SELECTED).user
    assert "The spans give" not in writing_request(true_premise, SELECTED).user
    assert "The question asserts:" not in writing_request(QUESTION, SELECTED).user


def test_pass_2_hears_a_line_that_denies_what_the_question_asserts() -> None:
    denying = NumberedSpan(
        "S9",
        "itaa1997-s32-5@C2015C00285-c1#s1",
        "itaa1997-s32-5@C2015C00285",
        "ITAA 1997 s 32-5",
        "To the extent that you incur a loss or outgoing in respect of providing *entertainment, you cannot "
        "deduct it under section 8-1.",
    )
    request = writing_request("Client entertainment is fully deductible under s 8-1, yes?", [*SELECTED, denying])
    assert 'Span S9 reads as denying "Client entertainment is fully deductible under s 8-1"' in request.user
    assert "you cannot deduct it under section 8-1." in request.user
    assert "reads as denying" not in writing_request("Client entertainment: what does s 32-5 say?", SELECTED).user
