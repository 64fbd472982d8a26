"""Service-to-service authentication: ingest built with a service token answers its routes only
with ``Authorization: Bearer <token>`` (none or a wrong one: 401); ``/healthz`` stays open (the
stack's health probe); ``python -m asat_ingest serve`` refuses to start without the token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asat_corpus.corpus_build import load_corpus
from asat_ingest.app import create_app
from asat_ingest.cli import main
from asat_ingest.composition import config_from_env
from asat_ingest.runtime import IngestRuntime

pytestmark = pytest.mark.corpus
TOKEN = "ingest-test-token-" + "i" * 26
SEARCH = {"query": "australian business number", "income_year": 2015}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    root = tmp_path_factory.mktemp("ingest-token")
    corpus = load_corpus(acts=["abn1999"], include_rulings=False, cache_dir=root / "corpus-cache")
    env = {
        "ASAT_INDEX_DIR": str(root / "index"),
        "ASAT_VECTOR_CACHE_DIR": str(root / "cache"),
        "ASAT_EMBEDDER": "hash",
        "ASAT_INDEX_ACTS": "abn1999",
        "ASAT_INDEX_RULINGS": "none",
    }
    runtime = IngestRuntime(config_from_env(env), corpus)
    try:
        with TestClient(create_app(runtime, service_token=TOKEN)) as test_client:
            yield test_client
    finally:
        runtime.close()


@pytest.mark.parametrize(("method", "path"), [("GET", "/v1/index"), ("POST", "/v1/search"), ("POST", "/v1/builds")])
def test_a_route_without_the_token_is_401(client: TestClient, method: str, path: str) -> None:
    reply = client.request(method, path, json=SEARCH if path == "/v1/search" else None)
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"] == "Bearer"
    assert reply.json()["error"] == "unauthenticated" and "ASAT_SERVICE_TOKEN" in reply.json()["message"]


def test_a_wrong_token_is_401(client: TestClient) -> None:
    reply = client.get("/v1/index", headers={"authorization": "Bearer " + "w" * 44})
    assert reply.status_code == 401 and reply.json()["error"] == "unauthenticated"


def test_the_token_gets_the_normal_reply(client: TestClient) -> None:
    bearer = {"authorization": f"Bearer {TOKEN}"}
    index = client.get("/v1/index", headers=bearer)
    assert index.status_code == 200 and index.json()["state"] == "missing"
    search = client.post("/v1/search", json=SEARCH, headers=bearer)  # the route's own answer: no index yet
    assert search.status_code == 503 and search.json()["error"] == "index_unavailable"


def test_healthz_is_open(client: TestClient) -> None:
    health = client.get("/healthz")
    assert health.status_code == 503 and health.json()["index"] == "missing"  # answered, not refused


def test_serve_refuses_to_start_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.delenv("ASAT_SERVICE_TOKEN", raising=False)
    monkeypatch.setenv("ASAT_INDEX_DIR", str(tmp_path / "index"))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_SERVICE_TOKEN is not set") and "Traceback" not in err
