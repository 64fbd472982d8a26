"""The load driver against an in-process research stand-in: it counts every reply by status,
times only the answered ones, and names the highest concurrency with 0 errors. (The figures
themselves come from running it against the stack; see the README.)"""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from load_research import LevelResult, highest_clean, percentile, retry_after_s, run


def _stand_in(cap: int) -> FastAPI:
    app = FastAPI()
    in_flight = 0

    @app.post("/v1/research")
    async def research() -> JSONResponse:
        nonlocal in_flight
        if in_flight >= cap:
            return JSONResponse({"error": "too_many_requests"}, status_code=429, headers={"retry-after": "1"})
        in_flight += 1
        try:
            await asyncio.sleep(0.01)
            return JSONResponse({"decision": "answer"})
        finally:
            in_flight -= 1

    return app


def test_levels_under_the_cap_are_clean_and_over_it_count_refusals() -> None:
    transport = httpx.ASGITransport(app=_stand_in(cap=4))
    results = asyncio.run(run("http://research", [{"question": "q"}], [2, 8], 0.3, transport=transport))
    low, high = results
    assert low.errors == 0 and low.requests > 0 and low.statuses["200"] == low.requests
    assert high.statuses["429"] > 0 and high.errors == high.statuses["429"]
    assert len(low.latencies_ms) == low.requests and len(high.latencies_ms) == high.statuses["200"]
    assert highest_clean(results) == 2
    assert low.cpu_s["load_driver"] > 0  # the driver's own CPU is always measured


def test_summary_and_percentiles() -> None:
    assert percentile([], 0.5) is None
    assert percentile([10.0, 20.0, 30.0, 40.0], 0.5) == 30.0
    assert percentile([5.0], 0.99) == 5.0
    result = LevelResult(20, 10.0, requests=40, latencies_ms=[100.0] * 39)
    result.statuses.update({"200": 39, "503": 1})
    result.cpu_s = {"research": 2.0, "load_driver": 0.5}
    summary = result.summary()
    assert (summary["throughput_per_s"], summary["errors"], summary["p95_ms"]) == (4.0, 1, 100.0)
    assert summary["cpu_ms_per_request"] == {"load_driver": 12.5, "research": 50.0}


def test_a_refused_client_waits_as_retry_after_says_and_a_thinking_client_asks_less() -> None:
    transport = httpx.ASGITransport(app=_stand_in(cap=1))
    # Over the cap, each refused client waits its Retry-After (1 s) before asking again: in 0.5 s,
    # the 3 clients over the cap are refused once each.
    (over,) = asyncio.run(run("http://research", [{"question": "q"}], [4], 0.5, transport=transport))
    assert over.statuses["429"] == 3
    (eager,) = asyncio.run(run("http://research", [{"question": "q"}], [1], 0.3, transport=transport))
    (thinking,) = asyncio.run(run("http://research", [{"question": "q"}], [1], 0.3, transport=transport, think_s=0.1))
    assert thinking.requests <= 3 < eager.requests


def test_retry_after_in_seconds() -> None:
    assert (retry_after_s("2"), retry_after_s(None), retry_after_s("soon"), retry_after_s("-1")) == (2.0, 0.0, 0.0, 0.0)
