"""OpenAI-compatible and Ollama embedders against a local stub speaking their wire formats."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asat_ingest.embedder import EmbedderError
from asat_ingest.ollama_embedder import OllamaEmbedder
from asat_ingest.openai_embedder import OpenAICompatibleEmbedder
from asat_ingest.testing.embedder_contract import EmbedderContract
from asat_ingest.testing.embedding_stub_server import EmbeddingStubServer

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def stub() -> Iterator[EmbeddingStubServer]:
    server = EmbeddingStubServer(dim=12).start()
    yield server
    server.stop()


@pytest.fixture
def fresh_stub(stub: EmbeddingStubServer) -> EmbeddingStubServer:
    stub.requests.clear()
    stub.replies.clear()
    return stub


def _pair(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


class TestOpenAICompatibleEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, fresh_stub: EmbeddingStubServer) -> OpenAICompatibleEmbedder:
        return OpenAICompatibleEmbedder(fresh_stub.base_url + "/v1", "stub-model", dim=12, batch_size=3)


class TestOllamaEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, fresh_stub: EmbeddingStubServer) -> OllamaEmbedder:
        return OllamaEmbedder("stub-model", dim=12, base_url=fresh_stub.base_url, batch_size=3)


def test_openai_recorded_pair(fresh_stub: EmbeddingStubServer) -> None:
    pair = _pair("openai_embeddings_pair.json")
    fresh_stub.replies["/v1/embeddings"] = (pair["response"]["status"], pair["response"]["body"])
    embedder = OpenAICompatibleEmbedder(
        fresh_stub.base_url + "/v1", "text-embedding-3-small", dim=3, api_key="sk-test-key"
    )
    vectors = embedder.embed(pair["request"]["body"]["input"])
    path, body, headers = fresh_stub.requests[-1]
    assert path == pair["request"]["path"]
    assert body == pair["request"]["body"]
    assert headers["authorization"] == pair["request"]["headers"]["authorization"]
    # The reply lists index 1 first: the adapter puts vectors back in input order.
    assert vectors == [[0.0023064255, -0.009327292, 0.015797377], [0.25, -0.5, 0.125]]


def test_ollama_recorded_pair(fresh_stub: EmbeddingStubServer) -> None:
    pair = _pair("ollama_embed_pair.json")
    fresh_stub.replies["/api/embed"] = (pair["response"]["status"], pair["response"]["body"])
    embedder = OllamaEmbedder("nomic-embed-text", dim=3, base_url=fresh_stub.base_url)
    vectors = embedder.embed(pair["request"]["body"]["input"])
    path, body, _ = fresh_stub.requests[-1]
    assert (path, body) == (pair["request"]["path"], pair["request"]["body"])
    assert vectors == pair["response"]["body"]["embeddings"]


def test_batches_are_split(fresh_stub: EmbeddingStubServer) -> None:
    embedder = OllamaEmbedder("m", dim=12, base_url=fresh_stub.base_url, batch_size=2)
    assert len(embedder.embed(["a", "b", "c", "d", "e"])) == 5
    assert [len(body["input"]) for _, body, _ in fresh_stub.requests] == [2, 2, 1]


def test_openai_dimensions_are_requested_when_asked(fresh_stub: EmbeddingStubServer) -> None:
    embedder = OpenAICompatibleEmbedder(fresh_stub.base_url + "/v1", "m", dim=12, request_dimensions=True)
    embedder.embed(["x"])
    assert fresh_stub.requests[-1][1]["dimensions"] == 12


def test_wrong_dimension_is_an_error(fresh_stub: EmbeddingStubServer) -> None:
    with pytest.raises(EmbedderError, match="12-dimensional embeddings but the embedder is configured for 8"):
        OllamaEmbedder("m", dim=8, base_url=fresh_stub.base_url).embed(["x"])


def test_http_error_status_is_reported(fresh_stub: EmbeddingStubServer) -> None:
    fresh_stub.replies["/v1/embeddings"] = (401, {"error": {"message": "Incorrect API key"}})
    with pytest.raises(EmbedderError, match="HTTP 401"):
        OpenAICompatibleEmbedder(fresh_stub.base_url + "/v1", "m", dim=12).embed(["x"])


def test_wrong_count_is_an_error(fresh_stub: EmbeddingStubServer) -> None:
    fresh_stub.replies["/api/embed"] = (200, {"model": "m", "embeddings": [[0.0] * 12]})
    with pytest.raises(EmbedderError, match="returned 1 embeddings for 2 inputs"):
        OllamaEmbedder("m", dim=12, base_url=fresh_stub.base_url).embed(["x", "y"])


def test_unreachable_server_says_what_to_check() -> None:
    embedder = OllamaEmbedder("m", dim=12, base_url="http://127.0.0.1:9", timeout_s=2)
    with pytest.raises(EmbedderError, match="could not be reached"):
        embedder.embed(["x"])


def test_identities_differ_by_model_and_server() -> None:
    a = OllamaEmbedder("m1", dim=12, base_url="http://h:1").identity
    b = OllamaEmbedder("m2", dim=12, base_url="http://h:1").identity
    c = OpenAICompatibleEmbedder("http://h:1/v1", "m1", dim=12).identity
    assert len({a, b, c}) == 3


def test_identities_never_carry_credentials() -> None:
    """The identity keys the vector cache and is stamped on the index: no user:password@ in it."""
    ollama = OllamaEmbedder("m1", dim=12, base_url="http://me:s3cretpass@h:1").identity
    openai = OpenAICompatibleEmbedder("https://me:s3cretpass@h:1/v1", "m1", dim=12).identity
    for identity in (ollama, openai):
        assert "s3cretpass" not in identity and "me@" not in identity and "h:1" in identity
    assert ollama == OllamaEmbedder("m1", dim=12, base_url="http://h:1").identity
