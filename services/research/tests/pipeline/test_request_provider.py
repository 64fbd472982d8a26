"""A research request's own ``provider`` (a practice's saved provider, bring your own key): that
request is answered with it, through the same verification, gate and audit; settings it cannot be
built from are a 422 naming the field; the provider failing is a 503 with a log reference. The key
is in no reply, audit row or log line.

Over the in-memory ports of ``fakes.py``; the provider is the OpenAI-compatible adapter talking to
the generation tests' stub server (``tests/generation/stub_server.py``) over real HTTP, or, where
only the routing is checked, a scripted generator built by an injected ``build``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr, ValidationError

from asat_corpus.contracts.across_years import AcrossYearsRequest
from asat_corpus.contracts.provider import GenerationProvider
from asat_corpus.contracts.research import ResearchOutcome, ResearchRequest
from asat_research.api import create_app
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.factory import GenerationConfigError, GenerationSettings
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.per_request import ProviderGenerators, request_generator
from asat_research.generation.port import Generation, Generator, NumberedSpan, Selection
from asat_research.premise.contradiction_model import ContradictionModel
from services.research.tests.generation.scripted import ScriptedGenerator, claim
from services.research.tests.generation.stub_server import Exchange, StubServer

from .fakes import Fakes, fakes

QUESTION = "What aggregated turnover made a business a small business entity in FY2015?"
KEY = "sk-practice-OWNKEY0123456789abcdef"
MODEL = "practice-model-1"
COMPLETIONS = "/v1/chat/completions"
CLAIM = "A business was a small business entity if its aggregated turnover was less than $2 million."


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


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-own",
        "object": "chat.completion",
        "created": 1726000001,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
    }


def _exchange(name: str, status: int, response: Any, bearer: bool = True) -> Exchange:
    """One chat-completions exchange that must ask for the practice's model, with its key (unless
    the base URL carries user:password, which the HTTP client sends as basic auth instead)."""
    headers = {"authorization": f"Bearer {KEY}"} if bearer else {}
    return Exchange(name, "POST", COMPLETIONS, {"model": MODEL, "seed": 7}, headers, status, response)


def _answering(bearer: bool = True) -> tuple[Exchange, Exchange]:
    select = _exchange("select", 200, _completion(json.dumps({"span_keys": ["S1"]})), bearer)
    write = _completion(json.dumps({"claims": [{"text": CLAIM, "span_keys": ["S1"]}], "premise_rejected": False}))
    return select, _exchange("write", 200, write, bearer)


def _provider(base_url: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "openai_compatible", "base_url": base_url, "model": MODEL, "api_key": KEY} | extra


def _host(stub: StubServer) -> str:
    return stub.url.removeprefix("http://")


def _everything_logged(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(f"{r.name} {r.getMessage()} {r.args!r}" for r in caplog.records)


def _audit_rows(f: Fakes) -> str:
    return json.dumps([dataclasses.asdict(e) for e in f.audit.last(100)], default=str)


# -- the provider answers ---------------------------------------------------------------------------


def test_a_request_with_a_provider_is_answered_by_it_and_audited_by_its_label(
    stub: StubServer, caplog: pytest.LogCaptureFixture
) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    stub.script(*_answering())
    with caplog.at_level(logging.DEBUG):
        reply = api.post("/v1/research", json={"question": QUESTION, "provider": _provider(f"{stub.url}/v1")})
    assert reply.status_code == 200, reply.text
    outcome = ResearchOutcome.model_validate(reply.json())
    # The practice's provider answered (its host, its model as reported), not research's own.
    assert (outcome.provider, outcome.model, outcome.seed) == (f"openai_compatible:{_host(stub)}", MODEL, 7)
    assert f.generator.calls == []
    assert [r.body["model"] for r in stub.received] == [MODEL, MODEL]
    # The same verification and gate: the claim it wrote is verified against the cited span.
    assert outcome.decision.value == "answer" and [c.text for c in outcome.claims] == [CLAIM]
    assert len(f.verifier.calls) == 1
    entry = f.audit.get(outcome.audit_id)
    assert entry is not None
    assert (entry.record.provider, entry.record.model) == (outcome.provider, MODEL)
    assert KEY not in reply.text and KEY not in _audit_rows(f) and KEY not in _everything_logged(caplog)


def test_the_label_shows_the_host_never_user_password_or_the_key(
    stub: StubServer, caplog: pytest.LogCaptureFixture
) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    stub.script(*_answering(bearer=False))
    url = stub.url.replace("http://", "http://jo:hunter2pass@") + "/v1"
    with caplog.at_level(logging.DEBUG):
        reply = api.post("/v1/research", json={"question": QUESTION, "provider": _provider(url)})
    assert reply.status_code == 200, reply.text
    assert reply.json()["provider"] == f"openai_compatible:{_host(stub)}"
    rows = _audit_rows(f)
    assert f"openai_compatible:{_host(stub)}" in rows
    # The HTTP client logs each request's URL: with the user:password masked.
    logged = _everything_logged(caplog)
    assert f"{_host(stub)}/v1/chat/completions" in logged
    for secret in ("hunter2pass", "jo:", KEY):
        assert secret not in reply.text and secret not in rows and secret not in logged


def test_without_a_provider_research_answers_with_its_own_generator() -> None:
    f = fakes()
    reply = TestClient(create_app(f.pipeline())).post("/v1/research", json={"question": QUESTION})
    assert reply.status_code == 200 and reply.json()["provider"] == "extractive"
    assert f.generator.calls == ["select", "write"]


# -- every answering route, and the cache ---------------------------------------------------------


@dataclasses.dataclass
class _Built:
    """A ``build`` for ``ProviderGenerators`` that records the settings and returns a scripted model."""

    settings: list[GenerationSettings] = dataclasses.field(default_factory=list)

    def __call__(self, settings: GenerationSettings) -> Generator:
        self.settings.append(settings)
        return ScriptedGenerator([claim(CLAIM, "S1")], selected=["S1"], provider="own:host", model=MODEL, name="own")


def _stream(api: TestClient, route: str, body: dict[str, Any]) -> str:
    with api.stream("POST", route, json=body) as reply:
        assert reply.status_code == 200, reply.read()
        return "".join(reply.iter_text())


def test_the_stream_and_every_year_across_years_are_answered_by_the_provider() -> None:
    f, built = fakes(), _Built()
    api = TestClient(create_app(f.pipeline(), generators=ProviderGenerators(seed=11, build=built)))
    provider = _provider("https://llm.practice.example/v1")
    text = _stream(api, "/v1/research/stream", {"question": QUESTION, "provider": provider})
    assert '"provider": "own:host"' in text and KEY not in text
    body = {"question": QUESTION, "income_year": 2015, "source_ids": ["itaa1997:328-110@C2015C00285"]}
    text = _stream(api, "/v1/research/across-years", body | {"provider": provider})
    assert text.count("event: year") == 3 and KEY not in text
    rows = f.audit.last(100)
    assert len(rows) == 4 and {r.record.provider for r in rows} == {"own:host"}
    assert f.generator.calls == []
    # Built once (the same settings the second time are the cached generator), with research's seed.
    assert len(built.settings) == 1
    assert built.settings[0] == GenerationSettings(
        "openai_compatible", "https://llm.practice.example/v1", MODEL, KEY, 11
    )
    assert KEY not in repr(built.settings[0])


def test_generators_are_kept_per_settings_and_key_and_the_least_recently_used_dropped() -> None:
    built = _Built()
    cache = ProviderGenerators(max_size=2, build=built)

    def own(**extra: Any) -> GenerationProvider:
        return GenerationProvider.model_validate(_provider("https://a.example/v1") | extra)

    first = cache.get(own())
    assert cache.get(own()) is first
    other_key = cache.get(own(api_key="sk-another-key-0000000000"))
    assert other_key is not first and cache.get(own()) is first  # first is now the most recent
    cache.get(own(model="m2"))  # a third: the least recently used (the other key) is dropped
    assert len(cache) == 2 and cache.get(own()) is first
    assert len(built.settings) == 3
    cache.get(own(api_key="sk-another-key-0000000000"))
    assert len(built.settings) == 4
    assert KEY not in repr(cache._generators) and "sk-another" not in repr(cache._generators)


def test_the_cached_generator_is_the_adapter_with_the_host_label() -> None:
    cache = ProviderGenerators()
    url = "https://jo:hunter2pass@llm.practice.example:8443/v1?api_key=abc"
    generator = cache.get(GenerationProvider.model_validate(_provider(url)))
    assert isinstance(generator, OpenAICompatibleGenerator)
    assert generator.provider == "openai_compatible:llm.practice.example:8443"
    assert (generator.model, generator.seed) == (MODEL, 7)


# -- a bad provider: 422 naming the field, never the key --------------------------------------------


@pytest.mark.parametrize(
    ("provider", "field"),
    [
        ({"kind": "aggregator", "model": MODEL}, "provider.api_key"),
        ({"kind": "anthropic", "api_key": KEY}, "provider.model"),
        ({"kind": "openai_compatible", "model": MODEL, "api_key": KEY}, "provider.base_url"),
        (_provider("ftp://llm.practice.example"), "provider.base_url"),
        (_provider("http://llm.practice.example:99999/v1"), "provider.base_url"),
        (_provider("https://llm.practice.example/v1", api_key=f"{KEY}\nX-Injected: 1"), "provider.api_key"),
        ({"kind": "openai", "api_key": KEY}, "provider.kind"),
        (_provider("https://llm.practice.example/v1", api_key=KEY * 1000), "provider.api_key"),
    ],
)
def test_a_bad_provider_setting_is_a_422_naming_the_field_without_the_key(provider: dict[str, Any], field: str) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    body = {"question": QUESTION, "provider": provider}
    for route in ("/v1/research", "/v1/research/stream", "/v1/research/across-years"):
        reply = api.post(route, json=body)
        assert reply.status_code == 422, (route, reply.text)
        assert reply.json()["error"] == "invalid_request" and field in reply.text, reply.text
        assert KEY not in reply.text and "practice.example:99999" not in reply.text
    assert f.retriever.calls == [] and f.audit.last(10) == ()


def test_the_factorys_refusals_name_the_requests_fields() -> None:
    with pytest.raises(GenerationConfigError, match=r"provider\.kind=aggregator needs provider\.api_key set"):
        request_generator(GenerationSettings("aggregator", model=MODEL))
    with pytest.raises(GenerationConfigError, match=r"provider\.kind=ollama needs provider\.model set"):
        request_generator(GenerationSettings("ollama"))


# -- a failing provider: 503 with a reference, no key, no provider text -----------------------------


def test_a_failing_provider_is_a_503_with_a_reference_and_no_key_in_reply_or_log(
    stub: StubServer, caplog: pytest.LogCaptureFixture
) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    refusal = {"error": {"message": f"Incorrect API key provided: {KEY}.", "type": "invalid_request_error"}}
    stub.script(_exchange("select", 401, refusal), _exchange("select again", 401, refusal))
    provider = _provider(f"{stub.url}/v1")
    with caplog.at_level(logging.DEBUG):
        reply = api.post("/v1/research", json={"question": QUESTION, "provider": provider})
        stream = _stream(api, "/v1/research/stream", {"question": QUESTION, "provider": provider})
    assert reply.status_code == 503, reply.text
    body = reply.json()
    assert body["error"] == "dependency_unavailable" and body["dependency"] == "generator"
    assert "reference" in body["message"] and "event: error" in stream
    for text in (reply.text, stream):
        for secret in (KEY, "Incorrect API key", _host(stub), MODEL):
            assert secret not in text
    logged = _everything_logged(caplog)
    assert KEY not in logged
    reference = body["message"].split("reference ")[1].split(" ")[0]
    # The operator's log has the provider's own text under the reference, the key replaced.
    assert any(reference in r.getMessage() and "[the API key]" in r.getMessage() for r in caplog.records)
    assert f.audit.last(10) == ()  # nothing answered, nothing audited


class _EchoingGenerator:
    """A provider whose failure quotes the key in a form no pattern would recognise."""

    name = "openai_compatible"

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        from asat_research.generation.port import GenerationError

        raise GenerationError(f"upstream said: token {KEY} is not valid for this model")

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:  # pragma: no cover
        raise AssertionError("not reached")


def test_the_key_is_replaced_in_the_log_even_where_it_looks_like_no_key(caplog: pytest.LogCaptureFixture) -> None:
    f = fakes()
    generators = ProviderGenerators(build=lambda settings: _EchoingGenerator())
    api = TestClient(create_app(f.pipeline(), generators=generators))
    provider = _provider("https://llm.practice.example/v1", api_key="plainwordkey")
    with caplog.at_level(logging.DEBUG):
        reply = api.post("/v1/research", json={"question": QUESTION, "provider": provider})
        body = {"question": QUESTION, "income_year": 2015, "provider": provider}
        across = _stream(api, "/v1/research/across-years", body)
    assert reply.status_code == 503 and "plainwordkey" not in reply.text and "plainwordkey" not in across
    assert "plainwordkey" not in _everything_logged(caplog)
    assert "event: error" in across


# -- the contract --------------------------------------------------------------------------------------


def test_the_key_never_serialises_back_nor_shows_in_a_repr() -> None:
    request = ResearchRequest.model_validate({"question": QUESTION, "provider": _provider("https://a.example/v1")})
    across = AcrossYearsRequest.model_validate({"question": QUESTION, "provider": _provider("https://a.example/v1")})
    for model in (request, across):
        assert KEY not in repr(model) and KEY not in str(model)
        assert KEY not in model.model_dump_json() and KEY not in json.dumps(model.model_dump(mode="json"))
    assert request.provider is not None and request.provider.wire()["api_key"] == KEY
    assert request.provider.api_key == SecretStr(KEY)
    with pytest.raises(ValidationError) as refused:
        GenerationProvider.model_validate(_provider("not a url"))
    assert "base_url" in str(refused.value)
    assert "api_key" not in GenerationProvider(kind="ollama", model="llama3.1:8b").wire()


# -- a model's rejected premise stands only on a verified quote ---------------------------------------


def test_a_models_rejected_premise_with_a_cited_claim_is_kept(stub: StubServer) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    select = _exchange("select", 200, _completion(json.dumps({"span_keys": ["S1"]})))
    write = _completion(json.dumps({"claims": [{"text": CLAIM, "span_keys": ["S1"]}], "premise_rejected": True}))
    stub.script(select, _exchange("write", 200, write))
    asserting = "Since the turnover threshold was $10 million in FY2015, my client's business qualified, right?"
    reply = api.post("/v1/research", json={"question": asserting, "provider": _provider(f"{stub.url}/v1")})
    outcome = ResearchOutcome.model_validate(reply.json())
    assert outcome.answered and outcome.premise_rejected and outcome.claims[0].citations
    assert "The question asserts:" in stub.received[1].body["messages"][-1]["content"]


def test_a_models_rejected_premise_without_a_verified_claim_is_not_shown(stub: StubServer) -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    select = _exchange("select", 200, _completion(json.dumps({"span_keys": ["S1"]})))
    write = _completion(json.dumps({"claims": [], "premise_rejected": True}))
    stub.script(select, _exchange("write", 200, write))
    asserting = "Since the turnover threshold was $10 million in FY2015, my client's business qualified, right?"
    reply = api.post("/v1/research", json={"question": asserting, "provider": _provider(f"{stub.url}/v1")})
    outcome = ResearchOutcome.model_validate(reply.json())
    assert not outcome.answered and not outcome.premise_rejected and outcome.claims == ()


def test_a_requests_extractive_generator_reads_premises_with_researchs_contradiction_model() -> None:
    model = ContradictionModel.load()
    built = ProviderGenerators(seed=11, contradiction=model).get(GenerationProvider(kind="extractive"))
    assert isinstance(built, ExtractiveGenerator) and built.contradiction is model
    without = ProviderGenerators(seed=11).get(GenerationProvider(kind="extractive"))
    assert isinstance(without, ExtractiveGenerator) and without.contradiction is None
