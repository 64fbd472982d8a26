"""Every Generator adapter runs the shared contract (:mod:`.generator_contract`).

The extractive generator asks no model. The four model adapters talk to the stub model server
over real HTTP; each scripted reply is a recorded exchange of ``tests/fixtures/generation`` with
the JSON schema (span keys as an ``enum`` of exactly the keys shown) it must have been sent and
the payload the contract asks for, in that API's wire format.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import Generator
from asat_research.generation.prompts import claims_schema, selection_schema
from asat_research.generation.two_pass import SELECT_SCHEMA_NAME, WRITE_SCHEMA_NAME
from services.research.tests.generation.generator_contract import (
    SELECT,
    GeneratorContract,
    ModelGeneratorContract,
)
from services.research.tests.generation.stub_server import Exchange, StubServer, load_exchanges

NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens
PROSE = "An entity with turnover under $2 million was a small business entity."


def _schema(pass_: str, keys: Sequence[str]) -> tuple[str, dict[str, Any]]:
    if pass_ == SELECT:
        return SELECT_SCHEMA_NAME, selection_schema(keys)
    return WRITE_SCHEMA_NAME, claims_schema(keys)


class TestExtractiveGenerator(GeneratorContract):
    @pytest.fixture
    def generator(self) -> Generator:
        return ExtractiveGenerator()


class _StubbedModel(ModelGeneratorContract):
    """A model adapter against the stub: replies are recorded exchanges, re-scripted per pass."""

    fixture: str  # tests/fixtures/generation/<fixture>.json
    _stub: StubServer

    def make(self, base: str) -> Generator:
        raise NotImplementedError

    def request_schema(self, body: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
        """Put the schema the request must carry where this API carries it."""
        raise NotImplementedError

    def reply(self, body: dict[str, Any], name: str, payload: Mapping[str, Any] | str) -> None:
        """Put the model's payload (JSON, or prose) where this API's reply carries it."""
        raise NotImplementedError

    def error_body(self) -> dict[str, Any]:
        raise NotImplementedError

    @pytest.fixture
    def generator(self, stub: StubServer) -> Generator:
        self._stub = stub
        return self.make(stub.url)

    def unreachable(self) -> Generator:
        return self.make(NOWHERE)

    def _exchange(self, pass_: str, keys: Sequence[str], payload: Mapping[str, Any] | str) -> Exchange:
        recorded = load_exchanges(self.fixture)["select_good" if pass_ == SELECT else "write_good"]
        name, schema = _schema(pass_, keys)
        body_must = copy.deepcopy(recorded.body_must)
        self.request_schema(body_must, name, schema)
        response = copy.deepcopy(recorded.response)
        self.reply(response, name, payload)
        return dataclasses.replace(recorded, name=f"{pass_} {list(keys)}", body_must=body_must, response=response)

    def model_answers(self, pass_: str, keys: Sequence[str], payload: Mapping[str, Any]) -> None:
        self._stub.script(self._exchange(pass_, keys, payload))

    def model_says_prose(self, pass_: str, keys: Sequence[str]) -> None:
        self._stub.script(self._exchange(pass_, keys, PROSE))

    def model_fails(self, pass_: str, keys: Sequence[str]) -> None:
        exchange = self._exchange(pass_, keys, {})
        self._stub.script(dataclasses.replace(exchange, status=500, response=self.error_body()))


class _ChatCompletions(_StubbedModel):
    def request_schema(self, body: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": name, "strict": True, "schema": schema},
        }

    def reply(self, body: dict[str, Any], name: str, payload: Mapping[str, Any] | str) -> None:
        body["choices"][0]["message"]["content"] = payload if isinstance(payload, str) else json.dumps(payload)

    def error_body(self) -> dict[str, Any]:
        return {"error": {"message": "upstream failure", "type": "server_error", "code": None}}


class TestOpenAICompatibleGenerator(_ChatCompletions):
    fixture = "openai_compatible"

    def make(self, base: str) -> Generator:
        return OpenAICompatibleGenerator(
            f"{base}/v1", "gpt-4o-2024-08-06", "test-key", seed=7, timeout=5, max_retries=0
        )


class TestAggregatorGenerator(_ChatCompletions):
    fixture = "aggregator"

    def make(self, base: str) -> Generator:
        return AggregatorGenerator(
            f"{base}/api/v1", "meta-llama/llama-3.3-70b-instruct", "test-key", seed=7, timeout=5, max_retries=0
        )


class TestAnthropicGenerator(_StubbedModel):
    fixture = "anthropic"

    def make(self, base: str) -> Generator:
        return AnthropicGenerator("claude-sonnet-4-5", "test-key", base_url=base, timeout=5, max_retries=0)

    def request_schema(self, body: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
        (tool,) = body["tools"]
        body["tools"] = [{**tool, "name": name, "input_schema": schema}]
        body["tool_choice"] = {**body["tool_choice"], "name": name}

    def reply(self, body: dict[str, Any], name: str, payload: Mapping[str, Any] | str) -> None:
        if isinstance(payload, str):  # text instead of the forced tool call
            body["content"] = [{"type": "text", "text": payload}]
            body["stop_reason"] = "end_turn"
        else:
            body["content"][0].update(name=name, input=dict(payload))

    def error_body(self) -> dict[str, Any]:
        return {"type": "error", "error": {"type": "api_error", "message": "upstream failure"}}


class TestOllamaGenerator(_StubbedModel):
    fixture = "ollama"

    def make(self, base: str) -> Generator:
        return OllamaGenerator("llama3.1:8b", base_url=base, seed=7, timeout=5)

    def request_schema(self, body: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
        body["format"] = schema

    def reply(self, body: dict[str, Any], name: str, payload: Mapping[str, Any] | str) -> None:
        body["message"]["content"] = payload if isinstance(payload, str) else json.dumps(payload)

    def error_body(self) -> dict[str, Any]:
        return {"error": "upstream failure"}
