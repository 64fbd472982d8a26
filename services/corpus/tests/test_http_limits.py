"""Request-body limit and concurrency cap at the HTTP edge: 413 naming the limit before the route
runs; 429 with Retry-After beyond the cap, the slot freed when the reply ends."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from asat_corpus.http_limits import BodyLimit, ConcurrencyCap


def _app(calls: list[int]) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/echo")
    async def echo(request: Request) -> dict[str, Any]:
        calls.append(1)
        return {"bytes": len(await request.body())}

    @app.post("/upload")
    async def upload(request: Request) -> dict[str, Any]:
        return {"bytes": len(await request.body())}

    app.add_middleware(BodyLimit, max_bytes=100, overrides={"/upload": 1000})
    return app


def test_a_path_may_have_its_own_limit() -> None:
    client = TestClient(_app([]))
    assert client.post("/upload", content=b"z" * 1000).json() == {"bytes": 1000}
    refused = client.post("/upload", content=b"z" * 1001)
    assert refused.status_code == 413 and refused.json()["maximum"] == 1000


def test_a_body_over_the_limit_is_413_naming_it_and_the_route_never_runs() -> None:
    calls: list[int] = []
    client = TestClient(_app(calls))
    ok = client.post("/v1/echo", content=b"x" * 100)
    assert ok.status_code == 200 and ok.json() == {"bytes": 100}
    big = client.post("/v1/echo", content=b"x" * 101)
    assert big.status_code == 413
    assert big.json()["limit"] == "max_body_bytes" and big.json()["maximum"] == 100 and big.json()["actual"] == 101
    assert "the limit is 100 bytes" in big.json()["message"]
    assert calls == [1]


def test_a_chunked_body_without_a_length_is_counted_as_it_arrives() -> None:
    calls: list[int] = []
    client = TestClient(_app(calls))

    def chunks() -> Any:
        for _ in range(5):
            yield b"y" * 30

    response = client.post("/v1/echo", content=chunks())
    assert response.status_code == 413 and "is larger than that" in response.json()["message"]


def test_one_more_than_the_cap_is_429_with_retry_after_and_the_slot_is_freed() -> None:
    release = asyncio.Event()
    entered = threading.Event()
    app = FastAPI()

    @app.post("/v1/research")
    async def slow() -> dict[str, str]:
        entered.set()
        await release.wait()
        return {"ok": "yes"}

    @app.post("/v1/other")
    async def other() -> dict[str, str]:
        return {"ok": "uncapped"}

    app.add_middleware(ConcurrencyCap, limit=1, paths=("/v1/research",), retry_after_s=3)

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            first = asyncio.create_task(client.post("/v1/research"))
            while not entered.is_set():
                await asyncio.sleep(0.01)
            refused = await client.post("/v1/research")
            assert refused.status_code == 429 and refused.headers["retry-after"] == "3"
            assert refused.json()["limit"] == "max_concurrent" and refused.json()["maximum"] == 1
            assert (await client.post("/v1/other")).status_code == 200  # other routes are not capped
            release.set()
            assert (await first).status_code == 200
            assert (await client.post("/v1/research")).status_code == 200  # the slot came back

    asyncio.run(scenario())


@pytest.mark.parametrize("bad", [0, -1])
def test_limits_below_one_are_refused(bad: int) -> None:
    with pytest.raises(ValueError):
        BodyLimit(FastAPI(), bad)
    with pytest.raises(ValueError):
        ConcurrencyCap(FastAPI(), bad, ("/x",))
