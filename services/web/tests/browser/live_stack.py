"""The real services for the browser tests, on free 127.0.0.1 ports in background threads.

Research runs for real (uvicorn) over the ITAA 1997 Division 328 slice of the corpus, MiniLM,
a Qdrant Edge index served by the real ingest app and the real verifier app (both in-process
through TestClient), the extractive generator and an in-memory audit log. The web app runs
with uvicorn on another port and talks to research over HTTP.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_audit.memory_store import InMemoryAuditStore
from asat_corpus.corpus_build import load_corpus
from asat_corpus.index_scope import index_scope_from_env
from asat_corpus.vector_config import vector_config_from_env
from asat_ingest.app import create_app as create_ingest_app
from asat_ingest.composition import config_from_env
from asat_ingest.runtime import IngestRuntime
from asat_research.api import create_app as create_research_app
from asat_research.corpus_view import CorpusView
from asat_research.gate import GateConfig
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.pipeline import PipelineSettings, ResearchPipeline, ResearchPorts
from asat_research.rerank import EmbeddingCosineReranker
from asat_research.retrieval_http import HttpRetriever
from asat_research.verifier_client import HttpVerifierClient
from asat_verifier.composition import create_app as create_verifier_app
from asat_web.settings import WebSettings

from .signing_in import browser_web_app

ENV = {"ASAT_EMBEDDER": "minilm", "ASAT_INDEX_ACTS": "itaa1997", "ASAT_INDEX_RULINGS": "none"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    else:
        raise RuntimeError(f"uvicorn did not start on {url}")
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def research_pipeline(root: Path) -> Iterator[ResearchPipeline]:
    full = load_corpus(acts=["itaa1997"], include_rulings=False)
    division_328 = {k: v for k, v in full.timelines.items() if k[1].startswith("328-")}
    corpus = replace(full, timelines=division_328)
    env = ENV | {"ASAT_INDEX_DIR": str(root / "index"), "ASAT_VECTOR_CACHE_DIR": str(root / "cache")}
    runtime = IngestRuntime(config_from_env(env), corpus)
    try:
        ingest = TestClient(create_ingest_app(runtime), base_url="http://ingest")
        job = ingest.post("/v1/builds").json()["id"]
        for _ in range(1200):
            if ingest.get(f"/v1/builds/{job}").json()["state"] in ("succeeded", "failed"):
                break
            time.sleep(0.1)
        if ingest.get("/healthz").status_code != 200:
            raise RuntimeError(f"the index build did not succeed: {ingest.get(f'/v1/builds/{job}').json()}")
        verifier = TestClient(create_verifier_app(), base_url="http://verifier")
        ports = ResearchPorts(
            retriever=HttpRetriever("http://ingest", client=ingest),
            verifier=HttpVerifierClient("http://verifier", client=verifier),
            generator=ExtractiveGenerator(),
            reranker=EmbeddingCosineReranker(),
            audit=InMemoryAuditStore(),
            corpus=CorpusView(corpus, index_scope_from_env(env), vector_config_from_env(env)),
        )
        yield ResearchPipeline(ports, PipelineSettings(gate=GateConfig(min_score=0.3)))
    finally:
        runtime.close()


@contextmanager
def live_services(root: Path) -> Iterator[tuple[str, str]]:
    """(research URL, web URL), both serving until the context ends. The web has its own accounts
    store: a browser signs in with ``signing_in.sign_in`` first."""
    with research_pipeline(root) as pipeline, serve(create_research_app(pipeline)) as research_url:
        settings = WebSettings(research_url=research_url)
        research = httpx.AsyncClient(base_url=research_url, timeout=120)
        with serve(browser_web_app(research, settings)) as web_url:
            yield research_url, web_url
