"""The configured generator, built for probing: the service's settings, a probe's timeout, no retries.

Settings are validated by :func:`asat_research.generation.factory.build_generator`, the function
the service itself uses, so a setting the service would refuse is refused here with the same
message. The adapter is then built again with ``timeout`` and without retries: a probe should see
a slow or failing provider, not hide it behind the SDK's retries.
"""

from __future__ import annotations

from collections.abc import Mapping

from asat_research.generation import aggregator, anthropic_adapter, ollama_adapter
from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.factory import API_KEY, BASE_URL, PROVIDER, GenerationConfigError, build_generator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import Generator

DEFAULT_TIMEOUT_S = 60.0


def probe_generator(env: Mapping[str, str], timeout: float = DEFAULT_TIMEOUT_S) -> Generator:
    """The generator the service would build from ``env``, with ``timeout`` seconds per request.

    Raises :class:`GenerationConfigError` naming the variable to fix, as the service does.
    """
    built = build_generator(env)
    base_url = env.get(BASE_URL, "").strip()
    api_key = env.get(API_KEY, "").strip()
    # AggregatorGenerator subclasses OpenAICompatibleGenerator: test it first.
    if isinstance(built, AggregatorGenerator):
        return AggregatorGenerator(
            base_url or aggregator.DEFAULT_BASE_URL,
            built.model,
            api_key,
            seed=built.seed,
            timeout=timeout,
            max_retries=0,
        )
    if isinstance(built, OpenAICompatibleGenerator):
        return OpenAICompatibleGenerator(
            base_url, built.model, api_key, seed=built.seed, timeout=timeout, max_retries=0
        )
    if isinstance(built, AnthropicGenerator):
        return AnthropicGenerator(
            built.model,
            api_key,
            base_url=base_url or anthropic_adapter.DEFAULT_BASE_URL,
            max_tokens=built.max_tokens,
            timeout=timeout,
            max_retries=0,
        )
    if isinstance(built, OllamaGenerator):
        return OllamaGenerator(
            built.model,
            base_url=base_url or ollama_adapter.DEFAULT_BASE_URL,
            api_key=api_key,
            seed=built.seed,
            timeout=timeout,
        )
    return built  # the extractive generator: no provider, nothing to time out


def configured_provider(env: Mapping[str, str]) -> str:
    return env.get(PROVIDER, "").strip() or "extractive"


__all__ = ["DEFAULT_TIMEOUT_S", "GenerationConfigError", "configured_provider", "probe_generator"]
