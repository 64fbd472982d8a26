"""The extraction service's settings, read from the environment in one place (``composition``).

A bad value is a :class:`~asat_corpus.env_settings.SettingsError` naming the variable and what
is allowed; ``composition`` turns these into the plain :class:`~asat_extraction.config.ExtractionConfig`.
"""

from __future__ import annotations

from pydantic import Field

from asat_corpus.env_settings import HOST_ALLOWED, PORT_ALLOWED, URL_ALLOWED, EnvSettings, HttpUrl, Port
from asat_extraction.config import OcrChoice, Provider
from asat_extraction.inputs.limits import InputLimits

AT_LEAST_ONE = "a whole number, at least 1"
DATABASE_ALLOWED = "a Postgres URL, e.g. postgresql://asat@127.0.0.1:5432/asat"
MIN_RENDER_DPI = 72

_LIMITS = InputLimits()


class ExtractionSettings(EnvSettings):
    provider: Provider = Field(
        default=Provider.DETERMINISTIC,
        validation_alias="ASAT_EXTRACTION_PROVIDER",
        description=f"one of {', '.join(provider.value for provider in Provider)}",
    )
    base_url: HttpUrl | None = Field(
        default=None,
        validation_alias="ASAT_EXTRACTION_BASE_URL",
        description=f"the model API's root, {URL_ALLOWED} (openai: required, e.g. http://127.0.0.1:8000/v1)",
    )
    model: str | None = Field(
        default=None,
        validation_alias="ASAT_EXTRACTION_MODEL",
        description="the model name the provider serves (required for every provider but deterministic)",
    )
    api_key: str | None = Field(
        default=None,
        validation_alias="ASAT_EXTRACTION_API_KEY",
        description="the provider's API key (required for anthropic; optional for openai and ollama)",
    )
    model_timeout: float = Field(
        default=120.0,
        gt=0,
        validation_alias="ASAT_EXTRACTION_MODEL_TIMEOUT",
        description="seconds to wait for one model reply, more than 0",
    )
    max_bytes: int = Field(
        default=_LIMITS.max_bytes, ge=1, validation_alias="ASAT_EXTRACTION_MAX_BYTES", description=AT_LEAST_ONE
    )
    max_pages: int = Field(
        default=_LIMITS.max_pages, ge=1, validation_alias="ASAT_EXTRACTION_MAX_PAGES", description=AT_LEAST_ONE
    )
    max_pixels: int = Field(
        default=_LIMITS.max_pixels, ge=1, validation_alias="ASAT_EXTRACTION_MAX_PIXELS", description=AT_LEAST_ONE
    )
    render_dpi: int = Field(
        default=_LIMITS.render_dpi,
        ge=MIN_RENDER_DPI,
        validation_alias="ASAT_EXTRACTION_RENDER_DPI",
        description=f"a whole number of dots per inch, at least {MIN_RENDER_DPI}",
    )
    ocr: OcrChoice = Field(
        default=OcrChoice.TESSERACT,
        validation_alias="ASAT_EXTRACTION_OCR",
        description=f"one of {', '.join(choice.value for choice in OcrChoice)}",
    )
    tesseract: str = Field(
        default="tesseract",
        validation_alias="ASAT_EXTRACTION_TESSERACT",
        description="the Tesseract program: a name on PATH or a path to it",
    )
    ocr_language: str = Field(
        default="eng",
        validation_alias="ASAT_EXTRACTION_OCR_LANG",
        description="Tesseract language data that is installed, e.g. eng (several joined by +)",
    )
    database_url: str | None = Field(
        default=None, validation_alias="ASAT_EXTRACTION_DATABASE_URL", description=DATABASE_ALLOWED
    )
    stack_database_url: str | None = Field(
        default=None,
        validation_alias="ASAT_DATABASE_URL",
        description=f"the stack's shared Postgres, used when ASAT_EXTRACTION_DATABASE_URL is unset: {DATABASE_ALLOWED}",
    )
    migrate_url: str | None = Field(
        default=None,
        validation_alias="ASAT_EXTRACTION_MIGRATE_URL",
        description=f"the owner role's Postgres URL, for `python -m asat_extraction migrate`: {DATABASE_ALLOWED}",
    )
    stack_migrate_url: str | None = Field(
        default=None,
        validation_alias="ASAT_AUDIT_MIGRATE_URL",
        description=f"the stack's owner URL, used when ASAT_EXTRACTION_MIGRATE_URL is unset: {DATABASE_ALLOWED}",
    )
    app_role: str | None = Field(
        default=None,
        validation_alias="ASAT_EXTRACTION_APP_ROLE",
        description="the role `migrate` grants the service's privileges to (the user of the service's URL)",
    )
    stack_app_role: str | None = Field(
        default=None,
        validation_alias="ASAT_AUDIT_APP_ROLE",
        description="the stack's app role, used when ASAT_EXTRACTION_APP_ROLE is unset",
    )
    existing_rows_practice: int | None = Field(
        default=None,
        ge=1,
        validation_alias="ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE",
        description="a practice id (a whole number from 1): the practice `migrate` gives documents stored before "
        "documents belonged to a practice",
    )
    max_upload_files: int = Field(
        default=20, ge=1, validation_alias="ASAT_EXTRACTION_MAX_FILES", description=AT_LEAST_ONE
    )
    host: str = Field(default="127.0.0.1", validation_alias="ASAT_EXTRACTION_HOST", description=HOST_ALLOWED)
    port: Port = Field(default=8750, validation_alias="ASAT_EXTRACTION_PORT", description=PORT_ALLOWED)
