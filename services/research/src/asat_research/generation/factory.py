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

The same rules build a research request's own provider (``ResearchRequest.provider``, a practice's
saved settings: ``asat_research.generation.per_request``): :func:`generator_from` is the one code
path, a pure function of a :class:`GenerationSettings`; its refusals name the setting by the names
given (``ENV_NAMES`` here, the request's fields there) and never quote the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from asat_research.generation import aggregator, anthropic_adapter, ollama_adapter
from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.port import Generator
from asat_research.generation.two_pass import DEFAULT_SEED
from asat_research.premise.contradiction_port import ContradictionScorer

PROVIDER = "ASAT_GENERATION_PROVIDER"
BASE_URL = "ASAT_GENERATION_BASE_URL"
MODEL = "ASAT_GENERATION_MODEL"
API_KEY = "ASAT_GENERATION_API_KEY"
SEED = "ASAT_GENERATION_SEED"
PROVIDERS = ("extractive", "openai_compatible", "aggregator", "anthropic", "ollama")


class GenerationConfigError(ValueError):
    """The generation settings are unusable; the message names the setting to set and how."""


@dataclass(frozen=True)
class GenerationSettings:
    """Which generator to build: the adapter, its base URL, model and key (``""``: unset) and the
    seed. The key is left out of ``repr``."""

    provider: str = "extractive"
    base_url: str = ""
    model: str = ""
    api_key: str = field(default="", repr=False)
    seed: int = DEFAULT_SEED


@dataclass(frozen=True)
class SettingNames:
    """What a refusal calls each setting: the environment variables, or a request's fields."""

    provider: str
    base_url: str
    model: str
    api_key: str


ENV_NAMES = SettingNames(PROVIDER, BASE_URL, MODEL, API_KEY)


def build_generator(env: Mapping[str, str]) -> Generator:
    """The generator of the ``ASAT_GENERATION_*`` settings in ``env``."""
    return generator_from(settings_from_env(env))


def settings_from_env(env: Mapping[str, str]) -> GenerationSettings:
    """The ``ASAT_GENERATION_*`` settings of ``env`` (a bad seed is refused here)."""
    return GenerationSettings(
        provider=_setting(env, PROVIDER) or "extractive",
        base_url=_setting(env, BASE_URL),
        model=_setting(env, MODEL),
        api_key=_setting(env, API_KEY),
        seed=_seed(env),
    )


def generator_from(
    settings: GenerationSettings, names: SettingNames = ENV_NAMES, contradiction: ContradictionScorer | None = None
) -> Generator:
    """The generator ``settings`` describe (pure: nothing is sent until it is asked); raises
    :class:`GenerationConfigError` naming, by ``names``, the setting to give and how. The extractive
    generator reads premises with ``contradiction`` too, where given."""
    provider = settings.provider.strip() or "extractive"
    if provider == "extractive":
        return ExtractiveGenerator(contradiction=contradiction)
    if provider not in PROVIDERS:
        raise GenerationConfigError(
            f"{names.provider}={provider!r} is not a known generation provider; set it to one of "
            f"{', '.join(PROVIDERS)}."
        )
    seed = settings.seed
    base_url, api_key = settings.base_url.strip(), settings.api_key.strip()
    model = _required(settings.model, names.model, names, provider, "the model name the provider serves")
    if provider == "openai_compatible":
        base_url = _required(base_url, names.base_url, names, provider, "the API root, e.g. http://127.0.0.1:8000/v1")
        return OpenAICompatibleGenerator(base_url, model, api_key, seed=seed)
    if provider == "aggregator":
        api_key = _required(api_key, names.api_key, names, provider, "the aggregator's API key")
        return AggregatorGenerator(base_url or aggregator.DEFAULT_BASE_URL, model, api_key, seed=seed)
    if provider == "anthropic":
        api_key = _required(api_key, names.api_key, names, provider, "the Anthropic API key")
        return AnthropicGenerator(model, api_key, base_url=base_url or anthropic_adapter.DEFAULT_BASE_URL)
    return OllamaGenerator(model, base_url=base_url or ollama_adapter.DEFAULT_BASE_URL, api_key=api_key, seed=seed)


def _setting(env: Mapping[str, str], name: str) -> str:
    return env.get(name, "").strip()


def _required(value: str, name: str, names: SettingNames, provider: str, what: str) -> str:
    if not value.strip():
        raise GenerationConfigError(f"{names.provider}={provider} needs {name} set to {what}; it is unset or empty.")
    return value.strip()


def _seed(env: Mapping[str, str]) -> int:
    raw = _setting(env, SEED)
    if not raw:
        return DEFAULT_SEED
    try:
        return int(raw)
    except ValueError:
        raise GenerationConfigError(f"{SEED}={raw!r} is not an integer; set it to a whole number such as 7.") from None
