"""Fixtures: a pipeline with the real Tesseract, a small born-digital invoice, and a stub model API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import TesseractOcr
from asat_extraction.pipeline import Pipeline
from asat_extraction.testing.samples import invoice_pdf as render_invoice
from asat_extraction.testing.stub_server import StubServer


@pytest.fixture(scope="session")
def pipeline() -> Pipeline:
    return Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits())


@pytest.fixture(scope="session")
def invoice_pdf() -> bytes:
    return render_invoice()


@pytest.fixture(scope="module")
def stub_server() -> Iterator[StubServer]:
    server = StubServer().start()
    yield server
    server.stop()


@pytest.fixture
def stub(stub_server: StubServer) -> Iterator[StubServer]:
    """A stub model API with an empty script; the test must leave no problem and no unserved exchange."""
    stub_server.reset()
    yield stub_server
    assert stub_server.problems == [], f"requests the real API would not have received: {stub_server.problems}"
    assert stub_server.unserved() == [], f"scripted exchanges never requested: {stub_server.unserved()}"
