"""Settings → Provider drives the answers: a practice that saved its own provider has every research
request carry it (the research form, the stream relay, "Ask again", the answer across years), with
the API key revealed from the sealed secret at request time; a practice without one sends none
(research answers with its own generator). The key is in no page, header or log line.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_accounts.fields import PROVIDER_KEY_SECRET
from asat_accounts.secret_box import KeyRing, SecretKey
from asat_web.turn import TurnRequest

from .signed_in import Account, add_practice, new_store, record_stub_rows, signed_in, web_app
from .stub_research import create_stub
from .test_across_years import across_stub

KEY = "sk-practice-OWNKEY0123456789abcdef"
BASE_URL = "https://llm.practice.example/v1"
MODEL = "practice-model-1"
SENT = {"kind": "openai_compatible", "base_url": BASE_URL, "model": MODEL, "api_key": KEY}
QUESTION = "What aggregated turnover made a business a small business entity?"
ACROSS = {"question": QUESTION, "income_year": 2015, "source_ids": ["itaa1997:328-110@C2015C00285"]}


def _web(
    stub: FastAPI, provider: tuple[str, str, str] | None = None, key: str | None = None
) -> tuple[TestClient, Account]:
    """The web over ``stub``, signed in as the owner of a practice (its history holds the stub's
    rows) that saved ``provider`` (kind, base URL, model) and ``key``, when given."""
    store = new_store()
    owner = add_practice(store)
    record_stub_rows(owner)
    if provider is not None:
        store.save_provider_settings(owner.practice_id, *provider)
    if key is not None:
        store.save_secret(owner.practice_id, PROVIDER_KEY_SECRET, key)
    return signed_in(web_app(stub, store), owner), owner


def _mine() -> tuple[str, str, str]:
    return ("openai_compatible", BASE_URL, MODEL)


def _ask_every_way(web: TestClient) -> list[str]:
    """Every route that asks research (but across years), each answered: the pages and events sent."""
    form = web.post("/research", data={"question": QUESTION, "period": "income_year", "income_year": "2015"})
    stream = web.post("/stream", json={"question": QUESTION, "income_year": 2015})
    again = web.post("/history/3/again")
    shown = [form, stream, again]
    for reply in shown:
        assert reply.status_code == 200, reply.text
        assert KEY not in str(reply.headers)
    assert "event: result" in stream.text
    return [reply.text for reply in shown]


def _across_every_way(web: TestClient) -> list[str]:
    page = web.get("/across-years", params={"question": QUESTION, "income_year": 2015, "full": 1})
    shell = web.get("/across-years", params={"question": QUESTION, "income_year": 2015})
    stream = web.post("/across-years/stream", json=ACROSS)
    for reply in (page, shell, stream):
        assert reply.status_code == 200, reply.text
        assert KEY not in str(reply.headers)
    assert "event: done" in stream.text
    return [page.text, shell.text, stream.text]


def test_a_practice_with_a_saved_provider_sends_it_with_its_key_on_every_route(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stub = create_stub()
    web, _ = _web(stub, _mine(), KEY)
    with caplog.at_level(logging.DEBUG):
        pages = _ask_every_way(web)
    assert len(stub.state.requests) == 3
    assert [r["provider"] for r in stub.state.requests] == [SENT, SENT, SENT]
    # Who asks still goes with it; the rest of the body is as before.
    assert all(asked is not None and asked["practice_id"] == 1 for asked in stub.state.asked_by)
    for text in pages:
        assert KEY not in text
    assert KEY not in caplog.text


def test_the_answer_across_years_carries_it_too_whatever_the_browser_sends() -> None:
    stub = across_stub()
    web, _ = _web(stub, _mine(), KEY)
    pages = _across_every_way(web)
    assert [r["provider"] for r in stub.state.requests] == [SENT, SENT]
    # A provider in the browser's body is replaced by the practice's (as who asks is).
    theirs = {"kind": "ollama", "base_url": "http://attacker.example", "model": "m", "api_key": "sk-theirs-0000000000"}
    assert web.post("/across-years/stream", json=ACROSS | {"provider": theirs}).status_code == 200
    assert stub.state.requests[-1]["provider"] == SENT
    for text in pages:
        assert KEY not in text


def test_a_practice_without_a_saved_provider_sends_none() -> None:
    stub = create_stub()
    web, _ = _web(stub)
    _ask_every_way(web)
    assert len(stub.state.requests) == 3 and all("provider" not in r for r in stub.state.requests)
    across = across_stub()
    web, _ = _web(across)
    _across_every_way(web)
    theirs = {"kind": "ollama", "base_url": "http://attacker.example", "model": "m"}
    assert web.post("/across-years/stream", json=ACROSS | {"provider": theirs}).status_code == 200
    assert len(across.state.requests) == 3 and all("provider" not in r for r in across.state.requests)


def test_a_provider_without_a_key_is_sent_without_one_and_needs_no_secret_key() -> None:
    stub = create_stub()
    store = new_store()
    owner = add_practice(store)
    record_stub_rows(owner)
    store.save_provider_settings(owner.practice_id, "ollama", "", "llama3.1:8b")
    store._ring = None  # as without ASAT_SECRET_KEY: nothing sealed is read
    web = signed_in(web_app(stub, store), owner)
    assert web.post("/stream", json={"question": QUESTION}).status_code == 200
    assert stub.state.requests[-1]["provider"] == {"kind": "ollama", "base_url": "", "model": "llama3.1:8b"}


def test_a_key_that_cannot_be_read_asks_nothing_and_says_why() -> None:
    stub, across = create_stub(), across_stub()
    web, owner = _web(stub, _mine(), KEY)
    changed = KeyRing((SecretKey("k2", bytes(range(1, 33))),))  # ASAT_SECRET_KEY changed since it was sealed
    owner.store._ring = changed
    replies = [
        web.post("/research", data={"question": QUESTION}),
        web.post("/stream", json={"question": QUESTION}),
        web.post("/history/3/again"),
    ]
    web, owner = _web(across, _mine(), KEY)
    owner.store._ring = changed
    replies += [
        web.get("/across-years", params={"question": QUESTION, "income_year": 2015, "full": 1}),
        web.post("/across-years/stream", json=ACROSS),
    ]
    for reply in replies:
        assert reply.status_code == 503, reply.text
        assert "provider API key cannot be read" in reply.text and KEY not in reply.text
    assert stub.state.requests == [] and across.state.requests == []


def test_saved_settings_research_would_refuse_are_a_422_naming_the_field() -> None:
    stub = create_stub()
    web, _ = _web(stub, ("openai_compatible", "http://llm.practice.example:99999/v1", MODEL), KEY)
    reply = web.post("/stream", json={"question": QUESTION})
    assert reply.status_code == 422 and "base_url" in reply.json()["message"]
    page = web.post("/research", data={"question": QUESTION})
    assert page.status_code == 422 and "Settings → Provider" in page.text
    assert KEY not in reply.text + page.text and stub.state.requests == []


def test_the_key_is_in_no_page_of_the_settings_and_research_flow() -> None:
    stub = create_stub()
    web, _ = _web(stub, _mine(), KEY)
    for path in ("/research", "/chat", "/settings/provider", "/history", "/history/3", "/audit"):
        reply = web.get(path)
        assert reply.status_code == 200, (path, reply.text)
        assert KEY not in reply.text and KEY not in str(reply.headers)


def test_the_turn_request_masks_the_key_until_the_body_is_written() -> None:
    from asat_corpus.contracts.provider import GenerationProvider

    turn = TurnRequest(QUESTION, 2015, None, provider=GenerationProvider.model_validate(SENT))
    assert KEY not in repr(turn) and KEY not in str(turn)
    body: dict[str, Any] = turn.research_body()
    assert body["provider"] == SENT
