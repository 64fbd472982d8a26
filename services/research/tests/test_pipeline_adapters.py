"""A misbehaving model behind each real generator adapter never gets an unverified claim into a
response.

A local stub speaks each provider's wire format (OpenAI chat completions, the aggregator's
OpenAI-style API, Anthropic messages with a forced tool call, Ollama chat). Pass 1 selects the
offered keys it finds in the request's schema enum; pass 2 replies with a scripted bad answer:
a changed number, a dropped or added negation, a key that was never offered, or the span id of
the out-of-period version. The pipeline must end with no claims (an abstention) or refuse the
reply as a broken dependency (503), and never answer with the bad claim.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import Generator
from asat_research.pipeline import DependencyUnavailable

from .stack import QUESTION, Stack

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

# Scripts: (claim text, which keys it cites). "first3" means the first three offered keys.
SCRIPTS = {
    "changes a number": ("Aggregated turnover had to be less than $20 million.", "first3"),
    "adds a negation": ("You are not a small business entity if you carry on a business.", "first3"),
    "cites an unoffered id": ("Turnover had to be less than $2 million.", ["S999"]),
    "cites the out-of-period version": (
        "Turnover had to be less than $10 million.",
        ["itaa1997:328-110@C2026C00122/1#s3"],
    ),
}


def _schema(body: dict[str, Any]) -> dict[str, Any]:
    if "response_format" in body:
        schema: dict[str, Any] = body["response_format"]["json_schema"]["schema"]
        return schema
    if body.get("tools"):
        tool_schema: dict[str, Any] = body["tools"][0]["input_schema"]
        return tool_schema
    format_schema: dict[str, Any] = body["format"]
    return format_schema


class _Model:
    """Answers pass 1 with every offered key and pass 2 with the current script."""

    def __init__(self) -> None:
        self.script: tuple[str, Any] = SCRIPTS["changes a number"]

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        schema = _schema(body)
        properties = schema["properties"]
        if "span_keys" in properties:
            return {"span_keys": list(properties["span_keys"]["items"]["enum"])}
        offered = properties["claims"]["items"]["properties"]["span_keys"]["items"]["enum"]
        text, keys = self.script
        if isinstance(keys, tuple):  # ("match", words): cite the offered spans whose text has the words
            lines = "\n".join(str(m.get("content", "")) for m in body.get("messages", [])).splitlines()
            shown = {m.group(1): m.group(2) for line in lines if (m := re.match(r"\[(S\d+)\] (.*)", line))}
            cited = [k for k in offered if keys[1] in shown.get(k, "")]
        else:
            cited = offered[:3] if keys == "first3" else keys
        return {"claims": [{"text": text, "span_keys": cited}], "premise_rejected": False}


def _wire(path: str, body: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    content = json.dumps(answer)
    if path.endswith("/chat/completions"):
        return {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": 0,
            "model": "stub-model",
            "provider": "StubProvider",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    if path.endswith("/messages"):
        return {
            "id": "msg_stub",
            "type": "message",
            "role": "assistant",
            "model": "stub-claude",
            "content": [{"type": "tool_use", "id": "toolu_stub", "name": body["tools"][0]["name"], "input": answer}],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    return {
        "model": "stub-llama",
        "created_at": "2026-01-01T00:00:00Z",
        "message": {"role": "assistant", "content": content},
        "done": True,
        "done_reason": "stop",
    }


@pytest.fixture(scope="module")
def model() -> Iterator[tuple[_Model, str]]:
    scripted = _Model()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            payload = json.dumps(_wire(self.path, body, scripted.reply(body))).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield scripted, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


ADAPTERS: dict[str, Callable[[str], Generator]] = {
    "openai_compatible": lambda url: OpenAICompatibleGenerator(f"{url}/v1", "stub-model", "key", max_retries=0),
    "aggregator": lambda url: AggregatorGenerator(f"{url}/v1", "stub-model", "key", max_retries=0),
    "anthropic": lambda url: AnthropicGenerator("stub-claude", "key", base_url=url, max_retries=0),
    "ollama": lambda url: OllamaGenerator("stub-llama", base_url=url),
}


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
@pytest.mark.parametrize("misbehaviour", sorted(SCRIPTS))
def test_no_unverified_claim_reaches_a_response(
    stack: Stack, model: tuple[_Model, str], adapter: str, misbehaviour: str
) -> None:
    scripted, url = model
    scripted.script = SCRIPTS[misbehaviour]
    pipeline = stack.pipeline(ADAPTERS[adapter](url))
    try:
        outcome = pipeline.answer(QUESTION, income_year=2015)
    except DependencyUnavailable as refused:
        # Only a reply outside the schema (a key that was not offered) may be refused outright;
        # a well-formed reply with a false claim must reach verification and be dropped there.
        assert misbehaviour.startswith("cites"), refused
        assert refused.dependency == "generator" and "ignored the JSON schema" in refused.message
        return
    assert outcome.claims == (), (adapter, misbehaviour)
    assert outcome.decision != "answer"
    assert outcome.dropped_claims == 1


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_a_faithful_model_behind_each_adapter_answers_and_is_recorded(
    stack: Stack, model: tuple[_Model, str], adapter: str
) -> None:
    scripted, url = model
    scripted.script = ("Aggregated turnover for the previous year was less than $2 million.", ("match", "$2 million"))
    outcome = stack.pipeline(ADAPTERS[adapter](url)).answer(QUESTION, income_year=2015)
    assert outcome.decision == "answer", outcome.reasons
    assert [c.text for c in outcome.claims] == ["Aggregated turnover for the previous year was less than $2 million."]
    assert outcome.model.startswith("stub-")  # the model the provider reported, not the configured one
    assert stack.audit.last(1)[0].record.model == outcome.model
