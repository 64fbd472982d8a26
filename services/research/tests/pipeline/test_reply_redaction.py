"""A provider's or the database's own error text never reaches a reply: the reply names the
dependency and a log reference; the log has the full text. Over the in-memory ports."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from fastapi.testclient import TestClient

from asat_audit.memory_store import InMemoryAuditStore
from asat_audit.record import AuditEntry, AuditRecord
from asat_audit.store import AuditWriteError
from asat_research.api import create_app
from asat_research.generation.port import Generation, GenerationError, NumberedSpan, Selection

from .fakes import fakes

QUESTION = "What aggregated turnover made a business a small business entity in FY2015?"
KEY = "sk-proj-ABCDEFGH12345678"
DSN = "postgresql://asat_app:hunter2hunter2@db.internal:5432/asat"


class _LeakyGenerator:
    name = "openai-compatible:api.example.com"

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        raise GenerationError(f"api.example.com answered HTTP 401: Incorrect API key provided: {KEY}")

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        raise GenerationError(f"api.example.com answered HTTP 401: Incorrect API key provided: {KEY}")


class _LeakyAudit(InMemoryAuditStore):
    def append(self, record: AuditRecord) -> AuditEntry:
        raise AuditWriteError(f'connection to {DSN} failed: FATAL: password authentication failed for user "asat_app"')


def test_a_providers_error_text_is_logged_not_replied(caplog: pytest.LogCaptureFixture) -> None:
    api = TestClient(create_app(fakes().pipeline(generator=_LeakyGenerator())))
    with caplog.at_level("ERROR", logger="asat_research.errors"):
        response = api.post("/v1/research", json={"question": QUESTION})
    assert response.status_code == 503 and response.json()["dependency"] == "generator"
    message = response.json()["message"]
    assert KEY not in response.text and "Incorrect API key" not in response.text
    reference = message.split("reference ")[1].split(" ")[0]
    assert any(reference in r.getMessage() and KEY in r.getMessage() for r in caplog.records)


def test_the_databases_error_text_is_logged_not_replied() -> None:
    api = TestClient(create_app(fakes().pipeline(audit=_LeakyAudit())))
    response = api.post("/v1/research", json={"question": QUESTION})
    assert response.status_code == 503 and response.json()["dependency"] == "audit log (Postgres)"
    assert "hunter2" not in response.text and "asat_app" not in response.text and "db.internal" not in response.text
    stream = api.post("/v1/research/stream", json={"question": QUESTION})
    assert "hunter2" not in stream.text and "event: error" in stream.text
