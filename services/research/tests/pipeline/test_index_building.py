"""A question asked while the index is being built gets "index building, n% done", never an
answer from a partial index: ``POST /v1/research``, its stream and across-years are refused before
anything runs (503 ``index_building``, ``Retry-After``, the build in ``build``; nothing searched,
generated or audited); ``/healthz`` says ``building``; ``GET /v1/index/status`` gives the progress;
a failed build is a 503 ``index_build_failed`` naming its error. Over the ports of ``fakes.py``."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asat_corpus.contracts.research import ResearchHealth, UnavailableBody
from asat_corpus.contracts.search import IndexBuild, IndexReadiness
from asat_research.api import create_app

from .fakes import Fakes, fakes

QUESTION = "What aggregated turnover made a business a small business entity?"
MESSAGE = "index building, 42% done (embedding texts: 13,533 of 29,000; 8.1 texts/s; about 31 min left)"


def build(**changes: Any) -> IndexBuild:
    running: dict[str, Any] = {
        "id": "b1",
        "state": "running",
        "phase": "embed",
        "done": 13_533,
        "total": 29_000,
        "percent": 42.0,
        "rate": 8.1,
        "seconds_left": 1860.0,
        "started": time.time() - 600,
        "finished": None,
        "error": None,
        "message": MESSAGE,
    }
    return IndexBuild.model_validate(running | changes)


FAILED = build(
    state="failed",
    finished=time.time(),
    error="EmbedderError: the embedding server stopped answering\nTraceback ...",
    message="the index build failed: EmbedderError: the embedding server stopped answering",
)


def client_over(f: Fakes) -> TestClient:
    return TestClient(create_app(f.pipeline()))


def nothing_ran(f: Fakes) -> None:
    assert f.retriever.calls == [] and f.generator.calls == [] and f.verifier.calls == []
    assert f.audit.last(5) == ()


ROUTES = [
    pytest.param("/v1/research", {"question": QUESTION, "income_year": 2015}, id="research"),
    pytest.param("/v1/research/stream", {"question": QUESTION, "income_year": 2015}, id="stream"),
    pytest.param("/v1/research/across-years", {"question": QUESTION, "income_year": 2015}, id="across-years"),
]


@pytest.mark.parametrize(("path", "body"), ROUTES)
def test_a_question_during_the_build_is_refused_with_how_far_it_got(path: str, body: dict[str, Any]) -> None:
    f = fakes()
    f.retriever.building = build()
    reply = client_over(f).post(path, json=body)
    assert reply.status_code == 503
    assert reply.headers["content-type"] == "application/json"
    assert reply.headers["retry-after"] == "300"  # about 31 min left: ask again in 5 min at most
    refused = UnavailableBody.model_validate(reply.json())
    assert (refused.error, refused.dependency) == ("index_building", "index")
    assert refused.message.startswith(MESSAGE + ": questions are answered only from the whole index")
    assert refused.build is not None and refused.build.percent == 42.0 and refused.build.seconds_left == 1860.0
    nothing_ran(f)


def test_retry_after_is_the_time_left_when_it_is_short() -> None:
    f = fakes()
    f.retriever.building = build(seconds_left=42.2)
    reply = client_over(f).post("/v1/research", json={"question": QUESTION, "income_year": 2015})
    assert reply.status_code == 503 and reply.headers["retry-after"] == "43"


def test_a_malformed_question_is_still_a_422_first() -> None:
    f = fakes()
    f.retriever.building = build()
    assert client_over(f).post("/v1/research", json={"question": "  "}).status_code == 422


@pytest.mark.parametrize(("path", "body"), ROUTES)
def test_after_a_failed_build_a_question_is_refused_naming_the_error(path: str, body: dict[str, Any]) -> None:
    f = fakes()
    f.retriever.building = FAILED
    reply = client_over(f).post(path, json=body)
    assert reply.status_code == 503 and "retry-after" not in reply.headers
    refused = UnavailableBody.model_validate(reply.json())
    assert refused.error == "index_build_failed"
    assert refused.message.startswith(
        "no question can be answered: the index build failed: EmbedderError: the embedding server stopped answering"
    )
    assert refused.build is not None and refused.build.error is not None
    nothing_ran(f)


def test_healthz_and_the_index_status_say_building_with_the_progress() -> None:
    f = fakes()
    f.retriever.building = build()
    client = client_over(f)
    health = client.get("/healthz")
    assert health.status_code == 503
    said = ResearchHealth.model_validate(health.json())
    assert said.status == "building" and said.checks == {"index": False}
    assert said.message == MESSAGE and said.build is not None and said.build.percent == 42.0
    status = IndexReadiness.model_validate(client.get("/v1/index/status").json())
    assert (status.state, status.message) == ("building", MESSAGE)


def test_healthz_after_a_failed_build_is_unavailable_naming_it() -> None:
    f = fakes()
    f.retriever.building = FAILED
    said = client_over(f).get("/healthz").json()
    assert said["status"] == "unavailable" and said["build"]["state"] == "failed"
    assert said["message"].startswith("the index build failed: EmbedderError")


def test_once_the_index_is_ready_questions_are_answered() -> None:
    f = fakes()
    client = client_over(f)
    assert client.get("/v1/index/status").json()["state"] == "ready"
    assert client.get("/healthz").json()["status"] == "ok"
    reply = client.post("/v1/research", json={"question": QUESTION, "income_year": 2015})
    assert reply.status_code == 200 and reply.json()["decision"] == "answer"
