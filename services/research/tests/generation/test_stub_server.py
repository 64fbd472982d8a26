"""The stub must refuse what the real API would not have received, or the adapter tests prove nothing."""

from __future__ import annotations

import copy
import json
import urllib.error
import urllib.request

import pytest

from services.research.tests.generation.stub_server import FIXTURES, StubServer, load_exchanges, mismatches


def _post(url: str, body: object, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_mismatches_compares_objects_as_subsets_and_everything_else_exactly() -> None:
    assert mismatches({"a": 1, "b": {"c": [1, 2], "d": 0}}, {"b": {"c": [1, 2]}}) == []
    assert mismatches({"a": [1, 2, 3]}, {"a": [1, 2]}) == ["body.a: expected [1, 2], got [1, 2, 3]"]
    assert mismatches({"seed": 7.0}, {"seed": 7}) == ["body.seed: expected 7, got 7.0"]
    assert mismatches({}, {"seed": 7}) == ["body.seed: missing"]


def test_a_request_without_the_enum_is_answered_418_and_recorded_as_a_problem() -> None:
    exchange = load_exchanges("openai_compatible")["select_good"]
    body = copy.deepcopy(exchange.body_must)
    body["response_format"]["json_schema"]["schema"]["properties"]["span_keys"]["items"].pop("enum")
    server = StubServer().start()
    try:
        server.script(exchange)
        status = _post(f"{server.url}/v1/chat/completions", body, {"Authorization": "Bearer test-key"})
        assert status == 418
        assert server.problems == [
            "select_good: body.response_format.json_schema.schema.properties.span_keys.items.enum: missing"
        ]
    finally:
        server.stop()


def test_the_recorded_request_is_answered_with_the_recorded_response() -> None:
    exchange = load_exchanges("ollama")["select_good"]
    server = StubServer().start()
    try:
        server.script(exchange)
        assert _post(f"{server.url}/api/chat", exchange.body_must, {}) == 200
        assert server.problems == [] and server.unserved() == []
        assert _post(f"{server.url}/api/chat", exchange.body_must, {}) == 418
        assert server.problems == ["no exchange scripted for POST /api/chat"]
    finally:
        server.stop()


@pytest.mark.parametrize("fixture", ["openai_compatible", "aggregator", "anthropic", "ollama"])
def test_every_fixture_says_where_it_came_from_and_loads(fixture: str) -> None:
    about = json.loads((FIXTURES / f"{fixture}.json").read_text(encoding="utf-8"))["_about"]
    assert about.startswith("Hand-written in the ") and "wire format" in about
    assert {"select_good", "write_good", "write_unoffered_key"} <= load_exchanges(fixture).keys()
