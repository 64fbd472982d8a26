"""Service-to-service authentication, end to end in process: ingest and the verifier built with
the service token, research's clients sending it, research itself guarded by it.

Research answers ``POST /v1/research`` (and every route but ``/healthz``) only with
``Authorization: Bearer <token>`` (none or a wrong one: 401); a research whose clients lack the
token is refused by ingest, which research reports as a 502 naming ingest; ``python -m
asat_research serve`` and ``build_service`` refuse to start without ``ASAT_SERVICE_TOKEN``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from asat_audit.memory_store import InMemoryAuditStore
from asat_corpus.contracts.verification import VerificationRequest
from asat_corpus.corpus_build import load_corpus
from asat_corpus.index_scope import index_scope_from_env
from asat_corpus.vector_config import vector_config_from_env
from asat_ingest.app import create_app as create_ingest_app
from asat_ingest.composition import config_from_env
from asat_ingest.runtime import IngestRuntime
from asat_research.api import create_app
from asat_research.composition import ResearchConfigError, build_service
from asat_research.corpus_view import CorpusView
from asat_research.gate import GateConfig
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.pipeline import PipelineSettings, ResearchPipeline, ResearchPorts
from asat_research.rerank import EmbeddingCosineReranker
from asat_research.retrieval_http import HttpRetriever
from asat_research.verifier_client import HttpVerifierClient
from asat_verifier.composition import create_app as create_verifier_app
from asat_verifier.config import VerifierConfig

pytestmark = pytest.mark.corpus

TOKEN = "research-test-token-" + "r" * 24
WRONG = "W" * 44
ENV = {"ASAT_EMBEDDER": "hash", "ASAT_INDEX_ACTS": "abn1999", "ASAT_INDEX_RULINGS": "none"}
ASK = {"question": "Who is entitled to an ABN?", "income_year": 2015}


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


class Guarded:
    """Ingest and the verifier, both requiring ``TOKEN``; research's pipeline over them."""

    def __init__(self, root: Path) -> None:
        corpus = load_corpus(acts=["abn1999"], include_rulings=False, cache_dir=root / "corpus-cache")
        env = ENV | {"ASAT_INDEX_DIR": str(root / "index"), "ASAT_VECTOR_CACHE_DIR": str(root / "cache")}
        self.runtime = IngestRuntime(config_from_env(env), corpus)
        self.ingest = TestClient(create_ingest_app(self.runtime, service_token=TOKEN), base_url="http://ingest")
        job = self.ingest.post("/v1/builds", headers=_bearer(TOKEN)).json()["id"]
        for _ in range(1200):
            if self.ingest.get(f"/v1/builds/{job}", headers=_bearer(TOKEN)).json()["state"] in ("succeeded", "failed"):
                break
            time.sleep(0.05)
        assert self.ingest.get("/healthz").status_code == 200
        self.verifier = TestClient(
            create_verifier_app(VerifierConfig(), service_token=TOKEN), base_url="http://verifier"
        )
        self.view = CorpusView(corpus, index_scope_from_env(env), vector_config_from_env(env))

    def pipeline(self, client_token: str | None) -> ResearchPipeline:
        ports = ResearchPorts(
            retriever=HttpRetriever("http://ingest", client=self.ingest, service_token=client_token),
            verifier=HttpVerifierClient("http://verifier", client=self.verifier, service_token=client_token),
            generator=ExtractiveGenerator(),
            reranker=EmbeddingCosineReranker(),
            audit=InMemoryAuditStore(),
            corpus=self.view,
        )
        return ResearchPipeline(ports, PipelineSettings(gate=GateConfig(min_score=0.0)))


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guarded]:
    built = Guarded(tmp_path_factory.mktemp("guarded"))
    yield built
    built.runtime.close()


@pytest.fixture(scope="module")
def research(guarded: Guarded) -> Iterator[TestClient]:
    with TestClient(create_app(guarded.pipeline(TOKEN), service_token=TOKEN)) as client:
        yield client


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/v1/research"), ("POST", "/v1/research/stream"), ("POST", "/v1/period"), ("GET", "/v1/audit")],
)
def test_a_route_without_the_token_is_401(research: TestClient, method: str, path: str) -> None:
    reply = research.request(method, path, json=ASK if method == "POST" else None)
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"] == "Bearer"
    assert reply.json()["error"] == "unauthenticated" and "ASAT_SERVICE_TOKEN" in reply.json()["message"]


def test_a_wrong_token_is_401(research: TestClient) -> None:
    reply = research.post("/v1/research", json=ASK, headers=_bearer(WRONG))
    assert reply.status_code == 401 and reply.json()["error"] == "unauthenticated"


def test_the_token_gets_an_answer_through_guarded_ingest_and_verifier(research: TestClient) -> None:
    reply = research.post("/v1/research", json=ASK, headers=_bearer(TOKEN))
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["decision"] and body["audit_id"] >= 1
    audit = research.get("/v1/audit", params={"last": 5}, headers=_bearer(TOKEN))
    assert audit.status_code == 200 and audit.json()["entries"]


def test_healthz_is_open(research: TestClient) -> None:
    assert research.get("/healthz").status_code == 200


def test_a_research_whose_clients_lack_the_token_is_refused_by_ingest(guarded: Guarded) -> None:
    with TestClient(create_app(guarded.pipeline(None), service_token=TOKEN)) as client:
        reply = client.post("/v1/research", json=ASK, headers=_bearer(TOKEN))
    assert reply.status_code == 502
    assert reply.json()["dependency"] == "ingest"
    assert "401" in reply.json()["message"] and "service token" in reply.json()["message"]


def test_the_clients_send_the_token_on_every_request() -> None:
    seen: list[str | None] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("authorization"))
        return httpx.Response(503, json={"error": "index_unavailable", "message": "not now"})

    stub = httpx.Client(transport=httpx.MockTransport(record), base_url="http://stub")
    for client in (
        HttpRetriever("http://stub", client=stub, service_token=TOKEN),
        HttpVerifierClient("http://stub", client=stub, service_token=TOKEN),
    ):
        with pytest.raises(Exception, match="503"):
            if isinstance(client, HttpRetriever):
                client.search("abn", 2015, 5)
            else:
                client.verify(VerificationRequest(claims=[], sources=[], retrieved_source_ids=[]))
    assert seen == [f"Bearer {TOKEN}", f"Bearer {TOKEN}"]


def test_serve_refuses_to_start_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from asat_research.__main__ import main

    monkeypatch.delenv("ASAT_SERVICE_TOKEN", raising=False)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_SERVICE_TOKEN is not set") and "Traceback" not in err


def test_build_service_refuses_to_start_without_the_token() -> None:
    with pytest.raises(ResearchConfigError, match="ASAT_SERVICE_TOKEN is not set"):
        build_service({"ASAT_DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"}, audit=InMemoryAuditStore())
    with pytest.raises(ResearchConfigError, match="ASAT_SERVICE_TOKEN is 5 characters"):
        build_service({"ASAT_SERVICE_TOKEN": "short"}, audit=InMemoryAuditStore())
