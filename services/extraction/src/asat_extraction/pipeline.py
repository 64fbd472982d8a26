"""Read, extract, check: one document's bytes to a checked extraction or a per-document error."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace

from asat_extraction.checks.run import run_checks
from asat_extraction.document import InputKind
from asat_extraction.extractor.port import Extractor, ExtractorError
from asat_extraction.fields import Extraction
from asat_extraction.inputs.errors import InputError
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import OcrEngine
from asat_extraction.inputs.reader import read_document

EXTRACTOR_FAILED = "extractor_failed"  # the cause of a Failed whose extractor (a model) could not answer


@dataclass(frozen=True)
class Processed:
    name: str
    sha256: str
    media_type: str
    input_kind: InputKind
    extraction: Extraction
    seconds: float


@dataclass(frozen=True)
class Failed:
    name: str
    sha256: str
    cause: str
    message: str
    seconds: float


@dataclass(frozen=True)
class Pipeline:
    extractor: Extractor
    ocr: OcrEngine | None
    limits: InputLimits
    images: bool = False  # keep each image page's picture for a vision model (model providers)

    def process(self, name: str, data: bytes) -> Processed | Failed:
        started = time.perf_counter()
        digest = hashlib.sha256(data).hexdigest()
        try:
            read = read_document(name, data, self.limits, self.ocr, images=self.images)
        except InputError as error:
            return Failed(name, digest, error.cause.value, _naming(name, error.message), time.perf_counter() - started)
        try:
            extraction = self.extractor.extract(read.document)
        except ExtractorError as error:
            return Failed(name, digest, EXTRACTOR_FAILED, _naming(name, error.message), time.perf_counter() - started)
        extraction = replace(extraction, warnings=(*read.warnings, *extraction.warnings, *run_checks(extraction)))
        return Processed(
            name, digest, read.document.media_type, read.document.input_kind, extraction, time.perf_counter() - started
        )


def _naming(name: str, message: str) -> str:
    """A per-document error always names its file (the readers' messages do not all say it)."""
    return message if name in message else f"{name}: {message}"
