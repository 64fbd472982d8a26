"""The web app over a stub research service (FastAPI TestClient; no browser)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_web.settings import WebSettings
from asat_web.sse import SseParser

from .signed_in import add_practice, new_store, record_stub_rows, signed_in, web_app
from .stub_research import ATTRIBUTION, QUOTE, START, V2015, V2026, audit_entry, citation, create_stub, outcome

Make = Callable[..., tuple[TestClient, FastAPI]]
ASK = {"question": "What aggregated turnover made a business a small business entity?", "income_year": 2015}


def unmarked(html: str) -> str:
    """``html`` without the marks on the question's words (the quote's characters are unchanged)."""
    return html.replace("<mark>", "").replace("</mark>", "")


def _events(client: TestClient, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    reply = client.post("/stream", json=body)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("text/event-stream")
    parser = SseParser()
    return [(e.event, e.json()) for e in parser.feed(reply.text) + parser.close()]


def test_research_page_has_a_labelled_form_reading_the_period_from_the_question(make_web: Make) -> None:
    web, _ = make_web()
    page = web.get("/research")
    assert page.status_code == 200
    html = page.text
    fields = ("question", "period-question", "income-year", "as-of", "period-year", "period-day", "as-known-on")
    for field_id in (*fields, "period-known"):
        assert re.search(rf'<label[^>]+for="{field_id}"', html), field_id
    # The period is read from the question by default: no income year is filled in (never silently chosen).
    assert re.search(r'<input type="radio" id="period-question" name="period" value="question" checked', html)
    assert re.search(r'id="income-year" name="income_year" value="" placeholder="2026"', html)
    assert "the current one is 2026" in html  # 1 April 2026 is in income year 2026
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert "https://" not in html.replace("https://www.legislation.gov.au", "")


def test_stream_relays_each_stage_then_the_rendered_answer(make_web: Make) -> None:
    web, stub = make_web()
    events = _events(web, ASK)
    assert [name for name, _ in events] == ["stage", "stage", "stage", "result"]
    assert events[1][1] == {
        "stage": "retrieve",
        "label": "Retrieve passages",
        "summary": "7 passages, 1 markers of text not held",
        "ms": 12.5,
    }
    html = events[-1][1]["html"]
    assert QUOTE in unmarked(html) and "C2015C00285" in html and "in force from 2014-07-01 to 2016-06-30" in html
    assert "<mark>aggregated</mark> <mark>turnover</mark>" in html  # the question's words, marked
    assert f"/source/{V2015}?audit=1&amp;start={START}&amp;end={START + len(QUOTE)}#quote" in html
    assert ATTRIBUTION in html and "extractive-v1" in html and "0123456789ab<" in html and "row 1" in html
    assert stub.state.requests == [{"question": ASK["question"], "income_year": 2015}]


def test_an_as_at_day_is_sent_instead_of_the_year(make_web: Make) -> None:
    web, stub = make_web()
    _events(web, {"question": "q", "as_of": "2015-03-01", "income_year": 2015})
    assert stub.state.requests == [{"question": "q", "as_of": "2015-03-01"}]


def test_an_as_known_on_day_is_forwarded_alone_and_the_scope_says_so(make_web: Make) -> None:
    scope = {
        "income_year": 2016,
        "as_of": None,
        "as_known_on": "2015-10-31",
        "source": "parameter",
        "matched": "as_known_on=2015-10-31",
    }
    web, stub = make_web(result=outcome(decision="answered_as_then_stood", scope=scope))
    html = _events(web, {"question": "q", "as_known_on": "2015-10-31", "as_of": "2015-03-01"})[-1][1]["html"]
    assert stub.state.requests == [{"question": "q", "as_known_on": "2015-10-31"}]
    assert '<p class="scope">As known on 2015-10-31 (the law as it then stood)</p>' in html
    chat = _events(web, {"question": "q", "as_known_on": "2015-10-31", "mode": "chat"})[-1][1]["html"]
    assert "(as known on 2015-10-31, the law as it then stood)" in chat
    plain = make_web()[0]
    assert "As known on" not in _events(plain, ASK)[-1][1]["html"]


def test_an_abstention_shows_its_reason_and_the_reading_list(make_web: Make) -> None:
    web, _ = make_web(result=outcome(answered=False))
    html = _events(web, ASK)[-1][1]["html"]
    assert "No answer: the corpus does not appear to address this question" in html
    assert "below the threshold" in html and "Reading list" in html and QUOTE in unmarked(html)
    assert "Turnover under $2 million." not in html


def test_third_party_conversions_are_labelled(make_web: Make) -> None:
    body = outcome()
    body["claims"][0]["citations"] = [citation(authorised=False)]
    web, _ = make_web(result=body)
    assert "third-party conversion, not an authorised version" in _events(web, ASK)[-1][1]["html"]


def test_a_dependency_error_event_is_shown_as_no_answer(make_web: Make) -> None:
    web, _ = make_web(
        error={
            "status": 503,
            "error": "dependency_unavailable",
            "dependency": "verifier",
            "message": "verifier unavailable: refused",
        }
    )
    name, data = _events(web, ASK)[-1]
    assert name == "error" and "verifier is unavailable" in data["html"] and "refused" in data["html"]


def test_a_malformed_outcome_is_an_error_not_a_half_answer(make_web: Make) -> None:
    web, _ = make_web(result=outcome() | {"audit_id": None})
    name, data = _events(web, ASK)[-1]
    assert name == "error" and "could not be shown" in data["html"] and QUOTE not in unmarked(data["html"])


def test_research_down_says_how_to_start_it() -> None:
    dead = httpx.AsyncClient(base_url="http://127.0.0.1:9", timeout=0.5)
    store = new_store()
    web = signed_in(web_app(dead, store, settings=WebSettings(research_url="http://127.0.0.1:9")), add_practice(store))
    events = _events(web, ASK)
    assert [n for n, _ in events] == ["error"]
    assert "python -m asat_research serve" in events[0][1]["html"]
    assert web.get("/audit").status_code == 503


def test_bad_stream_input_is_a_clear_422(make_web: Make) -> None:
    web, _ = make_web()
    for body, words in (
        ({"question": "  "}, "empty"),
        ({"question": "q", "income_year": 1700}, "income_year"),
        ({"question": "q", "as_of": "soon"}, "as_of"),
        ({"question": "q", "as_known_on": "October 2015"}, "as_known_on"),
        ({"question": "q", "as_known_on": "2015-02-30"}, "as_known_on"),
    ):
        reply = web.post("/stream", json=body)
        assert reply.status_code == 422 and words in reply.json()["message"], reply.text


def test_the_streams_are_documented_as_events_and_a_body_that_is_not_json_as_a_400(make_web: Make) -> None:
    """Schemathesis found both streams documented as JSON, and their 400 undocumented."""
    web, _ = make_web()
    paths = web.get("/openapi.json").json()["paths"]
    for path in ("/stream", "/across-years/stream"):
        responses = paths[path]["post"]["responses"]
        assert set(responses["200"]["content"]) == {"text/event-stream"}, path
        for status in ("400", "401", "403", "413", "422"):
            assert responses[status]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody"), path
        reply = web.post(path, content=b"\x15\xff not json", headers={"content-type": "application/json"})
        assert reply.status_code == 400 and reply.json()["error"] == "bad_request", reply.text


def test_chat_numbers_sources_from_where_the_rail_left_off(make_web: Make) -> None:
    web, _ = make_web()
    page = web.get("/chat").text
    assert "Each message is answered on its own" in page and 'id="rail"' in page
    data = _events(web, ASK | {"mode": "chat", "first_source": 3})[-1][1]
    assert 'href="#source-3"' in data["html"] and 'id="source-3"' in data["rail"]
    assert data["next_source"] == 4 and QUOTE in unmarked(data["rail"])


def test_the_form_works_without_javascript(make_web: Make) -> None:
    web, stub = make_web()
    reply = web.post("/research", data={"question": "Turnover?", "period": "income_year", "income_year": "2015"})
    assert reply.status_code == 200 and QUOTE in unmarked(reply.text)
    assert stub.state.requests == [{"question": "Turnover?", "income_year": 2015}]
    bad = web.post("/research", data={"question": "Turnover?", "period": "as_of", "as_of": "nope"})
    assert bad.status_code == 422 and "not a date" in bad.text


def test_the_form_forwards_as_known_on_and_a_bad_one_keeps_the_question(make_web: Make) -> None:
    web, stub = make_web()
    form = {"question": "Turnover when we lodged?", "period": "as_known_on", "as_known_on": "2015-10-31"}
    reply = web.post("/research", data=form | {"income_year": "2026", "as_of": ""})
    assert reply.status_code == 200 and QUOTE in unmarked(reply.text)
    assert stub.state.requests == [{"question": "Turnover when we lodged?", "as_known_on": "2015-10-31"}]
    for day in ("31/10/2015", "", "2015-13-01"):
        bad = web.post("/research", data=form | {"as_known_on": day})
        assert bad.status_code == 422
        assert f"the as-known-on date {day!r} is not a date (YYYY-MM-DD)".replace("'", "&#39;") in bad.text
        assert ">Turnover when we lodged?</textarea>" in bad.text
    assert len(stub.state.requests) == 1  # nothing was asked with a bad date


def test_source_viewer_highlights_the_verified_quote_with_interval_timeline_and_diff(make_web: Make) -> None:
    web, _ = make_web()
    page = web.get(f"/source/{V2015}", params={"audit": 1, "start": START, "end": START + len(QUOTE)})
    assert page.status_code == 200
    html = page.text
    assert f'<mark id="quote" tabindex="-1">{QUOTE.replace("$", "$")}</mark>' in html
    assert "in force from 2014-07-01 to 2016-06-30" in html and "C2015C00285" in html
    assert "Text not held" in html and "no compilation held" in html and 'aria-current="true"' in html
    assert "Changes to the next version" in html and "<del>$2</del><ins>$10</ins>" in html


def test_source_viewer_refuses_a_quote_that_does_not_match() -> None:
    store = new_store()
    owner = add_practice(store)
    record_stub_rows(owner)
    record_stub_rows(owner, [audit_entry(99)])  # the stub's row 99 quotes what is not in the text
    web = signed_in(web_app(create_stub(), store), owner)
    html = web.get(f"/source/{V2015}", params={"audit": 99, "start": 0, "end": 31}).text
    assert "<mark" not in html and "holds no verified quote" not in html
    assert "not the verified quote" in html and "small business entity if" not in html
    unknown = web.get(f"/source/{V2015}", params={"audit": 1, "start": 0, "end": 3}).text
    assert "holds no verified quote" in unknown and "<mark" not in unknown


def test_source_viewer_of_a_conversion_labels_it_and_diffs_against_the_previous(make_web: Make) -> None:
    web, _ = make_web()
    html = web.get(f"/source/{V2026}").text
    assert "third-party conversion, not an authorised version" in html
    assert "Changes from the previous version" in html
    assert web.get("/source/itaa1997:1-1@X").status_code == 404


def test_audit_pages_list_rows_link_them_and_show_the_chain(make_web: Make) -> None:
    web, _ = make_web()
    html = web.get("/audit").text
    assert "Audit log verified: every row of the audit log was checked against the chain and the signed" in html
    assert "Last verified checkpoint signed 03 December 2026 09:30:00 UTC (key 0123456789abcdef)." in html
    assert "Rows written since are protected by the chain alone" in html
    assert "2 rows" not in html and "rows 1 to 1" not in html  # no count of the whole log's rows
    assert re.findall(r'<a href="/audit/(\d+)">', html) == ["5", "4", "3", "2", "1"]
    assert "1 April 2026 at 10:00 UTC" in html and ">0123456789ab</code>" in html
    row = web.get("/audit/1").text
    assert "a" * 64 in row and QUOTE in row and "What aggregated turnover" in row
    assert web.get("/audit/7").status_code == 404


def test_audit_pages_show_a_question_asked_as_known_on_a_day(make_web: Make) -> None:
    web, _ = make_web()
    listing = web.get("/audit").text
    assert "as known on 2015-10-01" in listing and "<td>income year 2015</td>" in listing  # row 2, then row 1
    assert "as known on 2015-10-01 (the text on the books that day)" in web.get("/audit/2").text
    assert "as known on" not in web.get("/audit/1").text
