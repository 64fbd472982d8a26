"""While the index is being built, the research and chat pages show its progress (a progress bar,
the percentage, the rate and the time left) with the question form disabled, ``GET /index-status``
gives the same as JSON, and a question research refuses as ``index_building`` is shown as a notice
("index building, n% done"), not an answer and not an error page; a failed build is said plainly.
Over the stub research service (no browser)."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_corpus.contracts.search import IndexReadiness
from asat_web.index_view import IndexView, index_view, unknown_view
from asat_web.sse import SseParser

from .signed_in import RESEARCH, add_practice, new_store, signed_in, web_app
from .stub_research import FAILED, READY, building

Make = Callable[..., tuple[TestClient, FastAPI]]
ASK = {"question": "What aggregated turnover made a business a small business entity?", "income_year": 2015}
FORM = {"question": ASK["question"], "period": "income_year", "income_year": "2015"}
DISABLED = re.compile(r'<fieldset class="ask-fields" disabled>')


def test_the_view_words_the_percentage_the_rate_and_the_time_left() -> None:
    view = index_view(IndexReadiness.model_validate(building(42.7)))
    assert (view.state, view.blocks_questions, view.percent) == ("building", True, 42)
    assert (view.percent_text, view.rate_text) == ("42% done", "8.1 texts/s")
    assert view.left_text == "about 31 min left"  # (29,000 - 13,759) texts at 8.1 texts/s
    assert view.phase_text == "Embedding texts: 13,759 of 29,000."
    assert view.message.startswith("Index building, 42% done (embedding texts: 13,759 of 29,000;")
    failed = index_view(IndexReadiness.model_validate(FAILED))
    assert (failed.state, failed.blocks_questions) == ("failed", True)
    assert failed.message.startswith("The index build failed: EmbedderError: the embedding server stopped answering")
    ready = index_view(IndexReadiness.model_validate(READY))
    assert (ready.state, ready.blocks_questions, ready.percent) == ("ready", False, 100)
    unknown = unknown_view("the research service at http://x cannot be reached")
    assert (unknown.state, unknown.blocks_questions) == ("unknown", False)


@pytest.mark.parametrize("path", ["/research", "/chat"])
def test_the_page_shows_the_progress_bar_and_disables_asking(make_web: Make, path: str) -> None:
    web, _ = make_web(index=building(42.0))
    page = web.get(path)
    assert page.status_code == 200
    html = page.text
    assert '<h2 id="index-status-heading">The index is being built</h2>' in html
    assert '<label for="index-progress">Index build progress</label>' in html
    assert '<progress id="index-progress" max="100" value="42">42% done</progress>' in html
    assert '<strong role="status" data-slot="percent">42% done</strong>' in html
    assert (
        '<span data-slot="rate">8.1 texts/s</span>' in html
        and '<span data-slot="left">about 32 min left</span>' in html
    )
    assert DISABLED.search(html)  # asking is off: never an answer from a partial index
    assert '<script src="/static/index_status.js" defer></script>' in html
    assert f'<a href="{path}">check again</a>' in html  # without JavaScript


def test_the_status_route_is_the_same_view_as_json(make_web: Make) -> None:
    web, stub = make_web(index=building(42.0))
    reply = web.get("/index-status")
    assert reply.status_code == 200
    view = IndexView.model_validate(reply.json())
    assert (view.state, view.percent, view.rate_text) == ("building", 42, "8.1 texts/s")
    stub.state.index = READY
    assert web.get("/index-status").json()["state"] == "ready"


def test_a_question_posted_during_the_build_is_a_notice_with_the_progress(make_web: Make) -> None:
    web, stub = make_web(index=building(42.0))
    reply = web.post("/research", data=FORM)
    assert reply.status_code == 503 and reply.headers["retry-after"] == "300"
    html = reply.text
    assert "<title>Research · AsAt</title>" in html  # the research page, not an error page
    assert "Your question was not asked." in html
    assert '<progress id="index-progress" max="100" value="42">42% done</progress>' in html
    assert f">{ASK['question']}</textarea>" in html  # kept, for when the build is done
    assert DISABLED.search(html)
    assert stub.state.requests == [{"question": ASK["question"], "income_year": 2015}]


def test_a_question_streamed_during_the_build_gets_the_index_building_notice(make_web: Make) -> None:
    web, _ = make_web(index=building(42.0))
    reply = web.post("/stream", json=ASK)
    assert reply.status_code == 200
    parser = SseParser()
    events = [(e.event, e.json()) for e in parser.feed(reply.text) + parser.close()]
    assert [name for name, _ in events] == ["error"]
    html = events[0][1]["html"]
    assert '<div class="outcome outcome-notice" role="status">' in html
    assert "Not asked: the index is being built" in html
    assert "index building, 42% done (embedding texts: 13,533 of 29,000; 8.1 texts/s; about 32 min left)" in html
    assert "outcome-error" not in html


def test_after_a_failed_build_the_page_says_why_and_asking_stays_off(make_web: Make) -> None:
    web, _ = make_web(index=FAILED)
    html = web.get("/research").text
    assert '<h2 id="index-status-heading">The index build failed</h2>' in html
    assert "The index build failed: EmbedderError: the embedding server stopped answering" in html
    assert "<progress" not in html and DISABLED.search(html)
    refused = web.post("/stream", json=ASK).text
    assert "Not asked: the index build failed" in refused


def test_a_ready_index_shows_no_status_and_the_form_is_usable(make_web: Make) -> None:
    web, _ = make_web()
    html = web.get("/research").text
    assert 'id="index-status"' not in html and not DISABLED.search(html)
    assert '<fieldset class="ask-fields">' in html


def test_when_research_cannot_say_the_form_stays_usable_and_the_page_says_so() -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    store = new_store()
    owner = add_practice(store)
    research = httpx.AsyncClient(transport=httpx.MockTransport(down), base_url=RESEARCH)
    client = signed_in(web_app(research, store), owner)
    html = client.get("/research").text
    assert '<h2 id="index-status-heading">Could not check the index</h2>' in html
    assert "cannot be reached" in html and not DISABLED.search(html)
    assert client.get("/index-status").status_code == 503
