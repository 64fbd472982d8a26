"""Service-to-service authentication: the verifier built with a service token answers
``POST /v1/verify`` only with ``Authorization: Bearer <token>`` (none or a wrong one: 401);
``/healthz`` stays open; ``python -m asat_verifier`` refuses to start without the token."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asat_verifier.composition import create_app
from asat_verifier.config import VerifierConfig

TOKEN = "verifier-test-token-" + "v" * 24
TEXT = (
    "You cannot deduct a loss or outgoing under this section to the extent that it is a loss or outgoing "
    "of a private or domestic nature."
)
REQUEST: dict[str, Any] = {
    "claims": [
        {
            "id": "c1",
            "text": "A private or domestic loss or outgoing is not deductible.",
            "source_ids": ["s81"],
            "quotes": [{"source_id": "s81", "text": "You cannot deduct a loss or outgoing under this section"}],
        }
    ],
    "sources": [
        {
            "id": "s81",
            "text": TEXT,
            "act": "ITAA1997",
            "provision": "8-1",
            "register_id": "C2020C00001",
            "version_id": "ITAA1997:8-1@2020-07-01",
            "valid_from": "2020-07-01",
            "valid_to": None,
        }
    ],
    "retrieved_source_ids": ["s81"],
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(VerifierConfig(), service_token=TOKEN)) as test_client:
        yield test_client


def test_verify_without_the_token_is_401(client: TestClient) -> None:
    reply = client.post("/v1/verify", json=REQUEST)
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"] == "Bearer"
    assert reply.json()["error"] == "unauthenticated"
    assert "ASAT_SERVICE_TOKEN" in reply.json()["message"]


def test_verify_with_a_wrong_token_is_401(client: TestClient) -> None:
    reply = client.post("/v1/verify", json=REQUEST, headers={"authorization": "Bearer " + "w" * 44})
    assert reply.status_code == 401 and reply.json()["error"] == "unauthenticated"


def test_verify_with_the_token_is_the_normal_reply(client: TestClient) -> None:
    reply = client.post("/v1/verify", json=REQUEST, headers={"authorization": f"Bearer {TOKEN}"})
    assert reply.status_code == 200
    assert reply.json()["verified"] is True


def test_a_refusal_comes_before_the_body_is_looked_at(client: TestClient) -> None:
    assert client.post("/v1/verify", content=b"not json").status_code == 401


def test_healthz_is_open(client: TestClient) -> None:
    assert client.get("/healthz").status_code == 200


def test_the_service_refuses_to_start_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from asat_verifier.__main__ import main

    monkeypatch.delenv("ASAT_SERVICE_TOKEN", raising=False)
    assert main() == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_SERVICE_TOKEN is not set") and "Traceback" not in err


def test_the_service_refuses_a_short_token(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from asat_verifier.__main__ import main

    monkeypatch.setenv("ASAT_SERVICE_TOKEN", "too-short")
    assert main() == 2
    assert "ASAT_SERVICE_TOKEN is 9 characters" in capsys.readouterr().err
