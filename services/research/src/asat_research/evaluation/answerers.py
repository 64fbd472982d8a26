"""Asking the system a case's question: the :class:`Answerer` port, and asking over HTTP.

Each answerer turns a failure of the system under test that is not a bug (a dependency down,
a refused request) into an ``error`` :class:`SystemAnswer` saying what happened, so one bad
case never stops the run. The in-process answerer, the only one that touches the pipeline, is
``asat_research.eval_target.PipelineAnswerer``: evaluation itself never imports the pipeline.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import httpx

from asat_corpus.service_token import bearer_headers
from asat_research.evaluation.records import SystemAnswer, answer_from_json, error_answer
from asat_research.gold import GoldCase


class Answerer(Protocol):
    def answer(self, case: GoldCase) -> SystemAnswer: ...


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class HttpAnswerer:
    """Posts each case to a running research service's ``POST /v1/research`` (with the service
    token, which the service requires, when given)."""

    def __init__(
        self,
        base_url: str,
        client: httpx.Client | None = None,
        timeout_s: float = 120.0,
        service_token: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = client if client is not None else httpx.Client(timeout=timeout_s)
        self._auth = bearer_headers(service_token)

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
            response = self._client.post(url, json=body, headers=self._auth)
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
