"""Plain words for what the pipeline reports: stages, decisions, intervals (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from asat_corpus.contracts.decisions import ANSWERED_AS_THEN_STOOD
from asat_corpus.income_year import income_year_of

STAGES: tuple[tuple[str, str], ...] = (
    ("resolve", "Resolve the period"),
    ("retrieve", "Retrieve passages"),
    ("rerank", "Rerank"),
    ("generate", "Generate claims"),
    ("verify", "Verify quotes"),
    ("gate", "Gate: answer or abstain"),
    ("audit", "Record in the audit log"),
)

DECISIONS: Mapping[str, str] = {
    "answer": "Answer",
    "answered_as_then_stood": "Answer from the law as it then stood: the law as it now stands for that date is not held",
    "abstain_temporal_violation": "No answer: a cited text was not in force in the period asked about",
    "abstain_text_not_held": "No answer: the text in force then is not held",
    "abstain_nothing_retrieved": "No answer: nothing in the corpus is in force for that period",
    "abstain_low_relevance": "No answer: the corpus does not appear to address this question",
    "abstain_no_verified_claim": "No answer: no claim could be verified against its source",
    "abstain_insufficient_sources": "No answer: too few independent sources support an answer",
    "abstain_version_conflict": "No answer: the provision changed during the year; ask as at a date",
}

NOT_AUTHORISED = "third-party conversion, not an authorised version"
GENERATION_CHARS = 12


def caveat_heading(decision: str) -> str:
    """The heading over an answer's caveats."""
    if decision == ANSWERED_AS_THEN_STOOD:
        return "Read with this caveat: the text quoted is the law as it then stood"
    return "Caveats"


def decision_heading(decision: str) -> str:
    return DECISIONS.get(decision, "No answer" if decision.startswith("abstain") else decision)


def default_income_year(today: date) -> int:
    """The current income year (1 July to 30 June), the form's default."""
    return income_year_of(today)


def interval(valid_from: str | None, valid_to: str | None) -> str:
    """``[valid_from, valid_to)`` in words, with the last day in force (``valid_to`` is exclusive)."""
    start = valid_from or "an unknown date"
    if valid_to is None:
        return f"in force from {start}, still in force"
    try:
        last = (date.fromisoformat(valid_to) - timedelta(days=1)).isoformat()
    except ValueError:
        return f"in force from {start} until before {valid_to}"
    return f"in force from {start} to {last}"


def short_generation(generation: str) -> str:
    return generation[:GENERATION_CHARS]


def stage_summary(stage: str, data: Mapping[str, Any]) -> str:
    """One line saying what a stage found, from its event data."""
    if stage == "resolve":
        when = f"as at {data['as_of']}" if data.get("as_of") else f"income year {data.get('income_year')}"
        if data.get("as_known_on"):
            when = f"as known on {data['as_known_on']}, {when}"
        return f"{when} (from {data.get('source', 'the request')})"
    if stage == "retrieve":
        return f"{data.get('hits', 0)} passages, {data.get('gap_markers', 0)} markers of text not held"
    if stage == "rerank":
        score = data.get("top_score")
        best = f"best score {score:.3f}" if isinstance(score, int | float) else "nothing scored"
        return f"{len(data.get('parents') or [])} sources kept, {best}"
    if stage == "generate":
        return f"{data.get('claims', 0)} claims from {data.get('selected', 0)} of {data.get('offered', 0)} spans"
    if stage == "verify":
        return f"{data.get('verified', 0)} of {data.get('claims', 0)} claims verified"
    if stage == "gate":
        return decision_heading(str(data.get("decision", "")))
    if stage == "audit":
        return f"audit row {data.get('audit_id')}"
    return ""


def stage_label(stage: str) -> str:
    return dict(STAGES).get(stage, stage)
