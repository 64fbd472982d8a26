"""A real research stack in-process for tests: the ITAA 1997 Division 328 slice of the corpus,
MiniLM embeddings, a Qdrant Edge index served by the real ingest app, and the real verifier app,
reached over HTTP through FastAPI test clients. Built once per test session.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asat_audit.memory_store import InMemoryAuditStore
from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_corpus.index_scope import index_scope_from_env
from asat_corpus.vector_config import vector_config_from_env
from asat_ingest.app import create_app as create_ingest_app
from asat_ingest.composition import config_from_env
from asat_ingest.runtime import IngestRuntime
from asat_research.corpus_view import CorpusView
from asat_research.gate import GateConfig
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.port import Generator
from asat_research.pipeline import PipelineSettings, ResearchPipeline, ResearchPorts
from asat_research.rerank import EmbeddingCosineReranker
from asat_research.retrieval_http import HttpRetriever
from asat_research.verifier_client import HttpVerifierClient
from asat_verifier.composition import create_app as create_verifier_app

ENV = {"ASAT_EMBEDDER": "minilm", "ASAT_INDEX_ACTS": "itaa1997", "ASAT_INDEX_RULINGS": "none"}
QUESTION = "What aggregated turnover made a business a small business entity?"


@dataclass
class Stack:
    corpus: CorpusBuild
    view: CorpusView
    retriever: HttpRetriever
    verifier: HttpVerifierClient
    audit: InMemoryAuditStore

    def pipeline(self, generator: Generator | None = None, **ports: object) -> ResearchPipeline:
        base = ResearchPorts(
            retriever=self.retriever,
            verifier=self.verifier,
            generator=generator or ExtractiveGenerator(),
            reranker=EmbeddingCosineReranker(),
            audit=self.audit,
            corpus=self.view,
        )
        return ResearchPipeline(replace(base, **ports), PipelineSettings(gate=GateConfig(min_score=0.3)))


def build_stack(corpus: CorpusBuild, env: dict[str, str], root: Path) -> tuple[Stack, IngestRuntime]:
    """Index ``corpus`` with the real ingest app under ``root`` and wire the real verifier; the
    caller closes the runtime."""
    env = env | {"ASAT_INDEX_DIR": str(root / "index"), "ASAT_VECTOR_CACHE_DIR": str(root / "cache")}
    runtime = IngestRuntime(config_from_env(env), corpus)
    ingest = TestClient(create_ingest_app(runtime), base_url="http://ingest")
    job = ingest.post("/v1/builds").json()["id"]
    for _ in range(1200):
        if ingest.get(f"/v1/builds/{job}").json()["state"] in ("succeeded", "failed"):
            break
        time.sleep(0.1)
    assert ingest.get("/healthz").status_code == 200
    verifier = TestClient(create_verifier_app(), base_url="http://verifier")
    view = CorpusView(corpus, index_scope_from_env(env), vector_config_from_env(env))
    stack = Stack(
        corpus=corpus,
        view=view,
        retriever=HttpRetriever("http://ingest", client=ingest),
        verifier=HttpVerifierClient("http://verifier", client=verifier),
        audit=InMemoryAuditStore(),
    )
    return stack, runtime


def session_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The Division 328 stack, built once per session by the ``stack`` fixture in conftest."""
    full = load_corpus(acts=["itaa1997"], include_rulings=False)
    division_328 = {k: v for k, v in full.timelines.items() if k[1].startswith("328-")}
    built, runtime = build_stack(replace(full, timelines=division_328), ENV, tmp_path_factory.mktemp("stack"))
    yield built
    runtime.close()
