"""The ingest service over a small real slice of the corpus (ABN Act 2015), hash embedder.

The embedder here is the test-only hash embedder so the test is fast; the MiniLM adapter runs
its own contract suite in test_embedders.py, and the full build is a benchmark.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_ingest.app import MAX_BODY_BYTES, create_app
from asat_ingest.composition import config_from_env
from asat_ingest.runtime import IngestRuntime

pytestmark = pytest.mark.corpus
ACT = "abn1999"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> CorpusBuild:
    return load_corpus(acts=[ACT], include_rulings=False, cache_dir=tmp_path_factory.mktemp("corpus-cache"))


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    return {
        "ASAT_INDEX_DIR": str(tmp_path / "index"),
        "ASAT_VECTOR_CACHE_DIR": str(tmp_path / "cache"),
        "ASAT_EMBEDDER": "hash",
        "ASAT_INDEX_ACTS": ACT,
        "ASAT_INDEX_RULINGS": "none",
    }


@pytest.fixture()
def runtime(corpus: CorpusBuild, env: dict[str, str]) -> Iterator[IngestRuntime]:
    runtime = IngestRuntime(config_from_env(env), corpus)
    yield runtime
    runtime.close()


def _wait(client: TestClient, build_id: str) -> dict[str, object]:
    for _ in range(600):
        body: dict[str, object] = client.get(f"/v1/builds/{build_id}").json()
        if body["state"] in ("succeeded", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError("build did not finish")


def test_missing_index_is_a_clear_503_naming_what_to_run(runtime: IngestRuntime) -> None:
    client = TestClient(create_app(runtime))
    health = client.get("/healthz")
    assert health.status_code == 503 and "python -m asat_ingest build" in health.json()["message"]
    search = client.post("/v1/search", json={"query": "australian business number", "income_year": 2015})
    assert search.status_code == 503 and "asat_ingest build" in search.json()["message"]


def test_build_then_search_within_the_income_year(runtime: IngestRuntime, corpus: CorpusBuild) -> None:
    client = TestClient(create_app(runtime))
    started = client.post("/v1/builds")
    assert started.status_code == 202
    job = _wait(client, started.json()["id"])
    assert job["state"] == "succeeded", job
    assert client.get("/healthz").status_code == 200
    info = client.get("/v1/index").json()
    # The generation the index is stamped with is the one the corpus CLI reports for this scope.
    assert info["corpus_generation"] == corpus.generation(runtime.config.vector_config, runtime.config.scope)
    assert info["state"] == "ready" and info["points"] > 0
    reply = client.post("/v1/search", json={"query": "entitlement to an ABN", "income_year": 2015, "limit": 5})
    assert reply.status_code == 200
    hits = reply.json()["hits"]
    assert hits and all(2015 in h["payload"]["income_years"] for h in hits)
    assert all(-1.0 <= h["dense_score"] <= 1.0 for h in hits)
    assert all("embed_text" not in h["payload"] for h in hits)
    # ABN Act 2015-only text is certain only around its compilation date: nothing in 2020.
    later = client.post("/v1/search", json={"query": "entitlement to an ABN", "income_year": 2020})
    assert later.status_code == 200 and later.json()["hits"] == []


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"query": "", "income_year": 2015}, 422, "empty"),
        ({"query": "   ", "income_year": 2015}, 422, "empty"),
        ({"query": "abn", "income_year": 1899}, 422, "outside 1900-2100"),
        ({"query": "abn", "income_year": 2101}, 422, "outside 1900-2100"),
        ({"query": "abn", "income_year": 2015, "acts": ["nzta2007"]}, 400, "unknown act"),
        ({"query": "abn"}, 422, "income_year"),
        ({"query": "abn", "income_year": "soon"}, 422, "income_year"),
    ],
)
def test_bad_input_is_a_clear_4xx(runtime: IngestRuntime, body: dict[str, object], status: int, words: str) -> None:
    client = TestClient(create_app(runtime))
    reply = client.post("/v1/search", json=body)
    assert reply.status_code == status
    assert words in reply.json()["message"]


def test_a_second_build_while_one_runs_is_refused(runtime: IngestRuntime) -> None:
    client = TestClient(create_app(runtime))
    first = client.post("/v1/builds").json()["id"]
    second = client.post("/v1/builds")
    if second.status_code == 202:  # the first finished already; the refusal is then untestable this way
        _wait(client, second.json()["id"])
    else:
        assert second.status_code == 409 and first in second.json()["message"]
    _wait(client, first)
    assert client.get("/v1/builds/nope").status_code == 404


def test_stale_index_is_refused(runtime: IngestRuntime, corpus: CorpusBuild, env: dict[str, str]) -> None:
    client = TestClient(create_app(runtime))
    _wait(client, client.post("/v1/builds").json()["id"])
    runtime.close()
    # The corpus changed since the build (one provision fewer): the index is stale.
    fewer = dict(list(corpus.timelines.items())[1:])
    changed = IngestRuntime(config_from_env(env), replace(corpus, timelines=fewer))
    try:
        client = TestClient(create_app(changed))
        reply = client.post("/v1/search", json={"query": "abn", "income_year": 2015})
        assert reply.status_code == 503 and "asat_ingest build" in reply.json()["message"]
        assert client.get("/v1/index").json()["state"] == "stale"
    finally:
        changed.close()


def test_a_body_over_the_limit_is_413_naming_it(runtime: IngestRuntime) -> None:
    client = TestClient(create_app(runtime))
    body = b'{"query": "' + b"q" * MAX_BODY_BYTES + b'", "income_year": 2020}'
    response = client.post("/v1/search", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert (response.json()["limit"], response.json()["maximum"]) == ("max_body_bytes", MAX_BODY_BYTES)
