"""Asking the system a case's question: in process through a pipeline, or over HTTP.

Each answerer turns a failure of the system under test that is not a bug (a dependency down,
a refused request) into an ``error`` :class:`SystemAnswer` saying what happened, so one bad
case never stops the run.
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any, Protocol

import httpx

from asat_research.evaluation.records import (
    OutcomeLike,
    SystemAnswer,
    answer_from_json,
    answer_from_outcome,
    error_answer,
)
from asat_research.gold import GoldCase
from asat_research.pipeline import DependencyUnavailable
from asat_research.temporal import TemporalError


class Answerer(Protocol):
    def answer(self, case: GoldCase) -> SystemAnswer: ...


class PipelineLike(Protocol):
    def answer(self, question: str, income_year: int | None = None, as_of: date | None = None) -> OutcomeLike: ...


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class PipelineAnswerer:
    """Runs each case through a :class:`~asat_research.pipeline.ResearchPipeline` (or a fake)."""

    def __init__(self, pipeline: PipelineLike) -> None:
        self.pipeline = pipeline

    def answer(self, case: GoldCase) -> SystemAnswer:
        started = time.perf_counter()
        try:
            outcome = self.pipeline.answer(case.question, income_year=case.income_year, as_of=case.as_of)
        except DependencyUnavailable as exc:
            return error_answer(f"dependency_unavailable: {exc}", _elapsed_ms(started))
        except TemporalError as exc:
            return error_answer(f"invalid_request: {exc}", _elapsed_ms(started))
        return answer_from_outcome(outcome, _elapsed_ms(started))


class HttpAnswerer:
    """Posts each case to a running research service's ``POST /v1/research``."""

    def __init__(self, base_url: str, client: httpx.Client | None = None, timeout_s: float = 120.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = client if client is not None else httpx.Client(timeout=timeout_s)

    def close(self) -> None:
        self._client.close()

    def answer(self, case: GoldCase) -> SystemAnswer:
        body: dict[str, Any] = {"question": case.question}
        if case.income_year is not None:
            body["income_year"] = case.income_year
        if case.as_of is not None:
            body["as_of"] = case.as_of.isoformat()
        url = f"{self.base_url}/v1/research"
        started = time.perf_counter()
        try:
            response = self._client.post(url, json=body)
        except httpx.HTTPError as exc:
            return error_answer(
                f"cannot reach the research service at {url}: {exc} (is `python -m asat_research serve` running?)",
                _elapsed_ms(started),
            )
        elapsed = _elapsed_ms(started)
        try:
            payload = response.json()
        except ValueError:
            payload = None
        if response.status_code != 200 or not isinstance(payload, dict):
            detail = payload.get("message", "") if isinstance(payload, dict) else response.text[:200]
            kind = payload.get("error", "http_error") if isinstance(payload, dict) else "http_error"
            return error_answer(f"{kind} (HTTP {response.status_code}): {detail}", elapsed)
        try:
            return answer_from_json(payload, elapsed)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return error_answer(f"unreadable research response from {url}: {exc}", elapsed)
