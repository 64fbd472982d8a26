"""The probe's requests, scripted for the existing replaying stub server of each adapter.

Each exchange starts from the adapter's recorded ``select_good`` / ``write_good`` pair in
``tests/fixtures/generation/<adapter>.json``: the request must carry what the recorded one
carries (model, schema with the key ``enum``, seed, routing, auth header) plus the exact prompt
the probe claims to send; the reply keeps the recorded wire envelope and swaps in the answer a
scripted model gives (or another model name, or an HTTP error).
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

from asat_research.generation.two_pass import PassRequest, selection_request, writing_request
from asat_research.probe.sources import (
    OFFERED_KEY,
    ROUND_TRIP_QUESTION,
    SPANS,
    UNOFFERED_KEY,
    key_question,
    spans_for,
)

from ..generation.stub_server import Exchange, load_exchanges

ADAPTERS = ("openai_compatible", "aggregator", "anthropic", "ollama")
RECORDED = {adapter: load_exchanges(adapter) for adapter in ADAPTERS}
MODELS = {adapter: RECORDED[adapter]["select_good"].body_must["model"] for adapter in ADAPTERS}
REPORTED = {adapter: RECORDED[adapter]["select_good"].response["model"] for adapter in ADAPTERS}
SELECTED = ("S3", "S1")  # what the scripted model selects in pass 1
CLAIM = "A business was a small business entity if its aggregated turnover was less than $2 million."
WRITTEN = {"claims": [{"text": CLAIM, "span_keys": ["S1", "S3"]}], "premise_rejected": False}

Answer = dict[str, Any] | str  # the JSON a model returns, or prose


def probe_env(adapter: str, url: str) -> dict[str, str]:
    """The settings that point the probe at the stub as ``adapter``."""
    base_url = {"openai_compatible": f"{url}/v1", "aggregator": f"{url}/api/v1"}.get(adapter, url)
    return {
        "ASAT_GENERATION_PROVIDER": adapter,
        "ASAT_GENERATION_BASE_URL": base_url,
        "ASAT_GENERATION_MODEL": MODELS[adapter],
        "ASAT_GENERATION_API_KEY": "test-key",
    }


def round_trip_select(adapter: str, answer: Answer = "", **how: Any) -> Exchange:
    keys = {"span_keys": list(SELECTED)}
    return _exchange(adapter, "select", selection_request(ROUND_TRIP_QUESTION, SPANS), answer or keys, **how)


def unoffered_select(adapter: str, answer: Answer = "", **how: Any) -> Exchange:
    """The model asked for S7 (never offered); an enforcing provider cannot return it."""
    request = selection_request(key_question(UNOFFERED_KEY), SPANS)
    return _exchange(adapter, "select", request, answer or {"span_keys": []}, **how)


def offered_select(adapter: str, answer: Answer = "", **how: Any) -> Exchange:
    request = selection_request(key_question(OFFERED_KEY), SPANS)
    return _exchange(adapter, "select", request, answer or {"span_keys": [OFFERED_KEY]}, **how)


def write(adapter: str, answer: Answer = "", selected: tuple[str, ...] = SELECTED, **how: Any) -> Exchange:
    request = writing_request(ROUND_TRIP_QUESTION, spans_for(selected))
    return _exchange(adapter, "write", request, answer or WRITTEN, **how)


def honest(adapter: str) -> list[Exchange]:
    """A provider that enforces the schema and honours the seed: every request the probe sends."""
    exchanges = [round_trip_select(adapter), unoffered_select(adapter), offered_select(adapter), write(adapter)]
    if adapter != "anthropic":  # the Messages API takes no seed, so the probe does not repeat pass 2
        exchanges.append(write(adapter))
    return exchanges


def http_error(adapter: str) -> Exchange:
    """The adapter's recorded HTTP error (model not pulled, no endpoint, schema rejected, overloaded)."""
    name = {
        "openai_compatible": "write_schema_rejected",
        "aggregator": "write_no_endpoint",
        "anthropic": "write_overloaded",
        "ollama": "write_not_pulled",
    }[adapter]
    recorded = RECORDED[adapter][name]
    exchange = round_trip_select(adapter)
    return replace(exchange, name=f"{adapter}:{name}", status=recorded.status, response=recorded.response)


def _exchange(
    adapter: str, step: str, request: PassRequest, answer: Answer, *, model: str | None = None, name: str = ""
) -> Exchange:
    recorded = RECORDED[adapter][f"{step}_good"]
    body_must = copy.deepcopy(recorded.body_must)
    _set_schema(adapter, body_must, request)
    response = copy.deepcopy(recorded.response)
    _set_answer(adapter, response, answer)
    if model is not None:
        response["model"] = model
    label = name or f"{adapter}:{step}:{request.user.splitlines()[0][:60]}"
    return replace(recorded, name=label, body_must=body_must, response=response)


def _set_schema(adapter: str, body: dict[str, Any], request: PassRequest) -> None:
    """The recorded request, with this pass's schema and exact prompt."""
    if adapter == "anthropic":
        body["tools"][0]["input_schema"] = request.schema
        body["system"] = request.system
        body["messages"] = [{"role": "user", "content": request.user}]
        return
    messages = [{"role": "system", "content": request.system}, {"role": "user", "content": request.user}]
    if adapter == "ollama":
        body["format"] = request.schema
    else:
        body["response_format"]["json_schema"]["schema"] = request.schema
    body["messages"] = messages


def _set_answer(adapter: str, response: dict[str, Any], answer: Answer) -> None:
    content = answer if isinstance(answer, str) else json.dumps(answer)
    if adapter == "anthropic":
        if isinstance(answer, str):  # ignoring the forced tool: plain text instead of the tool call
            response["content"] = [{"type": "text", "text": answer}]
            response["stop_reason"] = "end_turn"
        else:
            response["content"][0]["input"] = answer
    elif adapter == "ollama":
        response["message"]["content"] = content
    else:
        response["choices"][0]["message"]["content"] = content
