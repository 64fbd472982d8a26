"""``python -m asat_research.provider_probe`` against each adapter's stub server.

The stub replays the adapter's recorded wire format (``tests/generation/stub_server.py``) and
checks every request the probe sends against the recorded one plus the probe's exact prompt, so
a verdict here comes from the requests a real provider would receive. Scripted misbehaviour: the
schema ignored, an unoffered key returned, an offered key refused, the model name ignored, the
seed ignored, an HTTP error, no answer (timeout), nothing listening; plus the extractive default
and settings the service would refuse.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.factory import build_generator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.probe.build import probe_generator
from asat_research.probe.model_names import same_model
from asat_research.provider_probe import main

from .generation.stub_server import StubServer
from .probe.model_exchanges import (
    ADAPTERS,
    CLAIM,
    MODELS,
    REPORTED,
    http_error,
    offered_select,
    probe_env,
    round_trip_select,
    unoffered_select,
    write,
)
from .probe.silent_server import SilentServer, refused_url

SEEDED = tuple(adapter for adapter in ADAPTERS if adapter != "anthropic")
ABSTENTION_ADVICE = "expect a higher abstention rate; the verifier still protects you"


@pytest.fixture(scope="module")
def stub_server() -> Iterator[StubServer]:
    server = StubServer().start()
    yield server
    server.stop()


@pytest.fixture
def stub(stub_server: StubServer) -> Iterator[StubServer]:
    stub_server.reset()
    yield stub_server
    assert stub_server.problems == [], f"requests the real API would not have received: {stub_server.problems}"
    assert stub_server.unserved() == [], f"scripted exchanges never requested: {stub_server.unserved()}"


def _probe(capsys: pytest.CaptureFixture[str], env: Mapping[str, str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["--json", "--timeout", "5", *argv], env)
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["exit_code"] == code
    return code, report


def _statuses(report: dict[str, Any]) -> dict[str, str]:
    return {check["name"]: check["status"] for check in report["checks"]}


def _check(report: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(check for check in report["checks"] if check["name"] == name)
    return found


def _sent(body: dict[str, Any]) -> tuple[str, list[str]]:
    """The user prompt and the span-key enum of one request, whatever the wire format."""
    if body.get("tools"):
        schema = body["tools"][0]["input_schema"]
    else:
        schema = body["format"] if "format" in body else body["response_format"]["json_schema"]["schema"]
    properties = schema["properties"]
    keys = (
        properties["span_keys"]
        if "span_keys" in properties
        else properties["claims"]["items"]["properties"]["span_keys"]
    )
    return body["messages"][-1]["content"], keys["items"]["enum"]


def _honest_rest(adapter: str) -> list[Any]:
    """After pass 1 and the two key questions: pass 2, and pass 2 again where a seed is sent."""
    return [write(adapter), write(adapter)] if adapter in SEEDED else [write(adapter)]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_provider_that_enforces_the_schema_passes_every_check(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    stub.script(round_trip_select(adapter), unoffered_select(adapter), offered_select(adapter), *_honest_rest(adapter))
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 0
    assert report["verdict"] == "ok"
    seed_status = "pass" if adapter in SEEDED else "info"
    assert _statuses(report) == {
        "reachable": "pass",
        "model": "pass",
        "enum": "pass",
        "seed": seed_status,
        "two_pass": "pass",
    }
    assert [check["name"] for check in report["checks"]] == ["reachable", "model", "enum", "seed", "two_pass"]
    assert _check(report, "reachable")["data"]["latency_ms"] > 0
    assert _check(report, "model")["data"]["reported"].startswith(REPORTED[adapter])
    assert _check(report, "enum")["data"]["unoffered_reply"] == []
    assert _check(report, "enum")["data"]["offered_reply"] == ["S2"]
    assert _check(report, "two_pass")["data"] == {
        "selected": ["S3", "S1"],
        "claims": [{"text": CLAIM, "span_keys": ["S1", "S3"]}],
    }
    assert _check(report, "seed")["data"] == {"seed": 7 if adapter in SEEDED else None}
    sent = [_sent(received.body) for received in stub.received]
    assert [enum for _, enum in sent] == [["S1", "S2", "S3"]] * 3 + [["S1", "S3"]] * (len(sent) - 3)
    assert sent[0][0].startswith("Pass 1 of 2. Question: What aggregated turnover threshold made a business")
    assert "Question: This question tests span keys only. Return exactly one span key: S7.\n" in sent[1][0]
    assert "Question: This question tests span keys only. Return exactly one span key: S2.\n" in sent[2][0]
    assert all(prompt.startswith("Pass 2 of 2.") and "[S2]" not in prompt for prompt, _ in sent[3:])


def test_the_text_report_has_a_line_per_check_and_never_the_key(
    stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = "openai_compatible"
    stub.script(round_trip_select(adapter), unoffered_select(adapter), offered_select(adapter), *_honest_rest(adapter))
    code = main(["--timeout", "5"], probe_env(adapter, stub.url))
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert [line.split()[0] for line in lines] == [
        "provider",
        "reachable",
        "model",
        "enum",
        "seed",
        "two_pass",
        "result",
    ]
    assert [line.split()[1] for line in lines[1:-1]] == ["PASS"] * 5
    assert lines[0] == f"provider   openai_compatible at {stub.url}/v1, model gpt-4o-2024-08-06 (timeout 5 s)"
    assert lines[-1] == "result     every check passed (exit 0)."
    assert all("test-key" not in line for line in lines)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_provider_that_returns_an_unoffered_id_is_weak(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    stub.script(
        round_trip_select(adapter),
        unoffered_select(adapter, {"span_keys": ["S7"]}),
        offered_select(adapter),
        *_honest_rest(adapter),
    )
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 1
    assert report["verdict"] == "weak"
    assert _statuses(report)["enum"] == "weak"
    assert [name for name, status in _statuses(report).items() if status not in ("pass", "info")] == ["enum"]
    enum = _check(report, "enum")
    assert enum["data"]["unoffered_reply"] == "span_keys cites 'S7', which was not offered (offered: S1, S2, S3)"
    assert ABSTENTION_ADVICE in enum["detail"].lower()
    assert ABSTENTION_ADVICE in report["summary"].lower()


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_provider_that_ignores_the_schema_is_not_usable(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    prose = "The threshold was $2 million (see S3)."
    stub.script(
        round_trip_select(adapter, prose), unoffered_select(adapter, prose), offered_select(adapter, prose)
    )  # pass 1 gave nothing usable, so no pass 2 is sent
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 2
    assert _statuses(report) == {
        "reachable": "pass",
        "model": "skipped",
        "enum": "weak",
        "seed": "skipped",
        "two_pass": "fail",
    }
    two_pass = _check(report, "two_pass")["detail"]
    assert two_pass.startswith("pass 1 failed: ")
    if adapter == "anthropic":
        assert "did not make exactly one forced select_spans tool call (it returned text)" in two_pass
    else:
        assert "ignored the JSON schema: the reply is not JSON" in two_pass
        assert "ASAT_GENERATION_PROVIDER=extractive" in two_pass
    assert report["summary"] == "not usable as configured (exit 2): fix what the two_pass line says."


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_provider_that_refuses_an_offered_id_is_not_usable(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    stub.script(
        round_trip_select(adapter),
        unoffered_select(adapter),
        offered_select(adapter, {"span_keys": []}),
        *_honest_rest(adapter),
    )
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 2
    assert _statuses(report)["enum"] == "fail"
    enum = _check(report, "enum")
    assert enum["data"]["offered_reply"] == []
    assert "asked for S2, offered: got [], so an offered key was refused" in enum["detail"]
    assert "asked for S7, never offered: got [], the enum held" in enum["detail"]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_server_that_ignores_the_model_name_is_misconfigured(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    other = "qwen2.5-7b-instruct"
    stub.script(
        round_trip_select(adapter, model=other),
        unoffered_select(adapter, model=other),
        offered_select(adapter, model=other),
        *[write(adapter, model=other) for _ in _honest_rest(adapter)],
    )
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 2
    assert [name for name, status in _statuses(report).items() if status == "fail"] == ["model"]
    model = _check(report, "model")
    assert model["data"]["configured"] == MODELS[adapter]
    assert model["data"]["reported"].startswith(other)
    assert f"ASAT_GENERATION_MODEL is {MODELS[adapter]!r} but the reply names {other!r}" in model["detail"]
    assert f"set ASAT_GENERATION_MODEL={other}." in model["detail"]


@pytest.mark.parametrize("adapter", SEEDED)
def test_a_provider_that_does_not_honour_the_seed_is_weak(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    varied = {"claims": [{"text": "Turnover under $2 million.", "span_keys": ["S3"]}], "premise_rejected": False}
    stub.script(
        round_trip_select(adapter),
        unoffered_select(adapter),
        offered_select(adapter),
        write(adapter),
        write(adapter, varied),
    )
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 1
    assert [name for name, status in _statuses(report).items() if status != "pass"] == ["seed"]
    seed = _check(report, "seed")
    assert seed["detail"].startswith("seed 7 sent, but the same pass 2 twice gave different claims")
    assert seed["data"]["second"] == [["Turnover under $2 million.", ["S3"]]]
    assert report["summary"] == "usable but weak (exit 1): seed. Answers may differ from run to run."
    assert all(
        received.body.get("seed", received.body.get("options", {}).get("seed")) == 7 for received in stub.received
    )


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_provider_that_times_out_is_unreachable(capsys: pytest.CaptureFixture[str], adapter: str) -> None:
    silent = SilentServer().start()
    try:
        code, report = _probe(capsys, probe_env(adapter, silent.url), "--timeout", "0.3")
    finally:
        silent.stop()
    assert code == 2
    assert silent.accepted == 1  # one request, no retry
    assert _statuses(report) == {
        "reachable": "fail",
        "model": "skipped",
        "enum": "skipped",
        "seed": "skipped",
        "two_pass": "skipped",
    }
    reachable = _check(report, "reachable")
    assert reachable["data"]["failure"] == "timed_out"
    assert reachable["detail"].startswith("no answer within 0.")
    assert "ASAT_GENERATION_BASE_URL" in reachable["detail"]
    assert report["summary"] == "not usable as configured (exit 2): fix what the reachable line says."


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_provider_nothing_listens_for_names_the_base_url(capsys: pytest.CaptureFixture[str], adapter: str) -> None:
    code, report = _probe(capsys, probe_env(adapter, refused_url()))
    assert code == 2
    reachable = _check(report, "reachable")
    assert reachable["status"] == "fail"
    assert reachable["data"]["failure"] == "unreachable"
    assert reachable["detail"].startswith("not reachable: ")
    assert "check ASAT_GENERATION_BASE_URL" in reachable["detail"]


@pytest.mark.parametrize(
    ("adapter", "says"),
    [
        ("openai_compatible", "answered HTTP 400 for model gpt-4o-2024-08-06: Error code: 400"),
        ("aggregator", "answered HTTP 404 for model meta-llama/llama-3.3-70b-instruct"),
        ("anthropic", "answered HTTP 529 for model claude-sonnet-4-5"),
        ("ollama", 'answered HTTP 404 for model llama3.1:8b: model "llama3.1:8b" not found'),
    ],
)
def test_an_http_error_fails_naming_what_to_check(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str, says: str
) -> None:
    stub.script(http_error(adapter))
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 2
    reachable = _check(report, "reachable")
    assert (reachable["status"], reachable["data"]["failure"]) == ("fail", "http_error")
    assert reachable["detail"].startswith("answered with an HTTP error: ")
    assert says in reachable["detail"]
    assert "ASAT_GENERATION_MODEL" in reachable["detail"]


@pytest.mark.parametrize("env", [{}, {"ASAT_GENERATION_PROVIDER": "extractive"}, {"ASAT_GENERATION_PROVIDER": " "}])
def test_the_extractive_default_has_nothing_to_probe(capsys: pytest.CaptureFixture[str], env: dict[str, str]) -> None:
    code, report = _probe(capsys, env)
    assert code == 0
    assert (report["verdict"], report["checks"], report["provider"]) == ("nothing_to_probe", [], "extractive")
    assert main([], env) == 0
    assert capsys.readouterr().out.startswith("result     ASAT_GENERATION_PROVIDER is extractive (the default)")


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({"ASAT_GENERATION_PROVIDER": "openai_compatible", "ASAT_GENERATION_MODEL": "m"}, "ASAT_GENERATION_BASE_URL"),
        ({"ASAT_GENERATION_PROVIDER": "anthropic"}, "needs ASAT_GENERATION_MODEL set"),
        ({"ASAT_GENERATION_PROVIDER": "aggregator", "ASAT_GENERATION_MODEL": "m"}, "needs ASAT_GENERATION_API_KEY"),
        ({"ASAT_GENERATION_PROVIDER": "gpt"}, "set it to one of extractive, openai_compatible"),
        (
            {"ASAT_GENERATION_PROVIDER": "ollama", "ASAT_GENERATION_MODEL": "m", "ASAT_GENERATION_SEED": "x"},
            "ASAT_GENERATION_SEED='x' is not an integer",
        ),
    ],
)
def test_settings_the_service_would_refuse_are_misconfigured(
    capsys: pytest.CaptureFixture[str], env: dict[str, str], names: str
) -> None:
    code, report = _probe(capsys, env)
    assert code == 2
    assert (report["verdict"], report["checks"]) == ("misconfigured", [])
    assert report["summary"].startswith("misconfigured (exit 2): ")
    assert names in report["summary"]


def test_a_timeout_that_is_not_a_positive_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--timeout", "0"], {})
    assert exited.value.code == 2
    assert "0 is not a positive number of seconds" in capsys.readouterr().err


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_probe_builds_the_generator_the_service_builds(adapter: str) -> None:
    env = probe_env(adapter, "http://127.0.0.1:9") | {"ASAT_GENERATION_SEED": "11"}
    service, probe = build_generator(env), probe_generator(env, timeout=2.5)
    assert type(probe) is type(service)
    assert isinstance(probe, OpenAICompatibleGenerator | AnthropicGenerator | OllamaGenerator)
    assert isinstance(service, OpenAICompatibleGenerator | AnthropicGenerator | OllamaGenerator)
    assert (probe.provider, probe.model, probe.seed) == (service.provider, service.model, service.seed)
    if isinstance(probe, OpenAICompatibleGenerator | AggregatorGenerator | AnthropicGenerator):
        client = probe._client
        assert (client.timeout, client.max_retries) == (2.5, 0)


@pytest.mark.parametrize(
    ("configured", "reported", "same"),
    [
        ("gpt-4o", "gpt-4o-2024-08-06 (system_fingerprint fp_7568d46099)", True),
        ("gpt-4o", "gpt-4o-mini-2024-07-18", False),
        ("gpt-4o", "gpt-4o-mini", False),
        ("claude-sonnet-4-5", "claude-sonnet-4-5-20250929", True),
        ("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022", True),
        ("llama3.1", "llama3.1:latest", True),
        ("llama3.1:8b", "llama3.1:70b", False),
        ("openai/gpt-4o", "gpt-4o", True),
        ("gpt-4", "gpt-4-0613", True),
        ("stub-model", "", False),
    ],
)
def test_a_dated_snapshot_or_tag_is_the_same_model_and_a_sibling_is_not(
    configured: str, reported: str, same: bool
) -> None:
    assert same_model(configured, reported) is same


def test_the_module_runs_as_a_command() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("ASAT_GENERATION_")}
    ran = subprocess.run(
        [sys.executable, "-m", "asat_research.provider_probe", "--json"],
        env=env | {"ASAT_GENERATION_PROVIDER": "openai_compatible", "ASAT_GENERATION_MODEL": "m"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 2, ran.stderr
    assert json.loads(ran.stdout)["verdict"] == "misconfigured"


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_round_trip_that_selects_nothing_is_weak(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    stub.script(round_trip_select(adapter, {"span_keys": []}), unoffered_select(adapter), offered_select(adapter))
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 1
    assert _statuses(report) == {
        "reachable": "pass",
        "model": "pass",
        "enum": "pass",
        "seed": "skipped",
        "two_pass": "weak",
    }
    assert _check(report, "two_pass")["detail"] == (
        "pass 1 selected none of S1, S2, S3, though S3 answers the question: expect more abstentions"
    )
    assert report["summary"] == "usable but weak (exit 1): two_pass. Expect more abstentions."


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_a_round_trip_that_writes_no_claim_is_weak(
    stub: StubServer, capsys: pytest.CaptureFixture[str], adapter: str
) -> None:
    nothing = {"claims": [], "premise_rejected": False}
    repeats = 2 if adapter in SEEDED else 1
    stub.script(
        round_trip_select(adapter),
        unoffered_select(adapter),
        offered_select(adapter),
        *[write(adapter, nothing) for _ in range(repeats)],
    )
    code, report = _probe(capsys, probe_env(adapter, stub.url))
    assert code == 1
    assert _statuses(report)["two_pass"] == "weak"
    assert (
        _check(report, "two_pass")["detail"] == "pass 1 selected S3, S1; pass 2 wrote no claim: expect more abstentions"
    )
    assert _check(report, "two_pass")["data"] == {"selected": ["S3", "S1"], "claims": []}
