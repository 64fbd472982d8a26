"""The service's configuration, as plain values (read from the environment in ``composition``).

The defaults and what each value allows live in one place: ``asat_extraction.settings``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from asat_extraction.inputs.limits import InputLimits


class Provider(StrEnum):
    DETERMINISTIC = "deterministic"


@dataclass(frozen=True)
class ExtractionConfig:
    provider: Provider
    limits: InputLimits
    tesseract: str
    ocr_language: str
    database_url: str | None
    host: str
    port: int
    max_upload_files: int
