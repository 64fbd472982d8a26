from __future__ import annotations

import pytest

from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import GenerationError
from asat_research.generation.prompts import SYSTEM, render_spans
from asat_research.generation.reply_parser import SchemaViolation
from services.research.tests.generation.spans import OFFERED, QUESTION, SELECTED
from services.research.tests.generation.stub_server import StubServer, load_exchanges

RECORDED = load_exchanges("openai_compatible")
MODEL = "gpt-4o-2024-08-06"


def _generator(stub: StubServer) -> OpenAICompatibleGenerator:
    return OpenAICompatibleGenerator(f"{stub.url}/v1", MODEL, "test-key", seed=7, timeout=5, max_retries=0)


def test_select_sends_the_enum_schema_and_seed_and_records_who_answered(stub: StubServer) -> None:
    stub.script(RECORDED["select_good"])
    selection = _generator(stub).select(QUESTION, OFFERED)
    assert selection.keys == ("S3", "S1")
    assert selection.provider.startswith("openai_compatible:127.0.0.1:")
    assert selection.model == "gpt-4o-2024-08-06 (system_fingerprint fp_7568d46099)"
    messages = stub.received[0].body["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM}
    assert QUESTION in messages[1]["content"]
    assert render_spans(OFFERED) in messages[1]["content"]


def test_write_offers_only_the_selected_spans_and_parses_claims(stub: StubServer) -> None:
    stub.script(RECORDED["write_good"])
    generation = _generator(stub).write(QUESTION, SELECTED)
    assert [claim.span_keys for claim in generation.claims] == [("S1", "S3")]
    assert "$2 million" in generation.claims[0].text
    assert generation.premise_rejected is False
    assert generation.seed == 7
    assert generation.model.startswith("gpt-4o-2024-08-06")
    assert "[S2]" not in stub.received[0].body["messages"][1]["content"]


def test_a_claim_citing_a_key_not_offered_rejects_the_whole_reply(stub: StubServer) -> None:
    stub.script(RECORDED["write_unoffered_key"])
    with pytest.raises(SchemaViolation, match=r"cites 'S2', which was not offered \(offered: S1, S3\)"):
        _generator(stub).write(QUESTION, SELECTED)


def test_a_reply_that_carries_quote_text_is_rejected(stub: StubServer) -> None:
    stub.script(RECORDED["write_quote_field"])
    with pytest.raises(SchemaViolation, match="outside the schema: quote"):
        _generator(stub).write(QUESTION, SELECTED)


def test_prose_instead_of_json_is_an_error_not_a_claim(stub: StubServer) -> None:
    stub.script(RECORDED["write_prose"])
    with pytest.raises(SchemaViolation, match=r"ignored the JSON schema: the reply is not JSON"):
        _generator(stub).write(QUESTION, SELECTED)


def test_a_refusal_is_an_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_refusal"])
    with pytest.raises(GenerationError, match="refused: I can't help"):
        _generator(stub).write(QUESTION, SELECTED)


def test_a_reply_cut_at_the_length_limit_is_an_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_truncated"])
    with pytest.raises(GenerationError, match="length limit"):
        _generator(stub).write(QUESTION, SELECTED)


def test_an_http_error_names_the_status_and_what_to_check(stub: StubServer) -> None:
    stub.script(RECORDED["write_schema_rejected"])
    with pytest.raises(GenerationError, match=r"HTTP 400 .*Invalid schema.*json_schema structured output"):
        _generator(stub).write(QUESTION, SELECTED)


def test_no_spans_sends_no_request(stub: StubServer) -> None:
    generator = _generator(stub)
    assert generator.select(QUESTION, []).keys == ()
    assert generator.write(QUESTION, []).claims == ()
    assert stub.received == []


def test_an_unreachable_server_is_an_error_naming_the_setting() -> None:
    generator = OpenAICompatibleGenerator("http://127.0.0.1:9/v1", MODEL, "k", timeout=2, max_retries=0)
    with pytest.raises(GenerationError, match="ASAT_GENERATION_BASE_URL"):
        generator.select(QUESTION, OFFERED)
