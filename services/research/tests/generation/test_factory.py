from __future__ import annotations

import re

import pytest

from asat_research.generation.aggregator import AggregatorGenerator
from asat_research.generation.anthropic_adapter import AnthropicGenerator
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.factory import (
    GenerationConfigError,
    GenerationSettings,
    build_generator,
    generator_from,
    settings_from_env,
)
from asat_research.generation.ollama_adapter import OllamaGenerator
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from services.research.tests.generation.spans import QUESTION, SELECTED
from services.research.tests.generation.stub_server import StubServer, load_exchanges


def test_extractive_is_the_default() -> None:
    assert isinstance(build_generator({}), ExtractiveGenerator)
    assert isinstance(build_generator({"ASAT_GENERATION_PROVIDER": " "}), ExtractiveGenerator)
    assert build_generator({"ASAT_GENERATION_PROVIDER": "extractive"}).name == "extractive"


def test_each_provider_builds_its_adapter_with_the_seed() -> None:
    common = {"ASAT_GENERATION_MODEL": "m", "ASAT_GENERATION_API_KEY": "k", "ASAT_GENERATION_SEED": "11"}
    openai = build_generator(
        common | {"ASAT_GENERATION_PROVIDER": "openai_compatible", "ASAT_GENERATION_BASE_URL": "http://h:8000/v1"}
    )
    assert isinstance(openai, OpenAICompatibleGenerator)
    assert (openai.provider, openai.model, openai.seed) == ("openai_compatible:h:8000", "m", 11)
    router = build_generator(common | {"ASAT_GENERATION_PROVIDER": "aggregator"})
    assert isinstance(router, AggregatorGenerator) and router.provider == "aggregator:openrouter.ai"
    claude = build_generator(common | {"ASAT_GENERATION_PROVIDER": "anthropic"})
    assert isinstance(claude, AnthropicGenerator) and (claude.provider, claude.seed) == (
        "anthropic:api.anthropic.com",
        None,
    )
    local = build_generator({"ASAT_GENERATION_PROVIDER": "ollama", "ASAT_GENERATION_MODEL": "llama3.1:8b"})
    assert isinstance(local, OllamaGenerator) and (local.provider, local.seed) == ("ollama:127.0.0.1:11434", 7)


def test_the_base_url_setting_reaches_the_adapter(stub: StubServer) -> None:
    stub.script(load_exchanges("ollama")["write_good"])
    env = {
        "ASAT_GENERATION_PROVIDER": "ollama",
        "ASAT_GENERATION_MODEL": "llama3.1:8b",
        "ASAT_GENERATION_BASE_URL": stub.url,
    }
    assert build_generator(env).write(QUESTION, SELECTED).seed == 7


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"ASAT_GENERATION_PROVIDER": "openai"},
            "'openai' is not a known generation provider; set it to one of extractive, openai_compatible",
        ),
        ({"ASAT_GENERATION_PROVIDER": "ollama"}, "ASAT_GENERATION_PROVIDER=ollama needs ASAT_GENERATION_MODEL set"),
        (
            {"ASAT_GENERATION_PROVIDER": "openai_compatible", "ASAT_GENERATION_MODEL": "m"},
            "needs ASAT_GENERATION_BASE_URL set to the API root",
        ),
        ({"ASAT_GENERATION_PROVIDER": "aggregator", "ASAT_GENERATION_MODEL": "m"}, "needs ASAT_GENERATION_API_KEY"),
        (
            {"ASAT_GENERATION_PROVIDER": "anthropic", "ASAT_GENERATION_MODEL": "m", "ASAT_GENERATION_API_KEY": ""},
            "needs ASAT_GENERATION_API_KEY",
        ),
        (
            {"ASAT_GENERATION_PROVIDER": "ollama", "ASAT_GENERATION_MODEL": "m", "ASAT_GENERATION_SEED": "seven"},
            "ASAT_GENERATION_SEED='seven' is not an integer",
        ),
    ],
)
def test_an_unusable_setting_says_exactly_what_to_set(env: dict[str, str], message: str) -> None:
    with pytest.raises(GenerationConfigError, match=re.escape(message)):
        build_generator(env)


def test_the_environment_and_a_settings_object_take_one_code_path() -> None:
    env = {
        "ASAT_GENERATION_PROVIDER": "aggregator",
        "ASAT_GENERATION_MODEL": "m",
        "ASAT_GENERATION_API_KEY": " k ",
        "ASAT_GENERATION_SEED": "11",
    }
    settings = settings_from_env(env)
    assert settings == GenerationSettings("aggregator", "", "m", "k", 11)
    assert "k'" not in repr(settings) and "api_key" not in repr(settings)  # the key is left out of repr
    built = generator_from(settings)
    assert isinstance(built, AggregatorGenerator) and built.provider == "aggregator:openrouter.ai"
    from_env = build_generator(env)
    assert isinstance(from_env, AggregatorGenerator) and (from_env.model, from_env.seed) == (built.model, built.seed)
    assert isinstance(generator_from(GenerationSettings()), ExtractiveGenerator)
