"""``GET /v1/audit``, ``/v1/audit/{id}`` and ``/v1/audit/verify`` of the research service.

An entry is one stored row of the hash-chained audit log: what was asked, what was decided, the
quotes cited and verified, and the chain hashes.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from asat_corpus.contracts.decisions import Decision
from asat_corpus.contracts.research import ResearchOutcome


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


class AskedByOut(_Reply):
    """Who asked: the user (id and email as of asking), the practice, and the client (or none)."""

    user_id: int
    user_email: str
    practice_id: int
    client_id: int | None = None


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
    shown: dict[str, Any] | None = Field(
        default=None,
        description="What the user was shown: the research outcome as served, less audit_id and latencies_ms; "
        "null for rows written before it was recorded.",
    )
    asked_by: AskedByOut | None = Field(
        default=None,
        description="Who asked and for which practice (and client); null for rows written before it was "
        "recorded and for questions asked without a signed-in user (the terminal client, evaluation).",
    )

    @field_validator("shown", mode="before")
    @classmethod
    def _parsed(cls, value: object) -> object:
        """The audit library keeps ``shown`` as JSON text (the hash covers its bytes): parse it."""
        return json.loads(value) if isinstance(value, str) else value


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


class CheckpointOut(_Reply):
    """A signed checkpoint: rows ``first_id`` .. ``last_id``, signed at ``signed_at``."""

    first_id: int
    last_id: int
    last_hash: str
    signed_at: datetime
    key_id: str


class AnchorsOut(_Reply):
    """The log checked against its signed checkpoints (``problem`` and ``first_bad_id`` when not ok)."""

    ok: bool
    checkpoints: int = Field(description="Checkpoints found intact (before the problem, if any).")
    anchored_id: int = Field(description="The last row covered by an intact checkpoint (0: none).")
    last_checkpoint: CheckpointOut | None
    problem: str | None = Field(
        description="'bad_signature', 'checkpoint_gap', 'rewritten', 'truncated' or 'database_copy_differs'."
    )
    first_bad_id: int | None
    detail: str


class ChainReportOut(_Reply):
    """``checked`` counts the rows found intact before the break (all rows when the chain holds).

    ``anchors`` is null when no signed checkpoints were checked (none configured): then ``ok``
    only says the chain holds internally, which an owner who recomputes it, or cuts rows from the
    end, would not break. ``ok`` is the chain and the checkpoints together."""

    checked: int
    last_id: int
    last_hash: str
    broken: ChainBreakOut | None
    ok: bool
    rows: int | None = Field(default=None, description="Rows stored.")
    first_bad_id: int | None = Field(default=None, description="The first row found bad, by either check.")
    anchors: AnchorsOut | None = None
    unanchored_rows: int | None = Field(
        default=None, description="Rows after the last intact checkpoint: protected by the chain alone for now."
    )


class NotRecordedError(ValueError):
    """The audit row predates the recording of what was shown."""


def outcome_as_given(entry: AuditEntryOut) -> ResearchOutcome:
    """The research outcome exactly as the row records it was shown (its ``audit_id`` the row's
    id, its ``latencies_ms`` the row's latencies). Raises :class:`NotRecordedError` for a row
    written before ``shown`` was recorded, and ``pydantic.ValidationError`` for one whose
    ``shown`` is not an outcome."""
    shown = entry.record.shown
    if shown is None:
        raise NotRecordedError(
            f"audit row {entry.id} was written before the audit log recorded what was shown: ask the question "
            "again to get an answer that can be re-opened and exported"
        )
    latencies = {latency.stage: latency.ms for latency in entry.record.latencies}
    return ResearchOutcome.model_validate({**shown, "audit_id": entry.id, "latencies_ms": latencies})
