"""Settings: defaults, and each bad value refused with the variable named."""

from __future__ import annotations

import pytest

from asat_corpus.env_settings import SettingsError, read_settings
from asat_extraction.composition import ConfigError, build_pipeline, config_from_env, create_app
from asat_extraction.config import Provider
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
