"""Fixtures: a pipeline with the real Tesseract, and a small born-digital invoice."""

from __future__ import annotations

import pytest

from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import TesseractOcr
from asat_extraction.pipeline import Pipeline
from asat_extraction.testing.samples import invoice_pdf as render_invoice


@pytest.fixture(scope="session")
def pipeline() -> Pipeline:
    return Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits())


@pytest.fixture(scope="session")
def invoice_pdf() -> bytes:
    return render_invoice()
