"""Bounded work at research's edge: a NUL or another control character in a question is a 422
before anything is retrieved or any model asked (and no audit row: nothing was asked); a body over
the limit is a 413 naming it; one question more than the concurrency cap is a 429 with Retry-After.
Over the in-memory ports of ``fakes.py``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx
import pytest
from fastapi.testclient import TestClient

from asat_research.api import MAX_BODY_BYTES, create_app
from asat_research.generation.port import Generation, NumberedSpan, Selection

from .fakes import CountingGenerator, fakes

QUESTION = "What aggregated turnover made a business a small business entity in FY2015?"


@pytest.mark.parametrize("bad", ["\x00", "\x07", "\x1b[31m", "\x7f", "\x85"])
@pytest.mark.parametrize("route", ["/v1/research", "/v1/research/stream"])
def test_a_control_character_is_refused_before_any_model_call(bad: str, route: str) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    response = api.post(route, json={"question": f"Can I claim{bad} this in FY2024?"})
    assert response.status_code == 422
    assert "control character" in response.json()["message"] or "NUL character" in response.json()["message"]
    assert f.generator.calls == [] and f.retriever.calls == [] and f.audit.last(1) == ()


def test_tabs_and_line_breaks_are_kept() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    response = api.post(
        "/v1/research",
        json={"question": "What aggregated turnover\tmade a business\r\na small business entity in FY2015?"},
    )
    assert response.status_code == 200


def test_a_body_over_the_limit_is_413_naming_it() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    response = api.post(
        "/v1/research",
        content=b'{"question": "' + b"x" * MAX_BODY_BYTES + b'"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["limit"] == "max_body_bytes" and response.json()["maximum"] == MAX_BODY_BYTES
    assert f.generator.calls == []


@dataclass
class _HeldGenerator(CountingGenerator):
    """Waits at ``select`` until released: a question in flight."""

    entered: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        self.entered.set()
        self.release.wait(timeout=30)
        return super().select(question, spans)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        self.entered.set()
        self.release.wait(timeout=30)
        return super().write(question, spans)


def test_one_more_than_the_cap_is_429_with_retry_after() -> None:
    f = fakes()
    held = _HeldGenerator()
    app = create_app(f.pipeline(generator=held), max_concurrent=2)

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://research", timeout=30) as client:
            first = [asyncio.create_task(client.post("/v1/research", json={"question": QUESTION})) for _ in range(2)]
            while not held.entered.is_set():
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            refused = await client.post("/v1/research/stream", json={"question": QUESTION})
            assert refused.status_code == 429 and refused.headers["retry-after"]
            assert refused.json()["maximum"] == 2
            held.release.set()
            assert [(await task).status_code for task in first] == [200, 200]
            assert (await client.post("/v1/research", json={"question": QUESTION})).status_code == 200

    asyncio.run(scenario())


@pytest.mark.parametrize("route", ["/v1/research", "/v1/research/stream"])
def test_a_control_character_in_who_asked_is_refused_before_any_model_call(route: str) -> None:
    # Found by schemathesis: a NUL in the email reached the audit record, a 500.
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    asked_by = {"user_id": 1, "user_email": "a\x00@b.example", "practice_id": 1}
    response = api.post(route, json={"question": QUESTION, "asked_by": asked_by})
    assert response.status_code == 422
    assert "asked_by.user_email contains a NUL character" in response.text
    assert f.generator.calls == [] and f.retriever.calls == [] and f.audit.last(1) == ()
