"""Schemathesis over ingest's OpenAPI, in process: every reply matches its documented model.

The app serves a real index of the ABN Act (the test-only hash embedder, as in ``test_service``),
built before the run; a few examples per route keep it short.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import cast

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.types import Receive, Scope, Send

from asat_corpus.corpus_build import load_corpus
from asat_ingest.app import create_app
from asat_ingest.composition import config_from_env
from asat_ingest.runtime import IngestRuntime

pytestmark = pytest.mark.corpus
ACT = "abn1999"


class _Ingest:
    """The ingest app: its schema before the index exists, every route over the index once built."""

    def __init__(self) -> None:
        self.shape = create_app(cast(IngestRuntime, None))  # the routes and models only
        self.app: FastAPI | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await (self.app or self.shape)(scope, receive, send)


INGEST = _Ingest()
schema = schemathesis.openapi.from_asgi("/openapi.json", INGEST)


def _settle(runtime: IngestRuntime) -> None:
    for _ in range(1200):
        if not runtime.building:
            return
        time.sleep(0.05)
    raise AssertionError("a build did not finish")


@pytest.fixture(scope="module")
def ingest_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.mktemp("fuzz-index")
    env = {
        "ASAT_INDEX_DIR": str(root / "index"),
        "ASAT_VECTOR_CACHE_DIR": str(root / "cache"),
        "ASAT_EMBEDDER": "hash",
        "ASAT_INDEX_ACTS": ACT,
        "ASAT_INDEX_RULINGS": "none",
    }
    corpus = load_corpus(acts=[ACT], include_rulings=False, cache_dir=root / "corpus-cache")
    runtime = IngestRuntime(config_from_env(env), corpus)
    app = create_app(runtime)
    assert TestClient(app).post("/v1/builds").status_code == 202
    _settle(runtime)
    INGEST.app = app
    yield
    INGEST.app = None
    _settle(runtime)  # a build the run started
    runtime.close()


@schema.parametrize()
@settings(max_examples=8, deadline=None)
def test_every_reply_matches_the_documented_model(ingest_index: None, case: schemathesis.Case) -> None:
    case.call_and_validate(
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    )
