"""An HTTP research body is read as the research contract: a malformed one is an error case
naming what is wrong, never a half-read answer."""

from __future__ import annotations

import httpx
import pytest

from asat_research.evaluation.answerers import HttpAnswerer
from asat_research.evaluation.records import answer_from_json
from asat_research.outcome_wire import outcome_json
from services.research.tests.evaluation.builders import V2015, make_case, outcome, pipeline_citation


def test_the_body_of_an_outcome_reads_back_to_its_answer() -> None:
    answer = answer_from_json(outcome_json(outcome("answer", pipeline_citation(V2015))), 1.0)
    assert (answer.decision, answer.audit_id, answer.citations[0].source_id) == ("answer", 7, V2015)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"audit_id": None}, "audit_id: Input should be a valid integer"),
        ({"decision": "answered"}, "decision: Input should be"),
        ({"answered": False}, "must agree"),
    ],
)
def test_a_malformed_body_is_refused_naming_the_field(change: dict[str, object], words: str) -> None:
    body = outcome_json(outcome("answer", pipeline_citation(V2015))) | change
    with pytest.raises(ValueError, match="the research response is not a research outcome") as caught:
        answer_from_json(body, 1.0)
    assert words in str(caught.value)


def test_a_malformed_reply_over_http_is_an_error_case() -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"decision": "answer"})

    client = httpx.Client(transport=httpx.MockTransport(handle))
    answer = HttpAnswerer("http://research.test/", client=client).answer(make_case())
    assert answer.decision == "error"
    assert "research" in answer.reasons[0] and "audit_id: Field required" in answer.reasons[0]
