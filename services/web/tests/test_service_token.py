"""The web sends the service token to research and extraction, which refuse a request without it;
the web itself is the user-facing workspace and is not guarded by the token. ``python -m asat_web``
refuses to start without ``ASAT_SERVICE_TOKEN`` (every call it makes would be refused)."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_corpus.service_token import ServiceTokenGuard
from asat_web.__main__ import main
from asat_web.settings import WebConfigError, WebSettings, settings_from_env

from .signed_in import add_practice, new_store, signed_in, web_app
from .stub_extraction import create_stub as create_extraction_stub
from .stub_research import create_stub as create_research_stub

TOKEN = "web-test-token-" + "t" * 29
RESEARCH = "http://research.test"
EXTRACTION = "http://extraction.test"
ASK = {"question": "What aggregated turnover made a business a small business entity?", "income_year": 2015}


def guarded(app: FastAPI) -> FastAPI:
    app.add_middleware(ServiceTokenGuard, token=TOKEN)
    return app


def web(token: str | None) -> TestClient:
    """The web over stub research and extraction services that both require ``TOKEN``."""
    research = httpx.AsyncClient(transport=httpx.ASGITransport(app=guarded(create_research_stub())), base_url=RESEARCH)
    extraction = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=guarded(create_extraction_stub())), base_url=EXTRACTION
    )
    settings = WebSettings(research_url=RESEARCH, extraction_url=EXTRACTION, service_token=token)
    store = new_store()
    app = web_app(research, store, settings=settings, extraction_client=extraction)
    return signed_in(app, add_practice(store))


def test_with_the_token_research_and_extraction_answer_the_web() -> None:
    client = web(TOKEN)
    streamed = client.post("/stream", json=ASK)
    assert streamed.status_code == 200 and "event: result" in streamed.text
    assert client.get("/history").status_code == 200
    documents = client.get("/documents")
    assert documents.status_code == 200 and "No documents yet." in documents.text


def test_without_the_token_research_and_extraction_refuse_and_the_page_says_why() -> None:
    client = web(None)
    audit = client.get("/audit")  # the log's integrity is research's (the history is the practice's own)
    assert audit.status_code == 502
    assert "401" in audit.text and "service token" in audit.text
    documents = client.get("/documents")
    assert documents.status_code == 502 and "service token" in documents.text


def test_a_wrong_token_is_refused_too() -> None:
    assert web("X" * 44).get("/documents").status_code == 502


def test_the_web_itself_needs_no_token() -> None:
    client = web(TOKEN)
    assert client.get("/research").status_code == 200
    assert client.get("/healthz").status_code == 200


def test_the_token_is_read_from_the_environment_and_never_shown() -> None:
    assert settings_from_env({"ASAT_SERVICE_TOKEN": f" {TOKEN} "}).service_token == TOKEN
    assert settings_from_env({}).service_token is None
    assert TOKEN not in repr(settings_from_env({"ASAT_SERVICE_TOKEN": TOKEN}))
    with pytest.raises(WebConfigError, match="ASAT_SERVICE_TOKEN is 12 characters") as caught:
        settings_from_env({"ASAT_SERVICE_TOKEN": "short-secret"})
    assert "short-secret" not in str(caught.value)


def test_the_web_refuses_to_start_without_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ASAT_SERVICE_TOKEN", raising=False)
    assert main() == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_SERVICE_TOKEN is not set") and "Traceback" not in err
