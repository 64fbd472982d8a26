from __future__ import annotations

import pytest

from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.port import GenerationError
from asat_research.generation.prompts import SYSTEM, render_spans
from asat_research.generation.reply_parser import SchemaViolation
from services.research.tests.generation.spans import OFFERED, QUESTION, SELECTED
from services.research.tests.generation.stub_server import StubServer, load_exchanges

RECORDED = load_exchanges("anthropic")


def _generator(stub: StubServer) -> AnthropicGenerator:
    return AnthropicGenerator("claude-sonnet-4-5", "test-key", base_url=stub.url, timeout=5, max_retries=0)


def test_select_forces_the_tool_whose_schema_carries_the_enum(stub: StubServer) -> None:
    stub.script(RECORDED["select_good"])
    selection = _generator(stub).select(QUESTION, OFFERED)
    assert selection.keys == ("S3", "S1")
    assert selection.provider.startswith("anthropic:127.0.0.1:")
    assert selection.model == "claude-sonnet-4-5-20250929"
    body = stub.received[0].body
    assert body["system"] == SYSTEM
    assert body["messages"] == [{"role": "user", "content": body["messages"][0]["content"]}]
    assert render_spans(OFFERED) in body["messages"][0]["content"]
    assert "seed" not in body


def test_write_parses_the_tool_input_and_records_no_seed(stub: StubServer) -> None:
    stub.script(RECORDED["write_good"])
    generation = _generator(stub).write(QUESTION, SELECTED)
    assert [claim.span_keys for claim in generation.claims] == [("S1", "S3")]
    assert generation.seed is None
    assert generation.model == "claude-sonnet-4-5-20250929"


def test_a_tool_input_citing_a_key_not_offered_is_rejected(stub: StubServer) -> None:
    stub.script(RECORDED["write_unoffered_key"])
    with pytest.raises(SchemaViolation, match="cites 'S2', which was not offered"):
        _generator(stub).write(QUESTION, SELECTED)


def test_text_instead_of_the_forced_tool_call_is_an_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_text_only"])
    with pytest.raises(
        GenerationError, match=r"did not make exactly one forced cite_spans tool call \(it returned text\)"
    ):
        _generator(stub).write(QUESTION, SELECTED)


def test_a_tool_call_cut_at_max_tokens_is_an_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_max_tokens"])
    with pytest.raises(GenerationError, match="max_tokens"):
        _generator(stub).write(QUESTION, SELECTED)


def test_an_overloaded_api_is_an_error_naming_the_status(stub: StubServer) -> None:
    stub.script(RECORDED["write_overloaded"])
    with pytest.raises(GenerationError, match="HTTP 529"):
        _generator(stub).write(QUESTION, SELECTED)
