"""The two passes every schema-bound generator runs, independent of the wire format.

An adapter only knows how to send one :class:`PassRequest` to its API and hand back the raw
:class:`ModelReply`; building the request (prompt, schema whose key field is an ``enum`` of the
keys shown) and judging the reply are the same for every provider and live here and in
:mod:`asat_research.generation.reply_parser`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asat_corpus.chunking import chunk_id_of
from asat_research.generation.port import Generation, GenerationError, NumberedSpan, Selection
from asat_research.generation.prompts import (
    SELECT_INSTRUCTION,
    SYSTEM,
    WRITE_INSTRUCTION,
    claims_schema,
    premise_hint,
    render_spans,
    selection_schema,
)
from asat_research.generation.reply_parser import SchemaViolation, parse_generation, parse_selection
from asat_research.premise.detection import detect_premise
from asat_research.premise.figure_conflicts import figure_conflict
from asat_research.premise.rule_conflicts import rule_conflict

DEFAULT_SEED = 7
SELECT_SCHEMA_NAME = "select_spans"
WRITE_SCHEMA_NAME = "cite_spans"


@dataclass(frozen=True)
class PassRequest:
    schema_name: str  # names the JSON schema (OpenAI) or the forced tool (Anthropic)
    system: str
    user: str
    schema: dict[str, Any]
    keys: tuple[str, ...]  # the span keys offered; the schema's enum


@dataclass(frozen=True)
class ModelReply:
    payload: str | Mapping[str, Any]  # the JSON text, or the already decoded tool input
    provider: str  # who answered, as reported where the API reports it
    model: str  # the model that answered, as reported by the API


Ask = Callable[[PassRequest], ModelReply]


def selection_request(question: str, spans: Sequence[NumberedSpan]) -> PassRequest:
    keys = _offered_keys(spans)
    return PassRequest(
        schema_name=SELECT_SCHEMA_NAME,
        system=SYSTEM,
        user=SELECT_INSTRUCTION.format(question=question, spans=render_spans(spans)),
        schema=selection_schema(keys),
        keys=keys,
    )


def writing_request(question: str, spans: Sequence[NumberedSpan]) -> PassRequest:
    """Pass 2's request; a question that asserts something of the law comes with the premise
    detector's reading of it (a hint: the model's rejection still stands only on a verified quote)."""
    keys = _offered_keys(spans)
    premise = detect_premise(question)
    statements = premise.statements if premise is not None else ()
    conflict = figure_conflict(statements, [span.text for span in spans]) if statements else None
    figure = (conflict.stated.text, conflict.law.text, conflict.concept) if conflict is not None else None
    rule = _denying_rule(statements, spans) if statements else None
    return PassRequest(
        schema_name=WRITE_SCHEMA_NAME,
        system=SYSTEM,
        user=WRITE_INSTRUCTION.format(question=question, spans=render_spans(spans))
        + premise_hint(statements, figure, rule),
        schema=claims_schema(keys),
        keys=keys,
    )


def _denying_rule(statements: Sequence[str], spans: Sequence[NumberedSpan]) -> tuple[str, str, str] | None:
    """(the first span key of the subsection, the statement, the law's line) where a line of a
    subsection offered denies an asserted statement (:func:`asat_research.premise.rule_conflicts.rule_conflict`)."""
    groups: dict[str, list[NumberedSpan]] = {}
    for span in spans:
        if span.kind != "ruling":  # a ruling is the Commissioner's view, not the law
            groups.setdefault(chunk_id_of(span.span_id), []).append(span)
    subsections = list(groups.values())
    denied = rule_conflict(statements, ["\n".join(s.text for s in group) for group in subsections])
    if denied is None:
        return None
    return subsections[denied.passage][0].key, denied.statement, denied.line


def run_select(ask: Ask, question: str, spans: Sequence[NumberedSpan], *, provider: str, model: str) -> Selection:
    """Pass 1. With no spans there is nothing to choose from, so no request is sent."""
    if not spans:
        return Selection(keys=(), provider=provider, model=model)
    request = selection_request(question, spans)
    reply = ask(request)
    try:
        return parse_selection(reply.payload, request.keys, provider=reply.provider, model=reply.model)
    except SchemaViolation as exc:
        raise _ignored_schema(reply, exc) from exc


def run_write(
    ask: Ask, question: str, spans: Sequence[NumberedSpan], *, provider: str, model: str, seed: int | None
) -> Generation:
    """Pass 2, over the selected spans only. With no spans no request is sent and nothing is claimed."""
    if not spans:
        return Generation(claims=(), premise_rejected=False, provider=provider, model=model, seed=seed)
    request = writing_request(question, spans)
    reply = ask(request)
    try:
        return parse_generation(reply.payload, request.keys, provider=reply.provider, model=reply.model, seed=seed)
    except SchemaViolation as exc:
        raise _ignored_schema(reply, exc) from exc


def _offered_keys(spans: Sequence[NumberedSpan]) -> tuple[str, ...]:
    keys = tuple(span.key for span in spans)
    duplicated = sorted({key for key in keys if keys.count(key) > 1})
    if duplicated:
        raise GenerationError(
            f"span keys must be unique within one request, but {', '.join(duplicated)} repeat; "
            "number the spans once per request (S1, S2, ...)."
        )
    return keys


def _ignored_schema(reply: ModelReply, exc: SchemaViolation) -> SchemaViolation:
    return SchemaViolation(
        f"provider {reply.provider} (model {reply.model}) ignored the JSON schema: {exc}. "
        "The reply was discarded, not repaired. Use a provider and model that enforce structured "
        "output, or set ASAT_GENERATION_PROVIDER=extractive."
    )
