"""``POST /v1/research/across-years`` over the in-memory ports of ``fakes.py``: the plan, one
ordinary pipeline run per income year (the question reworded for it, its own audit row), done;
refusals before anything runs; a dependency failing mid-stream; the events in the OpenAPI.

The tiny corpus: s 328-110 with ``$2 million`` from 1 July 2012 to 30 June 2016 and ``$10 million``
from 1 July 2016; s 328-115 whose text from 1 July 2016 to 30 June 2021 is not held.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from fastapi.testclient import TestClient

from asat_corpus.contracts.across_years import AcrossYearsDone, AcrossYearsPlan, AcrossYearsYear
from asat_corpus.contracts.research import StreamError
from asat_research.api import create_app

from .fakes import SBE_2015, SBE_2026, Fakes, fakes

SBE_FY2015 = "What aggregated turnover made a business a small business entity in FY2015?"
SBE = "What aggregated turnover made a business a small business entity?"
ROUTE = "/v1/research/across-years"


def _events(f: Fakes, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    client = TestClient(create_app(f.pipeline()))
    with client.stream("POST", ROUTE, json=body) as reply:
        assert reply.status_code == 200, reply.read()
        assert reply.headers["content-type"].startswith("text/event-stream")
        text = "".join(reply.iter_text())
    events = []
    for block in text.strip().split("\n\n"):
        name, data = block.split("\n", 1)
        events.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return events


def _quotes(year: AcrossYearsYear) -> list[str]:
    return [c.quote for claim in year.outcome.claims for c in claim.citations]


def test_the_question_is_asked_for_each_year_a_cited_text_starts_each_run_audited() -> None:
    f = fakes()
    events = _events(f, {"question": SBE_FY2015, "income_year": 2015})
    names = [name for name, _ in events]
    assert names == ["plan", "year", "year", "year", "done"]
    plan = AcrossYearsPlan.model_validate(events[0][1])
    assert [(y.income_year, y.original) for y in plan.years] == [(2013, False), (2015, True), (2017, False)]
    assert [p.label for p in plan.provisions] == ["ITAA 1997 s 328-110", "ITAA 1997 s 328-115"]
    assert plan.provisions[0].source_ids == (SBE_2015,)
    # Each year's question names that year in place of the question's own "FY2015".
    assert [y.question for y in plan.years] == [
        SBE_FY2015.replace("FY2015", "income year 2013"),
        SBE_FY2015,
        SBE_FY2015.replace("FY2015", "income year 2017"),
    ]
    # s 328-115's text is not held from 1 July 2016 to 30 June 2021: shown, never asked.
    (gap,) = plan.gaps
    assert (gap.label, gap.valid_from, gap.valid_to, gap.held) == (
        "ITAA 1997 s 328-115",
        date(2016, 7, 1),
        date(2021, 7, 1),
        "not_held",
    )
    assert gap.income_years == (2017, 2018, 2019, 2020, 2021)
    years = [AcrossYearsYear.model_validate(data) for name, data in events if name == "year"]
    assert [y.income_year for y in years] == [2013, 2015, 2017]
    assert all(y.outcome.scope.income_year == y.income_year and y.outcome.answered for y in years)
    assert any("$2 million" in q for q in _quotes(years[0])) and any("$2 million" in q for q in _quotes(years[1]))
    assert any("$10 million" in q for q in _quotes(years[2]))
    assert all(c.source_id != SBE_2026 for claim in years[1].outcome.claims for c in claim.citations)
    # Each year is one ordinary run with income_year set, through the same gate, with its own audit row.
    asked = [(question, year) for question, year, _ in f.retriever.calls]
    assert asked == [(SBE_FY2015, 2015), (plan.years[0].question, 2013), (plan.years[2].question, 2017)]
    rows = {entry.id: entry.record for entry in f.audit.last(10)}
    assert len(rows) == 3 and f.audit.verify().ok
    done = AcrossYearsDone.model_validate(events[-1][1])
    assert done.audit_ids == {y.income_year: y.outcome.audit_id for y in years}
    for year in years:
        record = rows[year.outcome.audit_id]
        assert (record.income_year, record.question) == (year.income_year, year.question)


def test_given_the_cited_sources_it_plans_from_them_and_asks_the_original_year_too() -> None:
    f = fakes()
    events = _events(f, {"question": SBE, "income_year": 2026, "source_ids": [SBE_2026]})
    plan = AcrossYearsPlan.model_validate(events[0][1])
    assert [p.provision for p in plan.provisions] == ["328-110"]
    assert [y.income_year for y in plan.years] == [2013, 2017, 2026] and plan.gaps == ()
    assert [name for name, _ in events] == ["plan", "year", "year", "year", "done"]
    assert [year for _, year, _ in f.retriever.calls] == [2013, 2017, 2026]  # the plan needed no run
    assert all(question == SBE for question, _, _ in f.retriever.calls)  # no period words to replace
    assert len(f.audit.last(10)) == 3


def test_who_asks_is_recorded_in_every_years_audit_row() -> None:
    f = fakes()
    asked_by = {"user_id": 3, "user_email": "agent@example.com", "practice_id": 2, "client_id": 9}
    events = _events(f, {"question": SBE, "income_year": 2026, "asked_by": asked_by})
    assert [name for name, _ in events] == ["plan", "year", "year", "year", "done"]
    rows = f.audit.last(10)
    assert len(rows) == 3
    for entry in rows:
        recorded = entry.record.asked_by
        assert recorded is not None
        assert (recorded.user_id, recorded.practice_id, recorded.client_id) == (3, 2, 9)


def test_an_as_at_day_asks_the_original_year_for_that_day() -> None:
    f = fakes()
    events = _events(f, {"question": SBE, "as_of": "2015-01-01", "source_ids": [SBE_2015]})
    years = [AcrossYearsYear.model_validate(data) for name, data in events if name == "year"]
    original = next(y for y in years if y.income_year == 2015)
    assert original.outcome.scope.as_of == date(2015, 1, 1)
    assert all(y.outcome.scope.as_of is None for y in years if y.income_year != 2015)


def test_an_answer_citing_nothing_says_so_in_the_plan_and_asks_only_its_year() -> None:
    f = fakes()
    events = _events(f, {"question": SBE, "income_year": 2030})  # nothing is in force in 2030 here
    assert [name for name, _ in events] == ["plan", "year", "done"]
    plan = AcrossYearsPlan.model_validate(events[0][1])
    assert plan.reason is not None and "cited no provision" in plan.reason
    assert [y.income_year for y in plan.years] == [2030] and plan.provisions == ()
    (year,) = (AcrossYearsYear.model_validate(d) for n, d in events if n == "year")
    assert not year.outcome.answered and year.outcome.reading_list == ()
    assert len(f.audit.last(10)) == 1  # asked once: the plan came from that run
    given_none = _events(fakes(), {"question": SBE, "income_year": 2015, "source_ids": []})
    assert AcrossYearsPlan.model_validate(given_none[0][1]).reason is not None


def test_refusals_come_before_anything_runs() -> None:
    f = fakes()
    client = TestClient(create_app(f.pipeline()))
    refused = {
        "blank": {"question": "   ", "income_year": 2015},
        "conflict": {"question": SBE_FY2015, "income_year": 2020},
        "unknown source": {"question": SBE, "income_year": 2015, "source_ids": ["itaa1997:1-1@X"]},
        "disagreeing period": {"question": SBE, "income_year": 2015, "as_of": "2020-01-01"},
        "known time": {"question": SBE, "as_known_on": "2015-01-01"},
    }
    for case, body in refused.items():
        reply = client.post(ROUTE, json=body)
        assert reply.status_code == 422, (case, reply.text)
    conflict = client.post(ROUTE, json=refused["conflict"]).json()
    assert "income year 2015 ('FY2015'" in conflict["message"] and "starts from one period" in conflict["message"]
    assert "no source 'itaa1997:1-1@X' is held" in client.post(ROUTE, json=refused["unknown source"]).json()["message"]
    assert f.retriever.calls == [] and f.audit.last(5) == ()


def test_a_dependency_failing_ends_the_stream_with_an_error_event() -> None:
    f = fakes()
    f.verifier.down = "connection refused"
    events = _events(f, {"question": SBE, "income_year": 2026, "source_ids": [SBE_2026]})
    assert [name for name, _ in events] == ["plan", "error"]
    error = StreamError.model_validate(events[-1][1])
    assert error.status == 503 and error.dependency == "verifier" and f.audit.last(5) == ()
    # Without the sources, the original year is asked first: its failure comes before any plan.
    down = fakes()
    down.verifier.down = "connection refused"
    assert [name for name, _ in _events(down, {"question": SBE, "income_year": 2026})] == ["error"]


def test_the_events_are_documented_in_the_openapi() -> None:
    schema = create_app(fakes().pipeline()).openapi()
    route = schema["paths"][ROUTE]["post"]
    assert "AcrossYearsRequest" in route["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    stream = route["responses"]["200"]["content"]["text/event-stream"]["itemSchema"]["oneOf"]
    assert [event["properties"]["event"]["const"] for event in stream] == ["plan", "year", "done", "error"]
    assert {"422", "400"} <= set(route["responses"])
