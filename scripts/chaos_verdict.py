"""What a chaos run must show, judged from its replies and the audit rows (pure).

Every answer served had verified quotes and an audit row that records exactly what was shown;
every refusal was a 429, 502 or 503 with a reason (never a 500, never a silent drop).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

REFUSALS = frozenset({429, 502, 503})


@dataclass(frozen=True)
class Reply:
    at_s: float  # seconds since the run began
    status: int | None  # None: no HTTP reply (the connection failed)
    body: Mapping[str, Any] | None


@dataclass
class Verdict:
    answers: int = 0
    abstentions: int = 0
    refusals: dict[int, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _quotes(outcome: Mapping[str, Any]) -> list[tuple[str, int, int, str]]:
    return [
        (str(c["source_id"]), int(c["start"]), int(c["end"]), str(c["quote"]))
        for claim in outcome.get("claims", ())
        for c in claim.get("citations", ())
    ]


def judge(replies: Sequence[Reply], rows: Mapping[int, Mapping[str, Any] | None]) -> Verdict:
    """``rows`` maps each audit id the replies name to its ``GET /v1/audit/{id}`` body (``None``
    when there is no such row)."""
    verdict = Verdict()
    for reply in replies:
        where = f"reply at {reply.at_s:.1f}s"
        if reply.status is None:
            verdict.problems.append(f"{where}: no HTTP reply from research (research itself must stay up)")
            continue
        body = reply.body or {}
        if reply.status in REFUSALS:
            verdict.refusals[reply.status] = verdict.refusals.get(reply.status, 0) + 1
            if not str(body.get("message", "")).strip():
                verdict.problems.append(f"{where}: a {reply.status} without a reason")
            continue
        if reply.status != 200:
            verdict.problems.append(f"{where}: HTTP {reply.status} (only 200, 429, 502 or 503 are allowed)")
            continue
        audit_id = body.get("audit_id")
        row = rows.get(audit_id) if isinstance(audit_id, int) else None
        if row is None:
            verdict.problems.append(f"{where}: served without an audit row (audit_id {audit_id!r})")
            continue
        answered = bool(body.get("answered"))
        if answered:
            verdict.answers += 1
            quotes = _quotes(body)
            if not quotes or any(not q for *_, q in quotes):
                verdict.problems.append(f"{where}: an answer without verified quotes (audit row {audit_id})")
        else:
            verdict.abstentions += 1
        shown = (row.get("record") or {}).get("shown")
        if not isinstance(shown, Mapping):
            verdict.problems.append(f"{where}: audit row {audit_id} does not record what was shown")
        elif _quotes(shown) != _quotes(body) or shown.get("decision") != body.get("decision"):
            verdict.problems.append(f"{where}: audit row {audit_id} records something other than what was served")
    return verdict
