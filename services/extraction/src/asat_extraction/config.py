"""The service's configuration, as plain values (read from the environment in ``composition``).

The defaults and what each value allows live in one place: ``asat_extraction.settings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from asat_extraction.inputs.limits import InputLimits


class Provider(StrEnum):
    DETERMINISTIC = "deterministic"
    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    OLLAMA = "ollama"


class OcrChoice(StrEnum):
    """The OCR engine for images and image-only PDF pages (``ASAT_EXTRACTION_OCR``)."""

    TESSERACT = "tesseract"
    RAPIDOCR = "rapidocr"


@dataclass(frozen=True)
class ModelConfig:
    """Where a model provider is and which model to ask (``api_key`` may be empty for local servers)."""

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    timeout: float = 120.0


@dataclass(frozen=True)
class ExtractionConfig:
    provider: Provider
    limits: InputLimits
    tesseract: str
    ocr_language: str
    database_url: str | None = field(repr=False)  # the app role's: the service connects as it
    host: str
    port: int
    max_upload_files: int
    model: ModelConfig | None = None  # set for every provider but deterministic
    ocr: OcrChoice = OcrChoice.TESSERACT
    # `python -m asat_extraction migrate`: the owner role's URL and the app role it grants.
    migrate_url: str | None = field(default=None, repr=False)
    app_role: str | None = None
    existing_rows_practice: int | None = None  # who owns documents stored before practices (migrate)
