from __future__ import annotations

import pytest

from asat_web.outcome import OutcomeShapeError, parse_outcome

from .stub_research import QUOTE, citation, outcome


def test_an_answer_reads_into_claims_quotes_and_footer() -> None:
    view = parse_outcome(outcome())
    assert view.answered and view.income_year == 2015
    assert view.claims[0].citations[0].quote == QUOTE
    assert view.footer.audit_id == 1 and view.footer.model == "extractive-v1"
    assert view.reading_list[0].quotes[0].register_ids == ("C2015C00285",)


def test_the_scope_carries_as_known_on_when_set() -> None:
    assert parse_outcome(outcome()).as_known_on is None
    scope = {"income_year": 2016, "as_of": None, "as_known_on": "2015-10-31", "source": "parameter", "matched": ""}
    view = parse_outcome(outcome(scope=scope))
    assert (view.as_known_on, view.as_of, view.income_year) == ("2015-10-31", None, 2016)
    with pytest.raises(OutcomeShapeError, match=r"scope\.as_known_on: "):
        parse_outcome(outcome(scope=scope | {"as_known_on": "31/10/2015"}))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"answered": False}, "must agree"),
        ({"audit_id": "one"}, "audit_id: Input should be a valid integer"),
        ({"decision": "maybe"}, "decision: Input should be 'answer', 'answered_as_then_stood'"),
        (
            {
                "claims": [
                    {"id": "c1", "text": "x", "citations": [citation(start=3, quote="abc", end=9)], "groundedness": 1}
                ]
            },
            "cannot hold",
        ),
        ({"reading_list": [{"source_id": "s"}]}, "reading_list.0.title: Field required"),
        ({"claims": "none"}, "claims: Input should be a valid tuple"),
    ],
)
def test_a_reply_of_the_wrong_shape_names_the_field(change: dict[str, object], words: str) -> None:
    with pytest.raises(OutcomeShapeError, match=words):
        parse_outcome(outcome() | change)


def test_an_abstention_that_carries_claims_is_refused() -> None:
    body = outcome(answered=False)
    body["claims"] = outcome()["claims"]
    with pytest.raises(OutcomeShapeError, match="abstention carries claims"):
        parse_outcome(body)
