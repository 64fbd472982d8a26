from __future__ import annotations

import pytest

from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.port import GenerationError
from asat_research.generation.reply_parser import SchemaViolation
from services.research.tests.generation.spans import OFFERED, QUESTION, SELECTED
from services.research.tests.generation.stub_server import StubServer, load_exchanges

RECORDED = load_exchanges("aggregator")
MODEL = "meta-llama/llama-3.3-70b-instruct"


def _generator(stub: StubServer) -> AggregatorGenerator:
    return AggregatorGenerator(f"{stub.url}/api/v1", MODEL, "test-key", seed=7, timeout=5, max_retries=0)


def test_select_asks_for_providers_that_honour_every_parameter_and_records_the_upstream(stub: StubServer) -> None:
    stub.script(RECORDED["select_good"])
    selection = _generator(stub).select(QUESTION, OFFERED)
    assert selection.keys == ("S3", "S1")
    assert selection.provider.startswith("aggregator:127.0.0.1:")
    assert selection.provider.endswith("/DeepInfra")
    assert selection.model == MODEL


def test_write_parses_claims_and_records_provider_model_and_seed(stub: StubServer) -> None:
    stub.script(RECORDED["write_good"])
    generation = _generator(stub).write(QUESTION, SELECTED)
    assert [claim.span_keys for claim in generation.claims] == [("S1", "S3")]
    assert (generation.provider.endswith("/DeepInfra"), generation.model, generation.seed) == (True, MODEL, 7)


@pytest.mark.parametrize(
    ("exchange", "upstream", "reason"),
    [
        ("write_fenced", "Lepton", "the reply is not JSON"),
        ("write_prose", "Lepton", "the reply is not JSON"),
        ("write_extra_keys", "Novita", "fields outside the schema: answer"),
        ("write_unoffered_key", "Together", "cites 'S2', which was not offered"),
    ],
)
def test_a_provider_that_dropped_the_schema_is_named_and_its_reply_discarded(
    stub: StubServer, exchange: str, upstream: str, reason: str
) -> None:
    stub.script(RECORDED[exchange])
    with pytest.raises(SchemaViolation) as caught:
        _generator(stub).write(QUESTION, SELECTED)
    message = str(caught.value)
    assert f"/{upstream} (model {MODEL}) ignored the JSON schema" in message
    assert reason in message
    assert "discarded, not repaired" in message


def test_no_provider_honouring_the_parameters_is_an_http_error(stub: StubServer) -> None:
    stub.script(RECORDED["write_no_endpoint"])
    with pytest.raises(GenerationError, match=r"HTTP 404 .*No endpoints found"):
        _generator(stub).write(QUESTION, SELECTED)
