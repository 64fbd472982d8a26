"""The service's configuration, as read by ``composition`` (the only settings reader)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from asat_extraction.inputs.limits import InputLimits


class Provider(StrEnum):
    DETERMINISTIC = "deterministic"


@dataclass(frozen=True)
class ExtractionConfig:
    provider: Provider = Provider.DETERMINISTIC
    limits: InputLimits = field(default_factory=InputLimits)
    tesseract: str = "tesseract"
    ocr_language: str = "eng"
    database_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8750
    max_upload_files: int = 20
