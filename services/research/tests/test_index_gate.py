"""Research's word for the index (``asat_research.index_gate``): ready, building, failed or
unavailable, from the index service's report; and asked of it at most once per TTL."""

from __future__ import annotations

import time
from typing import Any

import pytest

from asat_corpus.contracts.search import IndexBuild
from asat_research.index_gate import IndexGate, readiness, refusal
from asat_research.retrieval import IndexReport, RetrievalUnavailable

GENERATION = "0123456789abcdef" * 4


def build(state: str = "running", **changes: Any) -> IndexBuild:
    body: dict[str, Any] = {
        "id": "b1",
        "state": state,
        "phase": "embed",
        "done": 10,
        "total": 100,
        "percent": 9.0,
        "rate": 2.0,
        "seconds_left": 45.0,
        "started": time.time(),
        "finished": None,
        "error": None,
        "message": "index building, 9% done (...)",
    }
    return IndexBuild.model_validate(body | changes)


def test_ready_only_when_the_index_is_of_the_corpus_research_reads() -> None:
    ready = readiness(IndexReport("ready", "ready: 12 points", GENERATION, None), "", GENERATION)
    assert (ready.state, ready.message) == ("ready", "ready: 12 points")
    other = readiness(IndexReport("ready", "ready", "f" * 64, None), "", GENERATION)
    assert other.state == "unavailable" and "corpus generation ffffffffffff but research reads 0123" in other.message
    assert refusal(ready) is None and refusal(other) is None  # the pipeline's own error answers


def test_a_running_build_is_building_with_its_message() -> None:
    found = readiness(IndexReport("building", "ignored", None, build()), "", GENERATION)
    assert (found.state, found.message) == ("building", "index building, 9% done (...)")
    refused = refusal(found)
    assert refused is not None
    error, message, retry_after = refused
    assert (error, retry_after) == ("index_building", 45)
    assert message.startswith("index building, 9% done (...): questions are answered only from the whole index")


def test_a_failed_build_over_an_index_that_cannot_serve_is_failed() -> None:
    failed = build("failed", error="BuildError: x", message="the index build failed: BuildError: x")
    found = readiness(IndexReport("incomplete", "the index build did not finish", None, failed), "", GENERATION)
    assert found.state == "failed" and found.message.startswith("the index build failed: BuildError: x: the ingest")
    assert refusal(found) == ("index_build_failed", f"no question can be answered: {found.message}", None)


def test_a_failed_rebuild_over_a_ready_index_still_serves() -> None:
    failed = build("failed", error="BuildError: x", message="the index build failed: BuildError: x")
    assert readiness(IndexReport("ready", "ready", GENERATION, failed), "", GENERATION).state == "ready"


def test_ingest_unreachable_or_a_missing_index_is_unavailable_saying_why() -> None:
    down = readiness(None, "the ingest service cannot be reached", GENERATION)
    assert (down.state, down.message) == ("unavailable", "the ingest service cannot be reached")
    missing = readiness(IndexReport("missing", "no index has been built: run ...", None, None), "", GENERATION)
    assert (missing.state, missing.message) == ("unavailable", "no index has been built: run ...")


class Source:
    def __init__(self) -> None:
        self.calls = 0
        self.down = False

    def __call__(self) -> IndexReport:
        self.calls += 1
        if self.down:
            raise RetrievalUnavailable("ingest at http://127.0.0.1:1 cannot be reached")
        return IndexReport("ready", "ready", GENERATION, None)


def test_the_gate_asks_at_most_once_per_ttl() -> None:
    now = [100.0]
    source = Source()
    gate = IndexGate(source, GENERATION, clock=lambda: now[0], ttl_s=2.0)
    assert gate.ready() and gate.ready()
    assert source.calls == 1
    now[0] += 2.0
    source.down = True
    found = gate.now()
    assert source.calls == 2
    assert found.state == "unavailable" and "cannot be reached" in found.message


@pytest.mark.parametrize("state", ["queued", "running"])
def test_a_queued_or_running_build_is_building_whatever_the_state_says(state: str) -> None:
    assert readiness(IndexReport("stale", "stale", None, build(state)), "", GENERATION).state == "building"
