"""Choosing the generator from the environment.

``ASAT_GENERATION_PROVIDER`` is one of ``extractive`` (the default: no model), ``openai_compatible``,
``aggregator``, ``anthropic`` or ``ollama``. The others are read only where the provider needs
them:

==================  ===========================  =======================  ========================
provider            ASAT_GENERATION_BASE_URL     ASAT_GENERATION_MODEL    ASAT_GENERATION_API_KEY
==================  ===========================  =======================  ========================
extractive          not used                     not used                 not used
openai_compatible   required                     required                 optional (local servers)
aggregator          default OpenRouter           required                 required
anthropic           default api.anthropic.com    required                 required
ollama              default 127.0.0.1:11434      required                 optional (hosted Ollama)
==================  ===========================  =======================  ========================

``ASAT_GENERATION_SEED`` (an integer, default 7) is sent wherever the API accepts a seed.
"""

from __future__ import annotations

from collections.abc import Mapping

from asat_research.generation import aggregator, anthropic_adapter, ollama_adapter
from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import Generator
from asat_research.generation.two_pass import DEFAULT_SEED

PROVIDER = "ASAT_GENERATION_PROVIDER"
BASE_URL = "ASAT_GENERATION_BASE_URL"
MODEL = "ASAT_GENERATION_MODEL"
API_KEY = "ASAT_GENERATION_API_KEY"
SEED = "ASAT_GENERATION_SEED"
PROVIDERS = ("extractive", "openai_compatible", "aggregator", "anthropic", "ollama")


class GenerationConfigError(ValueError):
    """The generation settings are unusable; the message names the variable to set and how."""


def build_generator(env: Mapping[str, str]) -> Generator:
    provider = _setting(env, PROVIDER) or "extractive"
    if provider == "extractive":
        return ExtractiveGenerator()
    if provider not in PROVIDERS:
        raise GenerationConfigError(
            f"{PROVIDER}={provider!r} is not a known generation provider; set it to one of {', '.join(PROVIDERS)}."
        )
    seed = _seed(env)
    model = _required(env, MODEL, provider, "the model name the provider serves")
    if provider == "openai_compatible":
        base_url = _required(env, BASE_URL, provider, "the API root, e.g. http://127.0.0.1:8000/v1")
        return OpenAICompatibleGenerator(base_url, model, _setting(env, API_KEY), seed=seed)
    if provider == "aggregator":
        base_url = _setting(env, BASE_URL) or aggregator.DEFAULT_BASE_URL
        api_key = _required(env, API_KEY, provider, "the aggregator's API key")
        return AggregatorGenerator(base_url, model, api_key, seed=seed)
    if provider == "anthropic":
        base_url = _setting(env, BASE_URL) or anthropic_adapter.DEFAULT_BASE_URL
        api_key = _required(env, API_KEY, provider, "the Anthropic API key")
        return AnthropicGenerator(model, api_key, base_url=base_url)
    base_url = _setting(env, BASE_URL) or ollama_adapter.DEFAULT_BASE_URL
    return OllamaGenerator(model, base_url=base_url, api_key=_setting(env, API_KEY), seed=seed)


def _setting(env: Mapping[str, str], name: str) -> str:
    return env.get(name, "").strip()


def _required(env: Mapping[str, str], name: str, provider: str, what: str) -> str:
    value = _setting(env, name)
    if not value:
        raise GenerationConfigError(f"{PROVIDER}={provider} needs {name} set to {what}; it is unset or empty.")
    return value


def _seed(env: Mapping[str, str]) -> int:
    raw = _setting(env, SEED)
    if not raw:
        return DEFAULT_SEED
    try:
        return int(raw)
    except ValueError:
        raise GenerationConfigError(f"{SEED}={raw!r} is not an integer; set it to a whole number such as 7.") from None
