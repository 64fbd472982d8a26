from __future__ import annotations

import pytest

from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.port import GenerationError
from asat_research.generation.prompts import SYSTEM, render_spans
from asat_research.generation.reply_parser import SchemaViolation
from services.research.tests.generation.spans import OFFERED, QUESTION, SELECTED
from services.research.tests.generation.stub_server import StubServer, load_exchanges

RECORDED = load_exchanges("ollama")


def _generator(stub: StubServer, api_key: str = "") -> OllamaGenerator:
    return OllamaGenerator("llama3.1:8b", base_url=stub.url, api_key=api_key, seed=7, timeout=5)


def test_select_sends_the_schema_as_format_with_seed_and_temperature_zero(stub: StubServer) -> None:
    stub.script(RECORDED["select_good"])
    selection = _generator(stub).select(QUESTION, OFFERED)
    assert selection.keys == ("S3", "S1")
    assert selection.provider.startswith("ollama:127.0.0.1:")
    assert selection.model == "llama3.1:8b"
    messages = stub.received[0].body["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM}
    assert render_spans(OFFERED) in messages[1]["content"]


def test_write_parses_claims_and_sends_the_key_when_one_is_set(stub: StubServer) -> None:
    stub.script(RECORDED["write_good"])
    generation = _generator(stub, api_key="test-key").write(QUESTION, SELECTED)
    assert [claim.span_keys for claim in generation.claims] == [("S1", "S3")]
    assert (generation.model, generation.seed) == ("llama3.1:8b", 7)
    assert stub.received[0].headers["authorization"] == "Bearer test-key"


def test_a_claim_citing_a_key_not_offered_is_rejected(stub: StubServer) -> None:
    stub.script(RECORDED["write_unoffered_key"])
    with pytest.raises(SchemaViolation, match="cites 'S2', which was not offered"):
        _generator(stub).write(QUESTION, SELECTED)


def test_prose_instead_of_json_is_an_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_prose"])
    with pytest.raises(SchemaViolation, match="ignored the JSON schema: the reply is not JSON"):
        _generator(stub).write(QUESTION, SELECTED)


def test_a_reply_cut_at_the_length_limit_is_an_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_truncated"])
    with pytest.raises(GenerationError, match="length limit"):
        _generator(stub).write(QUESTION, SELECTED)


def test_a_model_not_pulled_says_how_to_pull_it(stub: StubServer) -> None:
    stub.script(RECORDED["write_not_pulled"])
    with pytest.raises(GenerationError, match=r"HTTP 404 .*not found.*ollama pull llama3.1:8b"):
        _generator(stub).write(QUESTION, SELECTED)


def test_an_unreachable_server_is_an_error_naming_the_setting() -> None:
    with pytest.raises(GenerationError, match="ASAT_GENERATION_BASE_URL"):
        OllamaGenerator("llama3.1:8b", base_url="http://127.0.0.1:9", timeout=2).select(QUESTION, OFFERED)
