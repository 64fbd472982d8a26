"""Who asked is recorded in the audit row: ``asked_by`` of ``POST /v1/research`` (and of its stream
and of the answer across years) reaches ``AuditRecord.asked_by``, enters the hashed document, and
``GET /v1/audit?practice_id=`` lists one practice's rows only. Over the in-memory ports of ``fakes.py``."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from asat_audit.canonical import chain_hash, record_document
from asat_audit.record import AskedBy
from asat_corpus.contracts.audit_log import AuditEntries, AuditEntryOut
from asat_research.api import create_app

from .fakes import fakes

SBE_FY2015 = "What aggregated turnover made a business a small business entity in FY2015?"
JO = {"user_id": 7, "user_email": "jo@alpha.example", "practice_id": 3, "client_id": 12}
AL = {"user_id": 8, "user_email": "al@beta.example", "practice_id": 4}


def _ask(api: TestClient, **body: Any) -> int:
    response = api.post("/v1/research", json={"question": SBE_FY2015} | body)
    assert response.status_code == 200, response.text
    audit_id: int = response.json()["audit_id"]
    return audit_id


def test_the_audit_row_records_who_asked_and_is_chained() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    asked = _ask(api, asked_by=JO)
    anonymous = _ask(api)
    entry = f.audit.get(asked)
    assert entry is not None and entry.record.asked_by == AskedBy(7, "jo@alpha.example", 3, 12)
    assert entry.hash == chain_hash(entry.prev_hash, record_document(entry.id, entry.recorded_at, entry.record))
    assert record_document(entry.id, entry.recorded_at, entry.record)["asked_by"] == JO
    plain = f.audit.get(anonymous)
    assert plain is not None and plain.record.asked_by is None
    assert "asked_by" not in record_document(plain.id, plain.recorded_at, plain.record)
    row = AuditEntryOut.model_validate(api.get(f"/v1/audit/{asked}").json())
    assert row.record.asked_by is not None and row.record.asked_by.model_dump() == JO
    assert f.audit.verify().ok


def test_the_stream_records_who_asked_too() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    with api.stream("POST", "/v1/research/stream", json={"question": SBE_FY2015, "asked_by": AL}) as reply:
        assert reply.status_code == 200
        "".join(reply.iter_text())
    (entry,) = f.audit.last(1)
    assert entry.record.asked_by == AskedBy(8, "al@beta.example", 4, None)


def test_each_year_across_years_records_who_asked() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    body = {"question": SBE_FY2015, "asked_by": JO}
    with api.stream("POST", "/v1/research/across-years", json=body) as reply:
        assert reply.status_code == 200
        "".join(reply.iter_text())
    rows = f.audit.last(50)
    assert rows and all(e.record.asked_by == AskedBy(7, "jo@alpha.example", 3, 12) for e in rows)


def test_the_log_lists_one_practice_s_rows() -> None:
    api = TestClient(create_app(fakes().pipeline()))
    jo_first, al_row, jo_second, anonymous = (
        _ask(api, asked_by=JO),
        _ask(api, asked_by=AL),
        _ask(api, asked_by=JO),
        _ask(api),
    )

    def ids(**query: Any) -> list[int]:
        reply = api.get("/v1/audit", params={"last": 50} | query)
        assert reply.status_code == 200, reply.text
        return [e.id for e in AuditEntries.model_validate(reply.json()).entries]

    assert ids(practice_id=3) == [jo_second, jo_first]
    assert ids(practice_id=4) == [al_row]
    assert ids(practice_id=5) == []
    assert ids() == [anonymous, jo_second, al_row, jo_first]
    assert ids(practice_id=3, contains="TURNOVER") == [jo_second, jo_first]
    assert api.get("/v1/audit", params={"practice_id": 0}).status_code == 422


def test_a_malformed_asked_by_is_refused_before_anything_runs() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    for bad in (AL | {"user_id": 0}, AL | {"user_email": "nobody"}, AL | {"role": "owner"}, {"user_id": 1}):
        reply = api.post("/v1/research", json={"question": SBE_FY2015, "asked_by": bad})
        assert reply.status_code == 422, bad
    assert f.audit.last(10) == ()
