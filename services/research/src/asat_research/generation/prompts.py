"""Every prompt and JSON schema the generators send, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from asat_research.generation.port import NumberedSpan

SYSTEM = (
    "You are a research assistant for registered Australian tax agents. You answer only from the "
    "numbered source spans given to you, which are the law in force for the income year asked about. "
    "You never quote: you cite span keys, and the system takes the quote from the cited span. "
    "If the spans do not answer the question, return no claims. If the question assumes something "
    "the spans contradict, set premise_rejected to true and make a claim that says what the law is."
)

SELECT_INSTRUCTION = (
    "Pass 1 of 2. Question: {question}\n\nSpans:\n{spans}\n\n"
    "Return the keys of every span that helps answer the question, most relevant first. "
    "Return an empty list if none does."
)

WRITE_INSTRUCTION = (
    "Pass 2 of 2. Question: {question}\n\nSelected spans:\n{spans}\n\n"
    "Write the answer as short claims. Each claim states one thing the cited spans say, in plain "
    "words, and cites the keys of the spans that support it. Do not state numbers, amounts, dates "
    "or section numbers that the cited spans do not contain."
)


PREMISE_HINT = (
    "\n\nThe question asserts: {statements}. Check each assertion against the spans. Set "
    "premise_rejected to true only if a span contradicts one, and then make a claim that says what "
    "the law is, citing that span. If the spans support an assertion or do not address it, do not "
    "reject it."
)
FIGURE_HINT = " The spans give {law} for the {concept}, where the question says {stated}."
RULE_HINT = ' Span {key} reads as denying "{statement}": "{line}".'


def premise_hint(
    statements: Sequence[str],
    figure: tuple[str, str, str] | None,
    rule: tuple[str, str, str] | None = None,
) -> str:
    """What the premise detector found, for pass 2: the asserted statements; where a figure the
    question states differs from the law's for the same concept, ``figure`` = (stated, law,
    concept); where a line of a span denies a statement, ``rule`` = (span key, statement, line)."""
    if not statements:
        return ""
    quoted = "; ".join(f'"{statement}"' for statement in statements)
    hint = PREMISE_HINT.format(statements=quoted)
    if figure is not None:
        stated, law, concept = figure
        hint += FIGURE_HINT.format(law=law, concept=concept, stated=stated)
    if rule is not None:
        key, statement, line = rule
        hint += RULE_HINT.format(key=key, statement=statement, line=" ".join(line.split()))
    return hint


def render_spans(spans: Sequence[NumberedSpan]) -> str:
    return "\n".join(f"[{s.key}] {s.label}: {s.text}" for s in spans)


def selection_schema(keys: Sequence[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"span_keys": {"type": "array", "items": {"type": "string", "enum": list(keys)}}},
        "required": ["span_keys"],
        "additionalProperties": False,
    }


def claims_schema(keys: Sequence[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "claims": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "text": {"type": "string"},
                        "span_keys": {"type": "array", "items": {"type": "string", "enum": list(keys)}},
                    },
                    "required": ["text", "span_keys"],
                    "additionalProperties": False,
                },
            },
            "premise_rejected": {"type": "boolean"},
        },
        "required": ["claims", "premise_rejected"],
        "additionalProperties": False,
    }
