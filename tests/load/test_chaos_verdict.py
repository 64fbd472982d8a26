"""The chaos run's verdict: what counts as a served answer done right, and what does not."""

from __future__ import annotations

from typing import Any

from chaos_verdict import Reply, judge

CITATION = {"source_id": "itaa1997:328-110@2015", "start": 10, "end": 20, "quote": "$2 million"}
ANSWER = {"audit_id": 1, "answered": True, "decision": "answer", "claims": [{"citations": [CITATION]}]}


def _row(outcome: dict[str, Any]) -> dict[str, Any]:
    shown = {k: v for k, v in outcome.items() if k != "audit_id"}
    return {"id": outcome["audit_id"], "record": {"shown": shown}}


def test_a_clean_run_passes() -> None:
    abstain = {"audit_id": 2, "answered": False, "decision": "abstain_low_relevance", "claims": []}
    replies = [
        Reply(0.1, 200, ANSWER),
        Reply(0.2, 200, abstain),
        Reply(0.3, 503, {"message": "verifier unavailable"}),
        Reply(0.4, 429, {"message": "too many"}),
    ]
    verdict = judge(replies, {1: _row(ANSWER), 2: _row(abstain)})
    assert verdict.ok and (verdict.answers, verdict.abstentions) == (1, 1) and verdict.refusals == {503: 1, 429: 1}


def test_what_must_never_happen_is_named() -> None:
    unaudited = ANSWER | {"audit_id": 7}
    no_quotes = ANSWER | {"audit_id": 3, "claims": [{"citations": []}]}
    changed = ANSWER | {"audit_id": 4}
    replies = [
        Reply(1.0, 500, {"message": "boom"}),
        Reply(2.0, 503, {}),
        Reply(3.0, None, None),
        Reply(4.0, 200, unaudited),
        Reply(5.0, 200, no_quotes),
        Reply(6.0, 200, changed),
    ]
    rows = {3: _row(no_quotes), 4: _row(ANSWER | {"audit_id": 4, "claims": []}), 7: None}
    problems = judge(replies, rows).problems
    assert len(problems) == 6
    assert "HTTP 500" in problems[0] and "without a reason" in problems[1] and "no HTTP reply" in problems[2]
    assert "without an audit row" in problems[3] and "without verified quotes" in problems[4]
    assert "something other than what was served" in problems[5]
