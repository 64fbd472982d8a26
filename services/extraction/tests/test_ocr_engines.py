"""Both OCR adapters run the OcrEngine contract; RapidOCR's own promises (bundled models, a clear error when missing)."""

from __future__ import annotations

import importlib
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from asat_extraction.inputs import rapid_ocr
from asat_extraction.inputs.errors import Cause, InputError
from asat_extraction.inputs.ocr import OcrEngine, TesseractOcr
from asat_extraction.inputs.rapid_ocr import RapidOcr
from asat_extraction.testing.ocr_contract import OcrEngineContract, assert_reads_the_invoice, invoice_page

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tesseract() -> OcrEngine:
    return TesseractOcr()


@pytest.fixture(scope="module")
def rapidocr() -> OcrEngine:
    pytest.importorskip("rapidocr", reason="the rapidocr extra is not installed")
    return RapidOcr()


class TestTesseractOcr(OcrEngineContract):
    @pytest.fixture
    def engine(self, tesseract: OcrEngine) -> OcrEngine:
        return tesseract


class TestRapidOcr(OcrEngineContract):
    @pytest.fixture
    def engine(self, rapidocr: OcrEngine) -> OcrEngine:
        return rapidocr


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("the OCR engine tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    yield


def test_rapidocr_runs_on_its_bundled_models_without_network(no_network: None) -> None:
    pytest.importorskip("rapidocr", reason="the rapidocr extra is not installed")
    engine = RapidOcr()
    assert_reads_the_invoice(engine.read(invoice_page()))


def test_rapidocr_reads_a_page_turned_sideways() -> None:
    pytest.importorskip("rapidocr", reason="the rapidocr extra is not installed")
    result = RapidOcr().read(invoice_page().rotate(90, expand=True))
    assert_reads_the_invoice(result)
    assert result.rotation in (90, 270)


def test_rapidocr_missing_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> Any:
        if name == "rapidocr":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, package)

    monkeypatch.setattr(rapid_ocr.importlib, "import_module", missing)
    with pytest.raises(InputError) as caught:
        RapidOcr()
    assert caught.value.cause is Cause.OCR_UNAVAILABLE
    assert "'rapidocr'" in caught.value.message and "asat-extraction[rapidocr]" in caught.value.message


def test_rapidocr_without_bundled_models_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rapidocr", reason="the rapidocr extra is not installed")
    monkeypatch.setitem(rapid_ocr.MODELS, "Det.model_path", "no-such-model.onnx")
    with pytest.raises(InputError, match="never downloaded"):
        RapidOcr()


def test_blank_tiny_image_is_no_text() -> None:
    pytest.importorskip("rapidocr", reason="the rapidocr extra is not installed")
    assert RapidOcr().read(Image.new("RGB", (8, 8), "white")).text == ""
