"""The ingest service serves while it builds (``serve --build-if-needed``, what ``make up`` runs):
``/healthz`` and ``GET /v1/index`` say ``building`` with the build's progress (percentage, rate,
time left), searches are refused as ``index_building``, and a failed build is said in both, with
its error, never hidden. ABN Act slice, hash embedder held back between batches by a gate."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_ingest.app import create_app
from asat_ingest.composition import config_from_env
from asat_ingest.embedder import Embedder, EmbedderError
from asat_ingest.runtime import BuildJob, IngestRuntime

pytestmark = pytest.mark.corpus
ACT = "abn1999"
WAIT_S = 30.0


class GatedEmbedder:
    """The real (hash) embedder, but every call waits for ``release`` first; with ``fail``, it
    raises instead (a model server that stopped answering)."""

    def __init__(self, inner: Embedder, fail: bool = False) -> None:
        self.inner = inner
        self.fail = fail
        self.release = threading.Event()
        self.calls = 0

    @property
    def identity(self) -> str:
        return self.inner.identity

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.fail:
            raise EmbedderError("the embedding server at http://127.0.0.1:9 stopped answering")
        self.release.wait(WAIT_S)
        return self.inner.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed(texts)


def cache_half(runtime: IngestRuntime) -> int:
    """Put half of the build's texts in the vector cache (as an earlier build would have): the
    build reports them done at once, then waits on the embedder for the rest. Returns how many."""
    texts = sorted({item.embed_text for item in runtime.corpus.index_items(runtime.config.scope)})
    half = texts[: len(texts) // 2]
    runtime.cache.put_many(runtime.embedder.identity, half, runtime.embedder.embed(half))
    return len(half)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusBuild:
    return load_corpus(acts=[ACT], include_rulings=False, cache_dir=tmp_path_factory.mktemp("corpus-cache"))


@pytest.fixture()
def lines() -> list[str]:
    return []


@pytest.fixture()
def runtime(corpus: CorpusBuild, tmp_path: Path, lines: list[str]) -> Iterator[IngestRuntime]:
    env = {
        "ASAT_INDEX_DIR": str(tmp_path / "index"),
        "ASAT_VECTOR_CACHE_DIR": str(tmp_path / "cache"),
        "ASAT_EMBEDDER": "hash",
        "ASAT_INDEX_ACTS": ACT,
        "ASAT_INDEX_RULINGS": "none",
    }
    runtime = IngestRuntime(config_from_env(env), corpus, log=lines.append)
    yield runtime
    runtime.close()


def _until(predicate: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if callable(predicate) and predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"not {what} after {WAIT_S:.0f}s")


def test_while_it_builds_healthz_and_the_index_say_how_far_and_searches_wait(
    runtime: IngestRuntime, lines: list[str]
) -> None:
    cached = cache_half(runtime)
    gated = GatedEmbedder(runtime.embedder)
    runtime.embedder = gated
    client = TestClient(create_app(runtime))
    job = runtime.start_build()
    try:
        _until(lambda: gated.calls >= 1, "embedding")  # the cached half is done; the rest waits
        health = client.get("/healthz")
        assert health.status_code == 503
        body = health.json()
        assert (body["status"], body["index"]) == ("building", "building")
        build = body["build"]
        assert build["id"] == job.id and build["state"] == "running" and build["phase"] == "embed"
        assert build["done"] == cached and build["total"] in (2 * cached, 2 * cached + 1)
        assert build["percent"] == pytest.approx(85 * cached / build["total"], abs=0.05)  # embedding: 0-85%
        assert build["rate"] is None and build["seconds_left"] is None  # cached texts are not a rate
        assert body["message"] == (
            f"index building, {int(build['percent'])}% done (embedding texts: {cached:,} of {build['total']:,}; "
            "rate not measured yet; time left not known yet)"
        )
        info = client.get("/v1/index").json()
        assert info["state"] == "building" and info["build"]["id"] == job.id
        assert info["message"] == body["message"]
        search = client.post("/v1/search", json={"query": "apply for an ABN", "income_year": 2015})
        assert search.status_code == 503
        assert search.json()["error"] == "index_building"
        assert "index building" in search.json()["message"] and "nothing is searched" in search.json()["message"]
    finally:
        gated.release.set()
    _until(lambda: not runtime.building, "finished")
    health = client.get("/healthz")
    assert health.status_code == 200, health.json()
    assert health.json()["build"]["state"] == "succeeded" and health.json()["build"]["percent"] == 100
    assert client.post("/v1/search", json={"query": "apply for an ABN", "income_year": 2015}).status_code == 200
    assert any("started" in line for line in lines) and any("index building" in line for line in lines)
    assert "the index build finished" in lines[-1]


def test_a_failed_build_is_said_by_healthz_the_index_and_the_log(runtime: IngestRuntime, lines: list[str]) -> None:
    runtime.embedder = GatedEmbedder(runtime.embedder, fail=True)
    client = TestClient(create_app(runtime))
    runtime.start_build()
    _until(lambda: not runtime.building, "finished")
    health = client.get("/healthz")
    assert health.status_code == 503
    body = health.json()
    assert body["status"] == "unavailable" and body["build"]["state"] == "failed"
    assert "stopped answering" in body["build"]["error"]
    assert body["message"].startswith("the index build failed: EmbedderError: the embedding server")
    info = client.get("/v1/index").json()
    assert info["build"]["state"] == "failed" and info["message"] == body["message"]
    search = client.post("/v1/search", json={"query": "apply for an ABN", "income_year": 2015})
    assert search.status_code == 503 and search.json()["error"] == "index_unavailable"
    assert any("FAILED" in line and "Traceback" in line for line in lines)


def test_a_job_reports_its_rate_from_the_phases_reports_not_the_cached_texts() -> None:
    job = BuildJob(id="b1", state="running")
    job.record("embed", 1000, 3000, now=10.0)  # 1,000 texts from the vector cache, at once
    assert job.report().rate is None and job.report().seconds_left is None
    job.record("embed", 1200, 3000, now=30.0)  # 200 texts in 20 s
    report = job.report()
    assert report.rate == 10.0 and report.seconds_left == 180.0
    assert report.percent == 34.0  # 85% x 1,200 / 3,000
    assert report.message == (
        "index building, 34% done (embedding texts: 1,200 of 3,000; 10 texts/s; about 3 min left)"
    )
    job.record("index", 512, 3000, now=40.0)  # a new phase: its rate starts afresh
    assert job.report().rate is None and job.report().percent == pytest.approx(93.4, abs=0.05)
