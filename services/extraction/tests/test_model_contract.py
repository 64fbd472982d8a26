"""The extractor contract, run against each model adapter with a stub server answering the right fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_extraction.extractor.port import Extractor
from asat_extraction.model.anthropic_adapter import AnthropicTransport
from asat_extraction.model.extractor import ModelExtractor
from asat_extraction.model.ollama_adapter import OllamaTransport
from asat_extraction.model.openai_adapter import OpenAITransport
from asat_extraction.testing.extractor_contract import ExtractorContract
from asat_extraction.testing.stub_server import StubServer, load_exchanges

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "model"


def answering(stub: StubServer, fixture: str) -> StubServer:
    stub.always(load_exchanges(FIXTURES / f"{fixture}.json")["invoice_good"])
    return stub


class TestOpenAIContract(ExtractorContract):
    @pytest.fixture
    def extractor(self, stub: StubServer) -> Extractor:
        answering(stub, "openai")
        return ModelExtractor(OpenAITransport(f"{stub.url}/v1", "gpt-4o-2024-08-06", "test-key", timeout=5))


class TestAnthropicContract(ExtractorContract):
    @pytest.fixture
    def extractor(self, stub: StubServer) -> Extractor:
        answering(stub, "anthropic")
        return ModelExtractor(AnthropicTransport(stub.url, "claude-sonnet-4-5", "test-key", timeout=5))


class TestOllamaContract(ExtractorContract):
    @pytest.fixture
    def extractor(self, stub: StubServer) -> Extractor:
        answering(stub, "ollama")
        return ModelExtractor(OllamaTransport(stub.url, "llama3.2-vision", timeout=5))
