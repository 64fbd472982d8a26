"""Error replies without a database: every one is the shared ErrorBody (asat_corpus.contracts.errors)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from asat_corpus.contracts.errors import ErrorBody
from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore


def _database_down() -> None:
    raise OSError("connection refused")


def test_database_down_is_503_naming_it(pipeline: Pipeline) -> None:
    client = TestClient(build_app(pipeline, MemoryStore(), max_files=3, database_check=_database_down))
    response = client.get("/healthz")
    assert response.status_code == 503
    body = ErrorBody.model_validate(response.json())
    assert body.error == "dependency_unavailable" and body.dependency == "database (Postgres)"
    assert "connection refused" in body.message


def test_bad_query_and_unknown_id_are_error_bodies(pipeline: Pipeline) -> None:
    client = TestClient(build_app(pipeline, MemoryStore(), max_files=3), headers={PRACTICE_HEADER: "1"})
    bad = client.get("/v1/transactions", params={"limit": "0"})
    assert bad.status_code == 422
    assert ErrorBody.model_validate(bad.json()).details[0].startswith("query.limit: ")
    missing = client.get("/v1/documents/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and ErrorBody.model_validate(missing.json()).error == "not_found"
    assert client.get("/v1/documents/not-a-uuid").status_code == 422
