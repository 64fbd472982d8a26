"""Research replies the web cannot use: a body that breaks the contract, or an unexpected error
status, is a 502 page naming the research service; 503 stays 503 and a refusal is passed on."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient

from .signed_in import RESEARCH, add_practice, new_store, record_stub_rows, signed_in, web_app
from .stub_research import V2015, audit_entry, outcome

FORM = {"question": "Turnover?", "period": "income_year", "income_year": "2015"}
Handler = Callable[[httpx.Request], httpx.Response]


def _web(handler: Handler) -> TestClient:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url=RESEARCH)
    store = new_store()
    owner = add_practice(store)
    record_stub_rows(owner)  # /audit/1 is the practice's: research is asked for it
    return signed_in(web_app(client, store), owner)


def _always(status: int, **body: object) -> Handler:
    return lambda _: httpx.Response(status, **body)  # type: ignore[arg-type]


def _get(web: TestClient, page: str) -> httpx.Response:
    return web.get(page) if page != "/research" else web.post("/research", data=FORM)


PAGES = ("/research", f"/source/{V2015}", "/audit", "/audit/1")


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (_always(200, json={"decision": "answer"}), "research service sent a reply to"),
        (_always(200, text="<html>not json</html>"), "research service sent a reply to"),
        (_always(500, json={"error": "boom", "message": "it broke"}), "research service answered 500"),
        (_always(400, json={"error": "bad_request", "message": "what?"}), "research service answered 400"),
    ],
)
def test_an_unusable_research_reply_is_a_502_naming_research(page: str, reply: Handler, words: str) -> None:
    answer = _get(_web(reply), page)
    assert answer.status_code == 502, answer.text
    assert words in answer.text


def test_a_malformed_outcome_names_the_field_it_lacks() -> None:
    body = outcome()
    del body["audit_id"]
    answer = _get(_web(_always(200, json=body)), "/research")
    assert answer.status_code == 502 and "audit_id: Field required" in answer.text


def test_research_unavailable_stays_503_and_a_refusal_is_passed_on() -> None:
    down = _always(503, json={"error": "dependency_unavailable", "message": "verifier unavailable: refused"})
    for page in PAGES:
        answer = _get(_web(down), page)
        assert answer.status_code == 503 and "verifier unavailable: refused" in answer.text, page
    missing = _always(404, json={"error": "not_found", "message": "no source 'x'"})
    assert _get(_web(missing), "/source/x").status_code == 404


def test_a_good_reply_still_renders() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/research":
            return httpx.Response(200, json=outcome())
        return httpx.Response(200, json=audit_entry(1))

    web = _web(handle)
    assert _get(web, "/research").status_code == 200
    assert _get(web, "/audit/1").status_code == 200


def test_an_unusable_stream_is_an_error_event_naming_research() -> None:
    web = _web(_always(500, json={"error": "boom", "message": "it broke"}))
    reply = web.post("/stream", json={"question": "Turnover?", "income_year": 2015})
    assert reply.status_code == 200 and reply.text.startswith("event: error")
    assert "research service answered 500 to POST /v1/research/stream: it broke" in reply.text
