"""Plain words for what the pipeline reports: stages, decisions, intervals (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from asat_corpus.contracts.decisions import ANSWERED_AS_THEN_STOOD
from asat_corpus.contracts.research import PeriodPreview
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
    "abstain_deadline": "No answer: the model did not answer before the deadline",
    "period_conflict": "Not asked: the question names one period and the period chosen is another; pick one",
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
    """The current income year (1 July to 30 June): the one used when neither the question nor the
    form names a period (the form's hint says which it is)."""
    return income_year_of(today)


def day_words(day: date) -> str:
    """``1 July 2023``."""
    return f"{day.day} {day:%B} {day.year}"


def year_span(year: int) -> str:
    """``income year 2024, 1 July 2023 to 30 June 2024``."""
    return f"income year {year}, 1 July {year - 1} to 30 June {year}"


def parameter_words(name: str) -> str:
    """``income_year=2027`` as ``the income year chosen (2027)``; ``as_of=D`` as ``the as-at date chosen (D)``."""
    key, _, value = name.partition("=")
    if key == "as_of":
        return f"the as-at date chosen ({value})"
    if key == "income_year":
        return f"the income year chosen ({value})"
    return name


def period_preview(preview: PeriodPreview) -> str:
    """What the page says, live, about the period a question would be answered for."""
    span = f"income year {preview.income_year}, {day_words(preview.start)} to {day_words(preview.end)}"
    conflict = preview.conflict
    if conflict is not None:
        asked, given = conflict.question, conflict.parameter
        return (
            f"{asked.matched} \u2192 {year_span(asked.income_year)}; but {parameter_words(given.name)} \u2192 "
            f"{year_span(given.income_year)}: they disagree, so asking will stop and offer both"
        )
    if preview.source == "question":
        day = f" (as at {preview.as_of.isoformat()})" if preview.as_of else ""
        return f"{preview.matched} \u2192 {span}{day}"
    if preview.source == "parameter":
        return f"{parameter_words(preview.matched)} \u2192 {span}"
    return f"no period in the question \u2192 the current {span}, stated with the answer"


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
        if data.get("period_conflict"):
            return f"{when} (from {data.get('source', 'the request')}), but the question names another period"
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
        return "decided; shown once the audit row is written"
    if stage == "audit":
        return f"audit row {data.get('audit_id')}"
    return ""


def stage_label(stage: str) -> str:
    return dict(STAGES).get(stage, stage)
