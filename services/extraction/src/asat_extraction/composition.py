"""The one place the extraction service's adapters are built, from the environment.

Environment (all optional unless said):

- ``ASAT_EXTRACTION_PROVIDER``: ``deterministic`` (default; rules, no model).
- ``ASAT_EXTRACTION_MAX_BYTES`` (52428800), ``ASAT_EXTRACTION_MAX_PAGES`` (50),
  ``ASAT_EXTRACTION_MAX_PIXELS`` (60000000), ``ASAT_EXTRACTION_RENDER_DPI`` (150): limits per document.
- ``ASAT_EXTRACTION_TESSERACT`` (``tesseract``): the OCR program; ``ASAT_EXTRACTION_OCR_LANG`` (``eng``).
- ``ASAT_EXTRACTION_DATABASE_URL``: Postgres for the HTTP service (required by ``create_app``; falls
  back to ``ASAT_DATABASE_URL``, the stack's shared server).
- ``ASAT_EXTRACTION_MAX_FILES`` (20): documents per upload request.
- ``ASAT_EXTRACTION_HOST`` (127.0.0.1), ``ASAT_EXTRACTION_PORT`` (8750).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import psycopg
from fastapi import FastAPI

from asat_extraction.api import build_app
from asat_extraction.config import ExtractionConfig, Provider
from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.extractor.port import Extractor
from asat_extraction.inputs.errors import InputError
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import TesseractOcr
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.migrate import MigrationError, migrate
from asat_extraction.store.postgres import PostgresStore


class ConfigError(ValueError):
    """The environment does not describe a service that can start; the message says what to set."""


def _integer(env: Mapping[str, str], name: str, default: int, minimum: int = 1) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not an integer") from None
    if value < minimum:
        raise ConfigError(f"{name}={raw!r} must be at least {minimum}")
    return value


def config_from_env(env: Mapping[str, str] | None = None) -> ExtractionConfig:
    """Read the configuration; raise ConfigError naming the variable on an unknown or bad value."""
    env = os.environ if env is None else env
    raw_provider = env.get("ASAT_EXTRACTION_PROVIDER", "").strip() or Provider.DETERMINISTIC.value
    try:
        provider = Provider(raw_provider)
    except ValueError:
        known = ", ".join(p.value for p in Provider)
        raise ConfigError(
            f"ASAT_EXTRACTION_PROVIDER={raw_provider!r} is not a known provider; use one of: {known}"
        ) from None
    defaults = InputLimits()
    limits = InputLimits(
        max_bytes=_integer(env, "ASAT_EXTRACTION_MAX_BYTES", defaults.max_bytes),
        max_pages=_integer(env, "ASAT_EXTRACTION_MAX_PAGES", defaults.max_pages),
        max_pixels=_integer(env, "ASAT_EXTRACTION_MAX_PIXELS", defaults.max_pixels),
        render_dpi=_integer(env, "ASAT_EXTRACTION_RENDER_DPI", defaults.render_dpi, minimum=72),
    )
    url = env.get("ASAT_EXTRACTION_DATABASE_URL", "").strip() or env.get("ASAT_DATABASE_URL", "").strip() or None
    return ExtractionConfig(
        provider=provider,
        limits=limits,
        tesseract=env.get("ASAT_EXTRACTION_TESSERACT", "").strip() or "tesseract",
        ocr_language=env.get("ASAT_EXTRACTION_OCR_LANG", "").strip() or "eng",
        database_url=url,
        host=env.get("ASAT_EXTRACTION_HOST", "").strip() or "127.0.0.1",
        port=_integer(env, "ASAT_EXTRACTION_PORT", 8750),
        max_upload_files=_integer(env, "ASAT_EXTRACTION_MAX_FILES", 20),
    )


def build_extractor(config: ExtractionConfig) -> Extractor:
    if config.provider is Provider.DETERMINISTIC:
        return DeterministicExtractor()
    raise ConfigError(f"ASAT_EXTRACTION_PROVIDER={config.provider.value!r} has no adapter")  # pragma: no cover


def build_pipeline(config: ExtractionConfig) -> Pipeline:
    """Extractor, OCR and limits; refuses to start when the OCR program is missing."""
    try:
        ocr = TesseractOcr(config.ocr_language, config.tesseract)
    except InputError as error:
        raise ConfigError(f"ASAT_EXTRACTION_TESSERACT={config.tesseract!r}: {error.message}") from None
    return Pipeline(build_extractor(config), ocr, config.limits)


def create_app(config: ExtractionConfig | None = None) -> FastAPI:
    """The HTTP app: migrates schema ``extraction`` and serves it; needs a database URL."""
    config = config_from_env() if config is None else config
    if config.database_url is None:
        raise ConfigError(
            "the HTTP service needs Postgres: set ASAT_EXTRACTION_DATABASE_URL (or ASAT_DATABASE_URL), "
            "e.g. postgresql://asat@127.0.0.1:5432/asat"
        )
    try:
        migrate(config.database_url)
    except (psycopg.Error, MigrationError) as error:
        raise ConfigError(f"ASAT_EXTRACTION_DATABASE_URL: cannot migrate schema extraction: {error}") from None
    store = PostgresStore(config.database_url)
    return build_app(build_pipeline(config), store, config.max_upload_files, database_check=store.check)
