"""The research history: the practice's questions (``app.research_history``, under row-level
security), each answer as it was given (from its audit row), and the request that asks one again
for the same period (pure).

Each outcome research returns to a signed-in user is kept in the practice's history before it is
shown (``history_entry_of``: the audit row, who asked and for which client, the question as sent, the
period and decision, the corpus generation); the history and audit lists read it, and a page that
takes an audit row's id opens only the practice's own (``AccountsStore.owns_audit_row``).

An answer is rebuilt from its audit row with ``outcome_as_given`` (the row records what was
shown); a row written before that was recorded has no answer to show, only its message. Asking
again sends the row's question with the period it was answered for, as it was asked: nothing
when the period came from the question (the question still says it), the parameter when one was
given, and the income year when it was the current one then (so that the same year is asked).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from asat_accounts.model import ResearchHistoryEntry
from asat_corpus.contracts.audit_log import AuditEntryOut, AuditRecordOut, NotRecordedError, outcome_as_given
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.research import OutcomeScope, ResearchOutcome
from asat_web.labels import day_words

MAX_SEARCH_CHARS = 200  # the history search's limit (asat_accounts.fields.MAX_HISTORY_SEARCH)

# Keeps an outcome (with the question as sent) in the practice's research history before it is
# shown: None when kept, else why not (the outcome is then not shown: its audit row would not open
# for the practice).
Recorder = Callable[[ResearchOutcome, str], Awaitable[str | None]]


@dataclass(frozen=True)
class HistoryRow:
    """One recent question, as the history page lists it."""

    audit_id: int
    question: str
    period: str
    decision: str  # the decision's value (the page says it in words)
    asked: str
    corpus_generation: str


@dataclass(frozen=True)
class GivenAnswer:
    """The answer as given (``outcome``), or why it cannot be shown (``problem``): never both."""

    outcome: ResearchOutcome | None
    problem: str | None


def asked_on(recorded_at: datetime) -> str:
    """``1 April 2026 at 10:00 UTC`` (a naive time is taken as UTC, the audit log's clock)."""
    when = recorded_at.astimezone(UTC) if recorded_at.tzinfo else recorded_at
    return f"{day_words(when.date())} at {when:%H:%M} UTC"


def record_period(record: AuditRecordOut) -> str:
    """The period the row's question was answered for, in words."""
    if record.as_known_on is not None:
        return f"as known on {record.as_known_on.isoformat()}"
    if record.as_of is not None:
        return f"as at {record.as_of.isoformat()}"
    return f"income year {record.income_year}" if record.income_year is not None else "no period recorded"


def scope_period(scope: OutcomeScope) -> str:
    """The period an outcome was answered for, in words (as ``record_period`` says a row's)."""
    if scope.as_known_on is not None:
        return f"as known on {scope.as_known_on.isoformat()}"
    if scope.as_of is not None:
        return f"as at {scope.as_of.isoformat()}"
    return f"income year {scope.income_year}"


def history_entry_of(
    outcome: ResearchOutcome, question: str, user_id: int, client_id: int | None, asked_at: datetime
) -> ResearchHistoryEntry:
    """The practice's history row of ``outcome``: its audit row, asked by ``user_id`` for
    ``client_id``, the question as sent, the period and decision, the corpus generation."""
    return ResearchHistoryEntry(
        audit_id=outcome.audit_id,
        user_id=user_id,
        client_id=client_id,
        question=question,
        period=scope_period(outcome.scope),
        decision=outcome.decision.value,
        corpus_generation=outcome.corpus_generation,
        asked_at=asked_at,
    )


def history_rows(entries: Iterable[AuditEntryOut | ResearchHistoryEntry]) -> tuple[HistoryRow, ...]:
    """The rows (of the practice's history, or audit rows), newest (highest audit row) first."""
    return tuple(sorted((_row(e) for e in entries), key=lambda r: r.audit_id, reverse=True))


def _row(entry: AuditEntryOut | ResearchHistoryEntry) -> HistoryRow:
    if isinstance(entry, ResearchHistoryEntry):
        return HistoryRow(
            audit_id=entry.audit_id,
            question=entry.question,
            period=entry.period,
            decision=entry.decision,
            asked=asked_on(entry.asked_at),
            corpus_generation=entry.corpus_generation,
        )
    return HistoryRow(
        audit_id=entry.id,
        question=entry.record.question,
        period=record_period(entry.record),
        decision=entry.record.decision.value,
        asked=asked_on(entry.recorded_at),
        corpus_generation=entry.record.corpus_generation,
    )


def answer_as_given(entry: AuditEntryOut) -> GivenAnswer:
    """The row's answer exactly as it was shown, or the reason it cannot be shown."""
    try:
        return GivenAnswer(outcome_as_given(entry), None)
    except NotRecordedError as exc:
        return GivenAnswer(None, str(exc))
    except ValidationError as exc:
        return GivenAnswer(
            None,
            f"audit row {entry.id} records an answer that is not a research outcome "
            f"({describe_validation_error(exc)}), so it is not shown: ask the question again",
        )


def ask_again_body(entry: AuditEntryOut, given: ResearchOutcome | None) -> dict[str, Any]:
    """Research's ``POST /v1/research`` request asking the row's question again for the same period.

    With the answer as given, its ``scope`` says where the period came from: from the question,
    nothing is sent; else the as-known-on day, the as-at day or the income year. Without it (a
    row written before what was shown was recorded), the row's own period is sent: it is the one
    the question was answered for, so it agrees with any period the question names.
    """
    body: dict[str, Any] = {"question": entry.record.question}
    income_year: int | None
    if given is not None:
        scope = given.scope
        if scope.source == "question":
            return body
        as_known_on, as_of, income_year = scope.as_known_on, scope.as_of, scope.income_year
    else:
        record = entry.record
        as_known_on, as_of, income_year = record.as_known_on, record.as_of, record.income_year
    if as_known_on is not None:
        body["as_known_on"] = as_known_on.isoformat()
    elif as_of is not None:
        body["as_of"] = as_of.isoformat()
    elif income_year is not None:
        body["income_year"] = income_year
    return body


def request_period(body: dict[str, Any]) -> str:
    """The period an ask-again request sends, in words."""
    if "as_known_on" in body:
        return f"as known on {body['as_known_on']}"
    if "as_of" in body:
        return f"as at {body['as_of']}"
    if "income_year" in body:
        return f"income year {body['income_year']}"
    return "the period the question names"
