"""The service token at the HTTP edge: every path but ``/healthz`` needs ``Authorization: Bearer
<token>`` (any other token, scheme or header is a 401 ``ErrorBody`` with ``WWW-Authenticate``),
and ``ASAT_SERVICE_TOKEN`` is read strictly (missing, empty or short: an error naming it)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.http_limits import Message, Scope
from asat_corpus.service_token import (
    MIN_TOKEN_CHARS,
    SERVICE_TOKEN_ENV,
    ServiceTokenError,
    ServiceTokenGuard,
    bearer_headers,
    generate_service_token,
    optional_service_token,
    read_service_token,
)

TOKEN = "s3rvice-token_" + "x" * 30


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/thing")
    def thing() -> dict[str, str]:
        return {"done": "yes"}

    app.add_middleware(ServiceTokenGuard, token=TOKEN)
    return app


CLIENT = TestClient(_app())


def _call_guard(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[bytes, bytes], dict[str, Any]]:
    """One request straight through the middleware (raw header bytes, as a server would pass them)."""
    reached: list[Scope] = []

    async def inner(scope: Scope, receive: Any, send: Any) -> None:
        reached.append(scope)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {"type": "http", "method": "POST", "path": path, "headers": headers}
    asyncio.run(ServiceTokenGuard(inner, TOKEN)(scope, receive, send))
    status = int(sent[0]["status"])
    assert (status == 200) == bool(reached)  # the route runs exactly when the guard lets it
    return status, dict(sent[0]["headers"]), json.loads(sent[1]["body"])


def test_the_right_token_reaches_the_route() -> None:
    reply = CLIENT.post("/v1/thing", headers={"authorization": f"Bearer {TOKEN}"})
    assert reply.status_code == 200 and reply.json() == {"done": "yes"}


def test_no_token_is_401_saying_what_is_missing_and_where_it_comes_from() -> None:
    reply = CLIENT.post("/v1/thing")
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"] == "Bearer"
    body = reply.json()
    assert body["error"] == "unauthenticated"
    assert "lacks the service token" in body["message"]
    assert SERVICE_TOKEN_ENV in body["message"] and "var/secrets/service-token" in body["message"]
    assert TOKEN not in reply.text


def test_a_wrong_token_is_401_saying_so() -> None:
    reply = CLIENT.post("/v1/thing", headers={"authorization": "Bearer " + "y" * 44})
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"].startswith("Bearer")
    assert reply.json()["error"] == "unauthenticated"
    assert "not this service's" in reply.json()["message"]


def test_healthz_is_open_and_nothing_else_is() -> None:
    assert CLIENT.get("/healthz").status_code == 200
    assert CLIENT.get("/healthz/").status_code == 401
    assert CLIENT.get("/openapi.json").status_code == 401
    assert CLIENT.get("/docs").status_code == 401
    assert CLIENT.get("/no/such/path").status_code == 401  # nothing is said about what exists


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER", "bEaReR"])
def test_the_scheme_is_case_insensitive(scheme: str) -> None:
    assert CLIENT.post("/v1/thing", headers={"Authorization": f"{scheme} {TOKEN}"}).status_code == 200


@pytest.mark.parametrize(
    "value",
    [
        f"Basic {TOKEN}",
        TOKEN,
        f"Bearer {TOKEN.upper()}",
        f"Bearer {TOKEN}x",
        f"Bearer {TOKEN[:-1]}",
        f"Bearer{TOKEN}",
        "Bearer ",
        f"Token {TOKEN}",
    ],
)
def test_another_scheme_or_a_near_miss_is_refused(value: str) -> None:
    assert CLIENT.post("/v1/thing", headers={"authorization": value}).status_code == 401


def test_two_authorization_headers_are_refused_even_if_one_is_right() -> None:
    headers = [(b"authorization", b"Bearer " + TOKEN.encode()), (b"authorization", b"Bearer " + b"z" * 40)]
    assert _call_guard("/v1/thing", headers)[0] == 401


@given(st.binary(max_size=120))
def test_any_other_header_value_is_refused(value: bytes) -> None:
    status, headers, body = _call_guard("/v1/thing", [(b"authorization", value)])
    right = value.strip().partition(b" ")
    expected = 200 if right[0].lower() == b"bearer" and right[2].strip(b" \t") == TOKEN.encode() else 401
    assert status == expected
    if status == 401:
        assert headers[b"www-authenticate"].startswith(b"Bearer") and body["error"] == "unauthenticated"


@given(st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=80))
def test_any_other_token_is_refused(other: str) -> None:
    status = _call_guard("/v1/thing", [(b"authorization", b"Bearer " + other.encode())])[0]
    assert status == (200 if other == TOKEN else 401)


@given(st.text(alphabet="-._~+/" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=32))
def test_a_token_of_the_same_shape_is_refused(other: str) -> None:
    status = _call_guard("/v1/thing", [(b"authorization", b"Bearer " + other.encode())])[0]
    assert status == (200 if other == TOKEN else 401)


def test_healthz_needs_no_token_straight_through_the_middleware() -> None:
    assert _call_guard("/healthz", [])[0] == 200


def test_lifespan_passes_through() -> None:
    with TestClient(_app()) as client:  # startup and shutdown run through the guard
        assert client.get("/healthz").status_code == 200


def test_the_guard_refuses_a_short_token() -> None:
    with pytest.raises(ServiceTokenError, match="at least 32"):
        ServiceTokenGuard(_app(), "short")


def test_read_service_token() -> None:
    assert read_service_token({SERVICE_TOKEN_ENV: f"  {TOKEN}\n"}) == TOKEN
    with pytest.raises(ServiceTokenError, match=f"{SERVICE_TOKEN_ENV} is not set"):
        read_service_token({})
    with pytest.raises(ServiceTokenError, match=f"{SERVICE_TOKEN_ENV} is not set"):
        read_service_token({SERVICE_TOKEN_ENV: "   "})
    with pytest.raises(ServiceTokenError, match=f"{SERVICE_TOKEN_ENV} is 31 characters.*at least 32"):
        read_service_token({SERVICE_TOKEN_ENV: "a" * 31})
    with pytest.raises(ServiceTokenError, match="Bearer token cannot carry"):
        read_service_token({SERVICE_TOKEN_ENV: "a" * 20 + " " + "b" * 20})


def test_optional_service_token_for_clients() -> None:
    assert optional_service_token({}) is None
    assert optional_service_token({SERVICE_TOKEN_ENV: ""}) is None
    assert optional_service_token({SERVICE_TOKEN_ENV: TOKEN}) == TOKEN
    with pytest.raises(ServiceTokenError):
        optional_service_token({SERVICE_TOKEN_ENV: "short"})


def test_generated_tokens_are_long_random_and_accepted() -> None:
    tokens = {generate_service_token() for _ in range(20)}
    assert len(tokens) == 20
    for token in tokens:
        assert len(token) >= MIN_TOKEN_CHARS
        assert read_service_token({SERVICE_TOKEN_ENV: token}) == token


def test_bearer_headers() -> None:
    assert bearer_headers(None) == {}
    assert bearer_headers(TOKEN) == {"authorization": f"Bearer {TOKEN}"}
    assert CLIENT.post("/v1/thing", headers=bearer_headers(TOKEN)).status_code == 200
