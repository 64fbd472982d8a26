"""A source id from an edited link never reaches another research route."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
import pytest
from fastapi import FastAPI, Request, Response
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from asat_web.source_path import NotASourceId, source_path

Make = Callable[..., tuple[TestClient, FastAPI]]


@pytest.mark.parametrize("bad", ["../audit/verify", "a/../../audit/1", "./x", "a//b", "", "a\x00b", "x" * 301])
def test_ids_that_could_leave_the_route_are_refused(bad: str) -> None:
    with pytest.raises(NotASourceId):
        source_path(bad)


@given(st.text(min_size=1, max_size=60))
def test_an_accepted_id_always_lands_on_the_sources_route(source_id: str) -> None:
    try:
        path = source_path(source_id)
    except NotASourceId:
        return
    url = httpx.URL("http://research" + path)
    assert url.raw_path.startswith(b"/v1/sources/") and not url.query and not url.fragment


def test_real_ids_keep_their_shape() -> None:
    assert source_path("itaa1997:328-110@2015-07-01") == "/v1/sources/itaa1997:328-110@2015-07-01"
    assert source_path("TR 93/30") == "/v1/sources/TR%2093/30"


def test_the_source_page_refuses_a_traversal_without_asking_research(make_web: Make) -> None:
    web, stub = make_web()
    asked: list[str] = []

    @stub.middleware("http")
    async def record(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        asked.append(request.url.path)
        return await call_next(request)

    response = web.get("/source/a/%2E%2E/%2E%2E/audit/verify")  # as sent: dots encoded, not normalised
    assert response.status_code == 404
    assert asked == [], f"research was asked {asked}"
    web.get("/source/itaa1997:328-110@C2015C00285")
    # The recorder does see research's requests: the version asked for (then its neighbour, for the diff).
    assert asked[0] == "/v1/sources/itaa1997:328-110@C2015C00285"
