"""Settings: defaults, and each bad value refused with the variable named."""

from __future__ import annotations

import pytest

from asat_corpus.env_settings import SettingsError, read_settings
from asat_extraction.composition import ConfigError, build_extractor, build_pipeline, config_from_env, create_app
from asat_extraction.config import ModelConfig, Provider
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.settings import ExtractionSettings


def test_defaults() -> None:
    config = config_from_env({})
    assert config.provider is Provider.DETERMINISTIC and config.port == 8750 and config.database_url is None
    assert config.limits == InputLimits() and config.max_upload_files == 20 and config.host == "127.0.0.1"
    assert (config.tesseract, config.ocr_language) == ("tesseract", "eng")


def test_values_are_read_and_empty_ones_keep_the_default() -> None:
    config = config_from_env(
        {"ASAT_EXTRACTION_MAX_PAGES": " 7 ", "ASAT_EXTRACTION_RENDER_DPI": "200", "ASAT_EXTRACTION_PORT": ""}
    )
    assert (config.limits.max_pages, config.limits.render_dpi, config.port) == (7, 200, 8750)


def test_a_bad_value_is_a_settings_error_saying_what_is_allowed() -> None:
    with pytest.raises(SettingsError, match=r"ASAT_EXTRACTION_RENDER_DPI='10' .*at least 72"):
        read_settings(ExtractionSettings, {"ASAT_EXTRACTION_RENDER_DPI": "10"})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ASAT_EXTRACTION_PROVIDER", "gpt"),
        ("ASAT_EXTRACTION_MAX_BYTES", "lots"),
        ("ASAT_EXTRACTION_MAX_PAGES", "0"),
        ("ASAT_EXTRACTION_RENDER_DPI", "10"),
        ("ASAT_EXTRACTION_PORT", "http"),
        ("ASAT_EXTRACTION_PORT", "70000"),
        ("ASAT_EXTRACTION_MAX_FILES", "0"),
    ],
)
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        config_from_env({name: value})


def test_missing_tesseract_is_refused() -> None:
    with pytest.raises(ConfigError, match="ASAT_EXTRACTION_TESSERACT"):
        build_pipeline(config_from_env({"ASAT_EXTRACTION_TESSERACT": "/nonexistent/tesseract"}))


def test_app_needs_a_database_url() -> None:
    with pytest.raises(ConfigError, match="ASAT_EXTRACTION_DATABASE_URL"):
        create_app(config_from_env({}))


def test_database_url_falls_back_to_the_stack_one() -> None:
    assert config_from_env({"ASAT_DATABASE_URL": "postgresql://x/y"}).database_url == "postgresql://x/y"
    both = {"ASAT_DATABASE_URL": "postgresql://x/y", "ASAT_EXTRACTION_DATABASE_URL": "postgresql://e/f"}
    assert config_from_env(both).database_url == "postgresql://e/f"


def test_migrate_url_and_app_role_fall_back_to_the_stacks() -> None:
    assert (config_from_env({}).migrate_url, config_from_env({}).app_role) == (None, None)
    stack = {"ASAT_AUDIT_MIGRATE_URL": "postgresql://asat_owner@h/asat", "ASAT_AUDIT_APP_ROLE": "asat_app"}
    assert (config_from_env(stack).migrate_url, config_from_env(stack).app_role) == (
        "postgresql://asat_owner@h/asat",
        "asat_app",
    )
    own = stack | {"ASAT_EXTRACTION_MIGRATE_URL": "postgresql://o@h/x", "ASAT_EXTRACTION_APP_ROLE": "x_app"}
    assert (config_from_env(own).migrate_url, config_from_env(own).app_role) == ("postgresql://o@h/x", "x_app")
    # Without a role named, the app role is the user the service connects as.
    assert config_from_env({"ASAT_DATABASE_URL": "postgresql://svc:pw@h/asat"}).app_role == "svc"
    assert config_from_env({"ASAT_EXTRACTION_DATABASE_URL": "postgresql://h/asat"}).app_role is None
    assert "pw" not in repr(config_from_env({"ASAT_DATABASE_URL": "postgresql://svc:pw@h/asat"}))


# --- model providers ----------------------------------------------------------------------------------


def test_a_model_provider_is_configured_and_built() -> None:
    env = {
        "ASAT_EXTRACTION_PROVIDER": "openai",
        "ASAT_EXTRACTION_BASE_URL": "http://127.0.0.1:8000/v1/",
        "ASAT_EXTRACTION_MODEL": "qwen2.5-vl-7b",
        "ASAT_EXTRACTION_MODEL_TIMEOUT": "30",
    }
    config = config_from_env(env)
    assert config.provider is Provider.OPENAI
    assert config.model == ModelConfig("http://127.0.0.1:8000/v1", "qwen2.5-vl-7b", "", 30.0)
    assert build_extractor(config).name == "openai:qwen2.5-vl-7b"
    assert build_pipeline(config).images is True


def test_anthropic_and_ollama_have_default_base_urls() -> None:
    anthropic = config_from_env(
        {
            "ASAT_EXTRACTION_PROVIDER": "anthropic",
            "ASAT_EXTRACTION_MODEL": "claude-sonnet-4-5",
            "ASAT_EXTRACTION_API_KEY": "sk-ant-secret",
        }
    )
    assert anthropic.model is not None and anthropic.model.base_url == "https://api.anthropic.com"
    assert build_extractor(anthropic).name == "anthropic:claude-sonnet-4-5"
    ollama = config_from_env({"ASAT_EXTRACTION_PROVIDER": "ollama", "ASAT_EXTRACTION_MODEL": "llama3.2-vision"})
    assert ollama.model is not None and ollama.model.base_url == "http://127.0.0.1:11434"
    assert "sk-ant-secret" not in repr(anthropic)  # the API key is never shown


def test_deterministic_needs_no_model_and_reads_no_images() -> None:
    config = config_from_env({"ASAT_EXTRACTION_MODEL": "ignored"})
    assert config.model is None and build_extractor(config).name == "deterministic"


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"ASAT_EXTRACTION_PROVIDER": "openai", "ASAT_EXTRACTION_MODEL": "m"}, "ASAT_EXTRACTION_BASE_URL"),
        ({"ASAT_EXTRACTION_PROVIDER": "openai", "ASAT_EXTRACTION_BASE_URL": "http://h/v1"}, "ASAT_EXTRACTION_MODEL"),
        ({"ASAT_EXTRACTION_PROVIDER": "anthropic", "ASAT_EXTRACTION_MODEL": "m"}, "ASAT_EXTRACTION_API_KEY"),
        ({"ASAT_EXTRACTION_PROVIDER": "ollama", "ASAT_EXTRACTION_MODEL": "  "}, "ASAT_EXTRACTION_MODEL"),
        (
            {"ASAT_EXTRACTION_PROVIDER": "ollama", "ASAT_EXTRACTION_MODEL": "m", "ASAT_EXTRACTION_BASE_URL": "h:1"},
            "ASAT_EXTRACTION_BASE_URL",
        ),
        (
            {"ASAT_EXTRACTION_PROVIDER": "ollama", "ASAT_EXTRACTION_MODEL": "m", "ASAT_EXTRACTION_MODEL_TIMEOUT": "0"},
            "ASAT_EXTRACTION_MODEL_TIMEOUT",
        ),
        ({"ASAT_EXTRACTION_PROVIDER": "openai_compatible"}, "ASAT_EXTRACTION_PROVIDER"),
    ],
)
def test_a_missing_or_bad_model_setting_names_the_variable(env: dict[str, str], variable: str) -> None:
    with pytest.raises(ConfigError, match=variable):
        config_from_env(env)


def test_an_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"ASAT_EXTRACTION_PROVIDER='gpt'.*deterministic, openai, anthropic, ollama"):
        config_from_env({"ASAT_EXTRACTION_PROVIDER": "gpt"})
