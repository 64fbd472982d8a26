"""The one place the extraction service's adapters are built, from the environment.

Its settings are the ``ASAT_EXTRACTION_*`` variables (and ``ASAT_DATABASE_URL``, the stack's shared
Postgres, when ``ASAT_EXTRACTION_DATABASE_URL`` is unset; ``ASAT_AUDIT_MIGRATE_URL`` and
``ASAT_AUDIT_APP_ROLE``, the stack's owner URL and app role, when ``ASAT_EXTRACTION_MIGRATE_URL``
and ``ASAT_EXTRACTION_APP_ROLE`` are unset), read as one
:class:`~asat_extraction.settings.ExtractionSettings`: their defaults and allowed values are there,
and listed in ``docs/extraction.md``. A bad value is a :class:`ConfigError` naming the variable and
what is allowed; the HTTP service (``create_app``) also needs a database URL, as the app role.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import psycopg
from fastapi import FastAPI
from psycopg.conninfo import conninfo_to_dict

from asat_corpus.env_settings import SettingsError, read_settings
from asat_extraction.api import build_app
from asat_extraction.config import ExtractionConfig, ModelConfig, OcrChoice, Provider
from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.extractor.port import Extractor
from asat_extraction.inputs.errors import InputError
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import OcrEngine, TesseractOcr
from asat_extraction.inputs.rapid_ocr import RapidOcr
from asat_extraction.model import anthropic_adapter, ollama_adapter
from asat_extraction.model.anthropic_adapter import AnthropicTransport
from asat_extraction.model.extractor import ModelExtractor, ModelTransport
from asat_extraction.model.ollama_adapter import OllamaTransport
from asat_extraction.model.openai_adapter import OpenAITransport
from asat_extraction.pipeline import Pipeline
from asat_extraction.settings import ExtractionSettings
from asat_extraction.store.migrate import MIGRATE_COMMAND
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.store.role_check import ExtractionStartupError

PROVIDER = "ASAT_EXTRACTION_PROVIDER"
BASE_URL = "ASAT_EXTRACTION_BASE_URL"
MODEL = "ASAT_EXTRACTION_MODEL"
API_KEY = "ASAT_EXTRACTION_API_KEY"


class ConfigError(ValueError):
    """The environment does not describe a service that can start; the message says what to set."""


def config_from_env(env: Mapping[str, str] | None = None) -> ExtractionConfig:
    """Read the configuration; raise ConfigError naming the variable on an unknown or bad value."""
    try:
        settings = read_settings(ExtractionSettings, os.environ if env is None else env)
    except SettingsError as exc:
        raise ConfigError(str(exc)) from None
    limits = InputLimits(
        max_bytes=settings.max_bytes,
        max_pages=settings.max_pages,
        max_pixels=settings.max_pixels,
        render_dpi=settings.render_dpi,
    )
    return ExtractionConfig(
        provider=settings.provider,
        model=_model_config(settings),
        limits=limits,
        ocr=settings.ocr,
        tesseract=settings.tesseract,
        ocr_language=settings.ocr_language,
        database_url=settings.database_url or settings.stack_database_url,
        migrate_url=settings.migrate_url or settings.stack_migrate_url,
        existing_rows_practice=settings.existing_rows_practice,
        app_role=settings.app_role
        or settings.stack_app_role
        or _user_of(settings.database_url or settings.stack_database_url),
        host=settings.host,
        port=settings.port,
        max_upload_files=settings.max_upload_files,
    )


def _model_config(settings: ExtractionSettings) -> ModelConfig | None:
    """The model provider's settings; ConfigError naming the variable a provider needs and lacks.

    ==============  ==========================  ======================  =========================
    provider        ASAT_EXTRACTION_BASE_URL    ASAT_EXTRACTION_MODEL   ASAT_EXTRACTION_API_KEY
    ==============  ==========================  ======================  =========================
    deterministic   not used                    not used                not used
    openai          required                    required                optional (local servers)
    anthropic       default api.anthropic.com   required                required
    ollama          default 127.0.0.1:11434     required                optional (hosted Ollama)
    ==============  ==========================  ======================  =========================
    """
    provider = settings.provider
    if provider is Provider.DETERMINISTIC:
        return None
    model = _required(settings.model, MODEL, provider, "the model name the provider serves")
    api_key = settings.api_key or ""
    if provider is Provider.OPENAI:
        base_url = _required(settings.base_url, BASE_URL, provider, "the API root, e.g. http://127.0.0.1:8000/v1")
    elif provider is Provider.ANTHROPIC:
        base_url = settings.base_url or anthropic_adapter.DEFAULT_BASE_URL
        api_key = _required(settings.api_key, API_KEY, provider, "the Anthropic API key")
    else:
        base_url = settings.base_url or ollama_adapter.DEFAULT_BASE_URL
    return ModelConfig(base_url=base_url, model=model, api_key=api_key, timeout=settings.model_timeout)


def _user_of(url: str | None) -> str | None:
    """The user a Postgres URL connects as (``None``: no URL, or none named in it)."""
    if not url:
        return None
    try:
        user = conninfo_to_dict(url).get("user")
    except psycopg.ProgrammingError:
        return None
    return str(user) if user else None


def _required(value: str | None, variable: str, provider: Provider, what: str) -> str:
    if not value:
        raise ConfigError(f"{PROVIDER}={provider.value} needs {variable} set to {what}; it is unset or empty")
    return value


def build_extractor(config: ExtractionConfig) -> Extractor:
    """The deterministic extractor, or the model adapter ``ASAT_EXTRACTION_PROVIDER`` names (never a fallback)."""
    if config.provider is Provider.DETERMINISTIC:
        return DeterministicExtractor()
    if config.model is None:
        raise ConfigError(f"{PROVIDER}={config.provider.value} needs {MODEL}; the configuration has no model settings")
    model = config.model
    transport: ModelTransport
    if config.provider is Provider.OPENAI:
        transport = OpenAITransport(model.base_url, model.model, model.api_key, timeout=model.timeout)
    elif config.provider is Provider.ANTHROPIC:
        transport = AnthropicTransport(model.base_url, model.model, model.api_key, timeout=model.timeout)
    else:
        transport = OllamaTransport(model.base_url, model.model, model.api_key, timeout=model.timeout)
    return ModelExtractor(transport)


def build_ocr(config: ExtractionConfig) -> OcrEngine:
    """The OCR engine ``ASAT_EXTRACTION_OCR`` names; ConfigError when it is not installed (never a fallback)."""
    if config.ocr is OcrChoice.RAPIDOCR:
        try:
            return RapidOcr()
        except InputError as error:
            raise ConfigError(error.message) from None
    try:
        return TesseractOcr(config.ocr_language, config.tesseract)
    except InputError as error:
        raise ConfigError(f"ASAT_EXTRACTION_TESSERACT={config.tesseract!r}: {error.message}") from None


def build_pipeline(config: ExtractionConfig) -> Pipeline:
    """Extractor, OCR and limits; refuses to start when the OCR engine is missing."""
    ocr = build_ocr(config)
    extractor = build_extractor(config)
    return Pipeline(extractor, ocr, config.limits, images=config.provider is not Provider.DETERMINISTIC)


def create_app(config: ExtractionConfig | None = None, service_token: str | None = None) -> FastAPI:
    """The HTTP app over schema ``extraction``; needs a database URL as the app role, with the
    schema migrated (``python -m asat_extraction migrate``, as the owner). It refuses to start
    (``ConfigError``, naming every problem) as a role row-level security would not bind (the
    owner, a superuser, ``BYPASSRLS``) or over a schema that is missing or behind the code. With
    ``service_token`` every request but ``/healthz`` must carry it (``python -m asat_extraction
    serve`` always passes ``ASAT_SERVICE_TOKEN``; ``None`` is for in-process tests)."""
    config = config_from_env() if config is None else config
    if config.database_url is None:
        raise ConfigError(
            "the HTTP service needs Postgres: set ASAT_EXTRACTION_DATABASE_URL (or ASAT_DATABASE_URL) to the app "
            "role's URL, e.g. postgresql://asat_app@127.0.0.1:5432/asat, after "
            f"`{MIGRATE_COMMAND}` (as the owner role) has made schema extraction"
        )
    try:
        store = PostgresStore(config.database_url)
    except ExtractionStartupError as error:
        raise ConfigError(str(error)) from None
    except psycopg.Error as error:
        raise ConfigError(
            f"ASAT_EXTRACTION_DATABASE_URL (or ASAT_DATABASE_URL): cannot use the database: {str(error).strip()}"
        ) from None
    return build_app(
        build_pipeline(config),
        store,
        config.max_upload_files,
        database_check=store.check,
        service_token=service_token,
    )
