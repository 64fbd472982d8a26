"""A provider that never answers (issue 19, item 2): the question ends by the request's deadline
in an audited ``abstain_deadline``, each model call is retried at most once, and a client that
goes away cancels the model call in flight (the provider sees its connection closed).

The provider is a real socket (``silent_provider.py``) spoken to by the real SDK adapters; the
cancellation tests run research under a real uvicorn, so the disconnect is a real one.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
import uvicorn

from asat_corpus.contracts.decisions import Decision
from asat_research.api import create_app
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import Generator
from asat_research.pipeline import DependencyUnavailable, ResearchPipeline

from .fakes import fakes
from .silent_provider import SilentProvider

QUESTION = "What aggregated turnover made a business a small business entity in FY2015?"


@pytest.fixture
def provider() -> Iterator[SilentProvider]:
    stub = SilentProvider().start()
    yield stub
    stub.stop()


def _generator(kind: str, url: str, timeout: float = 60.0) -> Generator:
    if kind == "openai":
        return OpenAICompatibleGenerator(url, "m", "k", timeout=timeout)
    if kind == "anthropic":
        return AnthropicGenerator("m", "k", base_url=url.removesuffix("/v1"), timeout=timeout)
    return OllamaGenerator("m", base_url=url.removesuffix("/v1"), timeout=timeout)


def _pipeline(generator: Generator, deadline_s: float) -> tuple[ResearchPipeline, object]:
    f = fakes()
    pipeline = f.pipeline(generator=generator)
    return ResearchPipeline(pipeline.ports, replace(pipeline.settings, deadline_s=deadline_s)), f.audit


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
def test_a_provider_that_never_answers_ends_in_an_audited_abstention_by_the_deadline(
    kind: str, provider: SilentProvider
) -> None:
    pipeline, audit = _pipeline(_generator(kind, provider.url), deadline_s=1.0)
    started = time.monotonic()
    outcome = pipeline.answer(QUESTION)
    took = time.monotonic() - started
    assert outcome.decision == Decision.ABSTAIN_DEADLINE
    assert any("deadline of 1 s" in reason for reason in outcome.reasons) and outcome.claims == ()
    assert took < 3.0  # the deadline (1 s), the audit write, nothing more
    row = audit.last(1)[0].record  # type: ignore[attr-defined]
    assert row.decision == Decision.ABSTAIN_DEADLINE and row.request_id == outcome.request_id
    assert provider.all_closed_within(2.0)  # the call was cancelled: its connection torn down


def test_the_deadline_reaches_the_client_as_an_abstention(provider: SilentProvider) -> None:
    pipeline, audit = _pipeline(_generator("openai", provider.url), deadline_s=1.0)
    with _serving(create_app(pipeline)) as base:
        reply = httpx.post(f"{base}/v1/research", json={"question": QUESTION}, timeout=10)
    assert reply.status_code == 200
    assert reply.json()["decision"] == "abstain_deadline"
    assert audit.last(1)[0].record.decision == Decision.ABSTAIN_DEADLINE  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_model_call_is_retried_at_most_once(kind: str, provider: SilentProvider) -> None:
    # The SDK's own timeout (0.3 s) ends each attempt long before the deadline: one try, one retry.
    pipeline, audit = _pipeline(_generator(kind, provider.url, timeout=0.3), deadline_s=30.0)
    with pytest.raises(DependencyUnavailable) as failed:
        pipeline.answer(QUESTION)
    assert failed.value.dependency == "generator"
    assert provider.requests() == 2
    assert audit.last(1) == ()  # type: ignore[attr-defined]


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # run on a thread: leave the test's signals alone
        return


class _serving:
    """The app under a real uvicorn on a free port, for the test's duration."""

    def __init__(self, app: object) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server = _Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))  # type: ignore[arg-type]
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        ends = time.monotonic() + 10
        while not self.server.started and time.monotonic() < ends:
            time.sleep(0.02)
        assert self.server.started
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.mark.parametrize("route", ["/v1/research", "/v1/research/stream"])
def test_a_client_that_goes_away_cancels_the_model_call(route: str, provider: SilentProvider) -> None:
    pipeline, audit = _pipeline(_generator("openai", provider.url), deadline_s=30.0)
    with _serving(create_app(pipeline)) as base:
        with pytest.raises(httpx.ReadTimeout), httpx.Client(timeout=httpx.Timeout(10, read=1.0)) as client:
            reply = client.post(f"{base}{route}", json={"question": QUESTION})
            for _ in reply.iter_lines():  # the stream's stages come; the model's reply never does
                pass
        gone_at = time.monotonic()
        assert provider.requests() == 1
        # Well inside the 30 s deadline: the provider's connection closed once the client's did.
        assert provider.all_closed_within(3.0)
        closed_at = max(c.closed_at or 0.0 for c in provider.connections)
        assert closed_at - gone_at < 3.0
    assert audit.last(1) == ()  # type: ignore[attr-defined]  # nothing was shown, so nothing audited
