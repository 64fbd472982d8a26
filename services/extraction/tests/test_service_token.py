"""Service-to-service authentication: extraction built with a service token answers its routes
only with ``Authorization: Bearer <token>`` (none or a wrong one: 401, nothing stored); ``/healthz``
stays open; ``python -m asat_extraction serve`` refuses to start without the token."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.cli import main
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore

TOKEN = "extraction-test-token-" + "e" * 22
RECEIPT = ("receipt.txt", b"Acme Pty Ltd\nABN 51 824 753 556\nTotal $22.00\nGST $2.00\n", "text/plain")


@pytest.fixture(scope="module")
def client(pipeline: Pipeline) -> Iterator[TestClient]:
    app = build_app(pipeline, MemoryStore(), max_files=3, service_token=TOKEN)
    with TestClient(app, headers={PRACTICE_HEADER: "1"}) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/v1/transactions"), ("POST", "/v1/documents"), ("GET", "/v1/transactions.csv")],
)
def test_a_route_without_the_token_is_401(client: TestClient, method: str, path: str) -> None:
    files = [("files", RECEIPT)] if method == "POST" else None
    reply = client.request(method, path, files=files)
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"] == "Bearer"
    assert reply.json()["error"] == "unauthenticated" and "ASAT_SERVICE_TOKEN" in reply.json()["message"]


def test_a_wrong_token_is_401_and_nothing_is_stored(client: TestClient) -> None:
    wrong = {"authorization": "Bearer " + "w" * 44}
    reply = client.post("/v1/documents", files=[("files", RECEIPT)], headers=wrong)
    assert reply.status_code == 401 and reply.json()["error"] == "unauthenticated"
    listed = client.get("/v1/transactions", headers={"authorization": f"Bearer {TOKEN}"})
    assert listed.status_code == 200 and listed.json()["transactions"] == []


def test_the_token_gets_the_normal_reply(client: TestClient) -> None:
    bearer = {"authorization": f"Bearer {TOKEN}"}
    uploaded = client.post("/v1/documents", files=[("files", RECEIPT)], headers=bearer)
    assert uploaded.status_code == 200, uploaded.text
    (result,) = uploaded.json()["results"]
    assert result["status"] == "created"
    listed = client.get("/v1/transactions", headers=bearer)
    assert listed.status_code == 200 and len(listed.json()["transactions"]) == 1


def test_healthz_is_open(client: TestClient) -> None:
    reply = client.get("/healthz")
    assert reply.status_code == 200 and reply.json()["status"] == "ok"


def test_serve_refuses_to_start_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ASAT_SERVICE_TOKEN", raising=False)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_SERVICE_TOKEN is not set") and "Traceback" not in err
