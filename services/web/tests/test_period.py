"""The period is never silently chosen: the forms read it from the question by default, the page
says live what was read (``GET /period`` over research's ``POST /v1/period``), and a reply of
``period_conflict`` names both periods and offers one click for each. Over the stub research."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable
from datetime import date
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_corpus.contracts.research import PeriodPreview
from asat_web.labels import period_preview, stage_summary
from asat_web.sse import SseParser

Make = Callable[..., tuple[TestClient, FastAPI]]
HOME_OFFICE = "Can I claim home office running expenses at a fixed rate per hour in FY2024?"


def _result(web: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    reply = web.post("/stream", json=body)
    assert reply.status_code == 200, reply.text
    parser = SseParser()
    events = [(e.event, e.json()) for e in parser.feed(reply.text) + parser.close()]
    assert events[-1][0] == "result", events
    data: dict[str, Any] = events[-1][1]
    return data


def _preview(**changes: Any) -> PeriodPreview:
    body = {
        "income_year": 2024,
        "as_of": None,
        "start": "2023-07-01",
        "end": "2024-06-30",
        "source": "question",
        "matched": "FY2024",
        "conflict": None,
    }
    return PeriodPreview.model_validate(body | changes)


def test_the_preview_says_what_was_read_in_words() -> None:
    assert period_preview(_preview()) == "FY2024 \u2192 income year 2024, 1 July 2023 to 30 June 2024"
    default = _preview(
        income_year=2027, start="2026-07-01", end="2027-06-30", source="default (current income year)", matched="x"
    )
    assert period_preview(default) == (
        "no period in the question \u2192 the current income year 2027, 1 July 2026 to 30 June 2027, stated with "
        "the answer"
    )
    chosen = _preview(source="parameter", matched="income_year=2024")
    assert (
        period_preview(chosen) == "the income year chosen (2024) \u2192 income year 2024, 1 July 2023 to 30 June 2024"
    )
    day = _preview(source="parameter", matched="as_of=2024-03-01", as_of="2024-03-01")
    assert period_preview(day).startswith("the as-at date chosen (2024-03-01) \u2192 income year 2024")


def test_the_resolve_stage_says_when_the_question_names_another_period() -> None:
    summary = stage_summary("resolve", {"income_year": 2027, "source": "parameter", "period_conflict": "the q..."})
    assert summary == "income year 2027 (from parameter), but the question names another period"


def test_get_period_relays_research_and_words_it(make_web: Make) -> None:
    web, stub = make_web(periods=True)
    read = web.get("/period", params={"question": HOME_OFFICE})
    assert read.status_code == 200, read.text
    assert read.json()["text"] == "FY2024 \u2192 income year 2024, 1 July 2023 to 30 June 2024"
    assert read.json()["preview"]["source"] == "question"
    none = web.get("/period", params={"question": "Can I claim the roof repair?"}).json()
    assert none["text"] == (
        "no period in the question \u2192 the current income year 2027, 1 July 2026 to 30 June 2027, stated with "
        "the answer"
    )
    clash = web.get("/period", params={"question": HOME_OFFICE, "income_year": 2027}).json()
    assert clash["preview"]["conflict"]["question"]["income_year"] == 2024
    assert "FY2024 \u2192 income year 2024" in clash["text"] and "the income year chosen (2027)" in clash["text"]
    assert stub.state.period_requests == [
        {"question": HOME_OFFICE},
        {"question": "Can I claim the roof repair?"},
        {"question": HOME_OFFICE, "income_year": 2027},
    ]
    two = web.get("/period", params={"question": "FY2015 or FY2020?"})
    assert two.status_code == 422 and "more than one income year" in two.json()["message"]
    assert web.get("/period", params={"question": "q", "income_year": 20}).status_code == 422
    assert stub.state.requests == []  # nothing was asked


def test_asked_from_the_question_no_income_year_is_sent(make_web: Make) -> None:
    web, stub = make_web(periods=True)
    result = _result(web, {"question": HOME_OFFICE})
    assert 'data-decision="answer"' in result["html"] and "Income year 2024" in result["html"]
    assert stub.state.requests == [{"question": HOME_OFFICE}]
    reply = web.post("/research", data={"question": HOME_OFFICE, "period": "question", "income_year": ""})
    assert reply.status_code == 200 and "Income year 2024" in reply.text
    assert stub.state.requests[-1] == {"question": HOME_OFFICE}


def _choices(page: str) -> list[dict[str, str]]:
    forms = re.findall(r'<form class="reask" method="post" action="/research">(.*?)</form>', page, re.S)
    found = []
    for form in forms:
        fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form))
        assert fields.pop("csrf_token")  # every form posting to the site carries the session's token
        button = re.search(r"<button type=\"submit\">(.*?)</button>", form)
        assert button is not None
        found.append({k: html_lib.unescape(v) for k, v in fields.items()} | {"button": button.group(1)})
    return found


def test_a_period_conflict_names_both_periods_and_offers_one_click_for_each(make_web: Make) -> None:
    web, stub = make_web(periods=True)
    for mode in ("research", "chat"):
        result = _result(web, {"question": HOME_OFFICE, "income_year": 2027, "mode": mode})
        page = html_lib.unescape(result["html"])
        assert 'data-decision="period_conflict"' in page and result["answered"] is False
        assert "Not asked: the question names one period and the period chosen is another" in page
        assert "\u201cFY2024\u201d (income year 2024, 1 July 2023 to 30 June 2024)" in page
        assert "the period chosen in the form is income year 2027, 1 July 2026 to 30 June 2027." in page
        reworded = HOME_OFFICE.replace("FY2024", "income year 2027")
        assert _choices(result["html"]) == [
            {
                "question": HOME_OFFICE,
                "period": "income_year",
                "income_year": "2024",
                "button": "Ask for income year 2024, as the question says",
            },
            {
                "question": reworded,
                "period": "income_year",
                "income_year": "2027",
                "button": "Ask for income year 2027, as chosen",
            },
        ]
        assert f"Sent as \u201c{reworded}\u201d" in page
    # Each choice, posted as it stands (no JavaScript), is answered for its year.
    first, second = _choices(result["html"])
    for choice, year in ((first, 2024), (second, 2027)):
        reply = web.post("/research", data={k: v for k, v in choice.items() if k != "button"})
        assert reply.status_code == 200 and f"Income year {year}" in reply.text
        assert 'data-decision="answer"' in reply.text
    assert stub.state.requests[-2:] == [
        {"question": HOME_OFFICE, "income_year": 2024},
        {"question": HOME_OFFICE.replace("FY2024", "income year 2027"), "income_year": 2027},
    ]


def test_the_form_without_javascript_shows_the_conflict_too(make_web: Make) -> None:
    web, _ = make_web(periods=True)
    reply = web.post("/research", data={"question": HOME_OFFICE, "period": "income_year", "income_year": "2027"})
    assert reply.status_code == 200
    assert 'data-decision="period_conflict"' in reply.text and len(_choices(reply.text)) == 2


def test_an_as_at_day_in_another_year_is_offered_back_as_that_day() -> None:
    from asat_corpus.contracts.research import PeriodConflictOut
    from asat_web.outcome import conflict_view

    conflict = PeriodConflictOut.model_validate(
        {
            "question": {"income_year": 2020, "matched": "2019-20", "start": "2019-07-01", "end": "2020-06-30"},
            "parameter": {"income_year": 2027, "name": "as_of=2026-08-01", "start": "2026-07-01", "end": "2027-06-30"},
            "reason": "r",
        }
    )
    view = conflict_view(conflict, "What was the rate in 2019-20?")
    ours, theirs = view.choices
    assert (ours.period, ours.value, ours.question) == ("income_year", "2020", "What was the rate in 2019-20?")
    assert (theirs.period, theirs.value, theirs.question) == (
        "as_of",
        "2026-08-01",
        "What was the rate in as at 2026-08-01?",
    )
    assert view.chosen == "as at 2026-08-01 (income year 2027, 1 July 2026 to 30 June 2027)"
    assert date.fromisoformat(theirs.value).year == 2026
