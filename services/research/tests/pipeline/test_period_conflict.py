"""The period is never silently chosen: a question naming one income year asked with an
``income_year`` or ``as_of`` parameter naming another is refused at resolve (``period_conflict``),
naming both, with no retrieval, generator or verifier call; ``POST /v1/period`` previews the
period without answering. Over the in-memory ports of ``fakes.py``."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asat_corpus.contracts.research import PeriodPreview
from asat_corpus.contracts.research import ResearchOutcome as WireOutcome
from asat_research.api import create_app
from asat_research.gate import Decision
from asat_research.pipeline import NOT_ASKED, ResearchOutcome

from .fakes import Fakes, fakes

HOME_OFFICE = "Can I claim home office running expenses at a fixed rate per hour in FY2024?"
SBE_FY2015 = "What aggregated turnover made a business a small business entity in FY2015?"
ALL_STAGES = ["resolve", "retrieve", "rerank", "generate", "verify", "gate", "audit"]
REFUSED_STAGES = ["resolve", "gate", "audit"]
REASON_2024_2027 = (
    "the question names income year 2024 ('FY2024': 1 July 2023 to 30 June 2024) but income_year=2027 was "
    "given (income year 2027: 1 July 2026 to 30 June 2027): ask again with one of them (set income_year=2024, "
    "or reword the question for income year 2027)"
)


def _stages(f: Fakes, question: str, **kw: Any) -> tuple[list[str], ResearchOutcome]:
    events = list(f.pipeline().run(question, **kw))
    assert events[-1].stage == "done" and events[-1].outcome is not None
    return [e.stage for e in events[:-1]], events[-1].outcome


def test_a_question_naming_another_year_than_the_parameter_is_refused_at_resolve_naming_both() -> None:
    f = fakes()
    stages, outcome = _stages(f, HOME_OFFICE, income_year=2027)
    assert f.retriever.calls == [] and f.generator.calls == [] and f.verifier.calls == []
    assert stages == REFUSED_STAGES
    assert outcome.decision == "period_conflict"
    assert outcome.reasons == (REASON_2024_2027,)
    assert outcome.claims == () and outcome.reading_list == () and outcome.model == NOT_ASKED
    conflict = outcome.period_conflict
    assert conflict is not None
    assert (conflict.question.income_year, conflict.question.matched) == (2024, "FY2024")
    assert (conflict.parameter.income_year, conflict.parameter.name) == (2027, "income_year=2027")
    assert (conflict.question.start.isoformat(), conflict.question.end.isoformat()) == ("2023-07-01", "2024-06-30")
    # Still audited, with the decision and the reason.
    (entry,) = f.audit.last(5)
    assert entry.id == outcome.audit_id
    assert entry.record.decision is Decision.PERIOD_CONFLICT and entry.record.reasons == outcome.reasons
    assert f.audit.verify().ok


def test_an_as_of_day_in_another_year_conflicts_too() -> None:
    f = fakes()
    _, outcome = _stages(f, HOME_OFFICE, as_of=date(2026, 8, 1))
    assert outcome.decision == "period_conflict" and f.retriever.calls == []
    assert "but as_of=2026-08-01 was given (income year 2027" in outcome.reasons[0]
    assert outcome.period_conflict is not None and outcome.period_conflict.parameter.name == "as_of=2026-08-01"


def test_the_same_year_in_the_question_and_the_parameter_is_answered_as_before() -> None:
    f = fakes()
    stages, outcome = _stages(f, SBE_FY2015, income_year=2015)
    assert stages == ALL_STAGES and len(f.retriever.calls) == 1
    assert outcome.decision == "answer", outcome.reasons
    assert outcome.period_conflict is None and outcome.scope.income_year == 2015


def test_without_a_parameter_the_questions_year_is_used() -> None:
    f = fakes()
    _, outcome = _stages(f, SBE_FY2015)
    assert outcome.decision == "answer" and outcome.scope.income_year == 2015
    assert (outcome.scope.source.value, outcome.scope.matched) == ("question", "FY2015")


def test_the_known_time_axis_is_not_compared() -> None:
    f = fakes()
    _, outcome = _stages(f, SBE_FY2015, as_known_on=date(2015, 10, 31))
    assert outcome.decision != "period_conflict" and outcome.period_conflict is None


def test_the_api_replies_period_conflict_with_both_periods_as_data_and_nothing_retrieved() -> None:
    f = fakes()
    client = TestClient(create_app(f.pipeline()))
    reply = client.post("/v1/research", json={"question": HOME_OFFICE, "income_year": 2027})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["decision"] == "period_conflict" and body["answered"] is False
    assert body["reasons"] == [REASON_2024_2027]
    assert body["period_conflict"] == {
        "question": {"income_year": 2024, "matched": "FY2024", "start": "2023-07-01", "end": "2024-06-30"},
        "parameter": {"income_year": 2027, "name": "income_year=2027", "start": "2026-07-01", "end": "2027-06-30"},
        "reason": REASON_2024_2027,
    }
    assert WireOutcome.model_validate(body).period_conflict is not None
    answered = client.post("/v1/research", json={"question": SBE_FY2015, "income_year": 2015}).json()
    assert answered["decision"] == "answer" and answered["period_conflict"] is None
    assert len(f.retriever.calls) == 1  # the answered question only
    with client.stream("POST", "/v1/research/stream", json={"question": HOME_OFFICE, "income_year": 2027}) as r:
        text = "".join(r.iter_text())
    assert "event: result" in text and '"period_conflict": {' in text
    assert '"stage": "resolve"' in text and '"stage": "retrieve"' not in text
    assert len(f.retriever.calls) == 1


def test_two_years_in_one_question_stay_a_422_naming_both() -> None:
    f = fakes()
    client = TestClient(create_app(f.pipeline()))
    reply = client.post("/v1/research", json={"question": "Compare the threshold in FY2015 and in 2019-20"})
    assert reply.status_code == 422
    message = reply.json()["message"]
    assert "income year 2015 ('FY2015')" in message and "income year 2020 ('2019-20')" in message
    assert f.retriever.calls == [] and f.audit.last(5) == ()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"question": HOME_OFFICE},
            {"income_year": 2024, "source": "question", "matched": "FY2024", "start": "2023-07-01"},
        ),
        (
            {"question": "Can I claim the roof repair?"},
            {"income_year": 2026, "source": "default (current income year)", "matched": "today 2026-03-01"},
        ),
        ({"question": "", "income_year": 2019}, {"income_year": 2019, "source": "parameter", "end": "2019-06-30"}),
        ({"question": HOME_OFFICE, "income_year": 2024}, {"income_year": 2024, "source": "parameter"}),
        ({"question": HOME_OFFICE, "as_of": "2024-03-01"}, {"income_year": 2024, "as_of": "2024-03-01"}),
    ],
)
def test_period_previews_the_period_without_answering(body: dict[str, Any], expected: dict[str, Any]) -> None:
    f = fakes()
    reply = TestClient(create_app(f.pipeline())).post("/v1/period", json=body)
    assert reply.status_code == 200, reply.text
    got = reply.json()
    assert {k: got[k] for k in expected} == expected and got["conflict"] is None
    PeriodPreview.model_validate(got)
    assert f.retriever.calls == [] and f.audit.last(5) == ()


def test_period_preview_names_a_conflict_and_refuses_two_years() -> None:
    client = TestClient(create_app(fakes().pipeline()))
    got = client.post("/v1/period", json={"question": HOME_OFFICE, "income_year": 2027}).json()
    assert got["income_year"] == 2027 and got["source"] == "parameter"
    assert got["conflict"]["question"]["income_year"] == 2024 and got["conflict"]["parameter"]["income_year"] == 2027
    assert got["conflict"]["reason"] == REASON_2024_2027
    two = client.post("/v1/period", json={"question": "FY2015 or FY2020?"})
    assert two.status_code == 422 and two.json()["error"] == "invalid_request"
    assert "income year 2015 ('FY2015'), income year 2020 ('FY2020')" in two.json()["message"]
    assert client.post("/v1/period", json={"question": "q", "income_year": 1800}).status_code == 422
    assert client.post("/v1/period", json={"question": "q", "stray": 1}).status_code == 422
