"""Ingest or the verifier answering unusably: research answers 502 naming the service, never 500.

A small real stack (the ABN Act slice, the test-only hash embedder, the real ingest and verifier
apps) answers; one of its two HTTP clients is then pointed at a stub (``httpx.MockTransport``)
that sends a reply breaking the contract, or an error status.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from asat_corpus.contracts.research import ResearchOutcome
from asat_corpus.corpus_build import load_corpus
from asat_research.api import create_app
from asat_research.outcome_wire import outcome_json
from asat_research.retrieval_http import HttpRetriever
from asat_research.verifier_client import HttpVerifierClient

from .stack import Stack, build_stack

pytestmark = pytest.mark.corpus

ENV = {"ASAT_EMBEDDER": "hash", "ASAT_INDEX_ACTS": "abn1999", "ASAT_INDEX_RULINGS": "none"}
ASK = {"question": "Who is entitled to an ABN?", "income_year": 2015}
Handler = Callable[[httpx.Request], httpx.Response]


@pytest.fixture(scope="module")
def small_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    corpus = load_corpus(acts=["abn1999"], include_rulings=False, cache_dir=tmp_path_factory.mktemp("corpus-cache"))
    built, runtime = build_stack(corpus, ENV, Path(tmp_path_factory.mktemp("small-stack")))
    yield built
    runtime.close()


def _stub(handler: Handler, calls: list[str]) -> httpx.Client:
    def record(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        return handler(request)

    return httpx.Client(transport=httpx.MockTransport(record), base_url="http://stub")


def _always(status: int, **body: Any) -> Handler:
    return lambda _: httpx.Response(status, **body)


UNUSABLE = [
    pytest.param(_always(200, json={"hits": [{"chunk_id": 1}]}), id="malformed"),
    pytest.param(_always(200, text="<html>proxy</html>"), id="not-json"),
    pytest.param(_always(400, json={"error": "invalid_request", "message": "unknown act(s) x"}), id="400"),
    pytest.param(_always(500, json={"error": "temporal_violation", "message": "hit outside 2015"}), id="500"),
]


def test_the_small_stack_answers_through_both_services(small_stack: Stack) -> None:
    reply = TestClient(create_app(small_stack.pipeline())).post("/v1/research", json=ASK)
    assert reply.status_code == 200, reply.text
    assert reply.json()["decision"]


@pytest.mark.parametrize("handler", UNUSABLE)
def test_an_unusable_ingest_reply_is_a_502_naming_ingest(small_stack: Stack, handler: Handler) -> None:
    calls: list[str] = []
    retriever = HttpRetriever("http://stub", client=_stub(handler, calls))
    client = TestClient(create_app(small_stack.pipeline(retriever=retriever)))
    reply = client.post("/v1/research", json=ASK)
    # The index's readiness first (an unusable reply is not a refusal: the search then says what broke).
    assert calls == ["/v1/index", "/v1/search"]
    assert reply.status_code == 502, reply.text
    body = reply.json()
    assert body["error"] == "dependency_unusable" and body["dependency"] == "ingest"
    assert "the ingest service" in body["message"] and "claims" not in body


@pytest.mark.parametrize(
    "handler",
    [
        pytest.param(_always(200, json={"scorer": "deterministic", "claims": "all fine"}), id="malformed"),
        pytest.param(_always(413, json={"error": "request_too_large", "message": "too many claims"}), id="413"),
        pytest.param(_always(500, text="Internal Server Error"), id="500"),
    ],
)
def test_an_unusable_verifier_reply_is_a_502_naming_the_verifier(small_stack: Stack, handler: Handler) -> None:
    calls: list[str] = []
    verifier = HttpVerifierClient("http://stub", client=_stub(handler, calls))
    client = TestClient(create_app(small_stack.pipeline(verifier=verifier)))
    reply = client.post("/v1/research", json=ASK)
    assert calls == ["/v1/verify"], "the question must reach verification for this test to mean anything"
    assert reply.status_code == 502, reply.text
    body = reply.json()
    assert body["dependency"] == "verifier" and "the verifier" in body["message"]


def test_ingest_answering_503_is_still_unavailable_not_unusable(small_stack: Stack) -> None:
    busy = _always(503, json={"error": "index_unavailable", "message": "the index is being rebuilt"})
    retriever = HttpRetriever("http://stub", client=_stub(busy, []))
    reply = TestClient(create_app(small_stack.pipeline(retriever=retriever))).post("/v1/research", json=ASK)
    assert reply.status_code == 503 and reply.json()["error"] == "dependency_unavailable"
    assert "the index is being rebuilt" in reply.json()["message"]


def test_the_stream_ends_with_a_502_error_event_naming_ingest(small_stack: Stack) -> None:
    retriever = HttpRetriever("http://stub", client=_stub(_always(500, json={"message": "boom"}), []))
    client = TestClient(create_app(small_stack.pipeline(retriever=retriever)))
    with client.stream("POST", "/v1/research/stream", json=ASK) as reply:
        text = "".join(reply.iter_text())
    last = text.strip().split("\n\n")[-1]
    assert last.startswith("event: error") and '"status": 502' in last and '"dependency": "ingest"' in last


def test_index_generation_refuses_a_malformed_index_reply() -> None:
    retriever = HttpRetriever("http://stub", client=_stub(_always(200, json={"state": "ready"}), []))
    with pytest.raises(Exception, match="not a IndexInfo") as caught:
        retriever.index_generation()
    assert getattr(caught.value, "service", None) == "ingest"


def test_the_outcome_contract_refuses_answered_that_disagrees_with_the_decision(small_stack: Stack) -> None:
    body = outcome_json(small_stack.pipeline().answer(str(ASK["question"]), 2015))
    assert ResearchOutcome.model_validate(body).model_dump(mode="json") == body
    with pytest.raises(ValidationError, match="must agree"):
        ResearchOutcome.model_validate(body | {"answered": not body["answered"]})
