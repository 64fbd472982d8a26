"""Settings: defaults, and each bad value refused with the variable named."""

from __future__ import annotations

import pytest
from asat_extraction.composition import ConfigError, build_pipeline, config_from_env, create_app
from asat_extraction.config import Provider


def test_defaults() -> None:
    config = config_from_env({})
    assert config.provider is Provider.DETERMINISTIC and config.port == 8750 and config.database_url is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ASAT_EXTRACTION_PROVIDER", "gpt"),
        ("ASAT_EXTRACTION_MAX_BYTES", "lots"),
        ("ASAT_EXTRACTION_MAX_PAGES", "0"),
        ("ASAT_EXTRACTION_RENDER_DPI", "10"),
        ("ASAT_EXTRACTION_PORT", "http"),
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
