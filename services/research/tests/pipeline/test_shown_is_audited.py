"""The audit row records what the user was shown: the outcome as served (every claim with its
quotes and ranges, the reading list, the note, ``premise_rejected``, groundedness, reasons), so that
``outcome_as_given`` rebuilds exactly the reply of ``POST /v1/research`` from the row alone; and
``GET /v1/audit?contains=`` finds rows by their question. Over the in-memory ports of ``fakes.py``."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from asat_corpus.contracts.audit_log import AuditEntries, AuditEntryOut, outcome_as_given
from asat_corpus.contracts.research import ResearchOutcome
from asat_research.api import create_app

from .fakes import fakes

SBE_FY2015 = "What aggregated turnover made a business a small business entity in FY2015?"
HOME_OFFICE = "Can I claim home office running expenses at a fixed rate per hour in FY2024?"


def _ask(api: TestClient, **body: Any) -> ResearchOutcome:
    response = api.post("/v1/research", json=body)
    assert response.status_code == 200, response.text
    return ResearchOutcome.model_validate(response.json())


def _as_shown(outcome: ResearchOutcome) -> dict[str, Any]:
    """All of an outcome but its timings (the row keeps the stages' times up to the audit)."""
    return outcome.model_dump(exclude={"latencies_ms"})


def _row(api: TestClient, audit_id: int) -> AuditEntryOut:
    return AuditEntryOut.model_validate(api.get(f"/v1/audit/{audit_id}").json())


def test_an_answer_as_given_is_rebuilt_exactly_from_its_audit_row() -> None:
    api = TestClient(create_app(fakes().pipeline()))
    served = _ask(api, question=SBE_FY2015)
    assert served.decision.value == "answer" and served.claims
    row = _row(api, served.audit_id)
    assert row.record.shown is not None
    assert "audit_id" not in row.record.shown and "latencies_ms" not in row.record.shown
    assert _as_shown(outcome_as_given(row)) == _as_shown(served)
    quotes = [c["quote"] for claim in row.record.shown["claims"] for c in claim["citations"]]
    assert quotes == [c.quote for claim in served.claims for c in claim.citations]


def test_a_refusal_as_given_is_rebuilt_too() -> None:
    api = TestClient(create_app(fakes().pipeline()))
    served = _ask(api, question=HOME_OFFICE, income_year=2027)
    assert served.decision.value == "period_conflict"
    assert _as_shown(outcome_as_given(_row(api, served.audit_id))) == _as_shown(served)


def test_the_shown_text_is_hashed_as_stored() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    served = _ask(api, question=SBE_FY2015)
    entry = f.audit.get(served.audit_id)
    assert entry is not None and entry.record.shown is not None
    assert json.loads(entry.record.shown)["request_id"] == served.request_id
    assert f.audit.verify().ok


def test_the_log_is_searched_by_question_newest_first() -> None:
    api = TestClient(create_app(fakes().pipeline()))
    first = _ask(api, question=SBE_FY2015)
    _ask(api, question=HOME_OFFICE)
    again = _ask(api, question=SBE_FY2015.upper())
    found = AuditEntries.model_validate(api.get("/v1/audit", params={"contains": "small business"}).json())
    assert [e.id for e in found.entries] == [again.audit_id, first.audit_id]
    one = AuditEntries.model_validate(api.get("/v1/audit", params={"contains": "business", "last": 1}).json())
    assert [e.id for e in one.entries] == [again.audit_id]
    assert api.get("/v1/audit", params={"contains": ""}).status_code == 422
