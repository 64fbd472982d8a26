"""Asking over HTTP: a 200 body becomes an answer, a 503 or a refused connection an error case."""

from __future__ import annotations

import json
from dataclasses import asdict

import httpx

from asat_research.evaluation.answerers import HttpAnswerer
from asat_research.outcome_wire import outcome_json
from services.research.tests.evaluation.builders import V2015, make_case, outcome, pipeline_citation


def answerer(handler: httpx.MockTransport) -> HttpAnswerer:
    return HttpAnswerer("http://research.test/", client=httpx.Client(transport=handler))


def test_a_research_body_becomes_the_same_answer_as_in_process() -> None:
    sent: list[dict[str, object]] = []
    body = outcome_json(outcome("answer", pipeline_citation(V2015)))

    def handle(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/research"
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=json.loads(json.dumps(body, default=str)))

    answer = answerer(httpx.MockTransport(handle)).answer(make_case(as_of="2015-06-30"))
    assert sent == [{"question": "What turnover makes a small business entity?", "as_of": "2015-06-30"}]
    assert answer.decision == "answer" and answer.audit_id == 7 and answer.model == "extractive-v1"
    cited = asdict(answer.citations[0])
    assert (cited["source_id"], cited["register_ids"], cited["valid_to"]) == (V2015, ("C2015C00285",), "2016-07-01")


def test_a_503_is_an_error_case_naming_the_dependency() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, json={"error": "dependency_unavailable", "message": "verifier unavailable: down"})

    answer = answerer(httpx.MockTransport(handle)).answer(make_case())
    assert answer.decision == "error"
    assert answer.reasons == ("dependency_unavailable (HTTP 503): verifier unavailable: down",)


def test_a_refused_connection_is_an_error_case_saying_what_to_start() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    answer = answerer(httpx.MockTransport(handle)).answer(make_case())
    assert answer.decision == "error"
    assert "python -m asat_research serve" in answer.reasons[0]
