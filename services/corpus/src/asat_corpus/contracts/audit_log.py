"""``GET /v1/audit``, ``/v1/audit/{id}`` and ``/v1/audit/verify`` of the research service.

An entry is one stored row of the hash-chained audit log: what was asked, what was decided, the
quotes cited and verified, and the chain hashes.
"""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field

from asat_corpus.contracts.decisions import Decision


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class AuditCitationOut(_Reply):
    version_id: str
    register_ids: tuple[str, ...]
    quote: str
    start: int
    end: int


class ReadingListItemOut(_Reply):
    version_id: str
    register_ids: tuple[str, ...]
    label: str


class StageLatencyOut(_Reply):
    stage: str
    ms: float


class AuditRecordOut(_Reply):
    request_id: str
    question: str
    as_of: date | None
    income_year: int | None
    decision: Decision
    reasons: tuple[str, ...]
    citations: tuple[AuditCitationOut, ...]
    verified_quotes: tuple[AuditCitationOut, ...]
    reading_list: tuple[ReadingListItemOut, ...]
    provider: str
    model: str
    seed: int | None
    corpus_generation: str
    latencies: tuple[StageLatencyOut, ...]
    as_known_on: date | None = None


class AuditEntryOut(_Reply):
    id: int
    recorded_at: datetime = Field(description="The database clock when the row was written.")
    prev_hash: str
    hash: str
    record: AuditRecordOut


class AuditEntries(_Reply):
    """The latest rows, oldest first."""

    entries: tuple[AuditEntryOut, ...]


class ChainBreakOut(_Reply):
    id: int
    kind: str = Field(description="'id_gap', 'prev_hash_mismatch', 'hash_mismatch' or 'unreadable'.")
    detail: str


class ChainReportOut(_Reply):
    """``checked`` counts the rows found intact before the break (all rows when ``ok``)."""

    checked: int
    last_id: int
    last_hash: str
    broken: ChainBreakOut | None
    ok: bool
