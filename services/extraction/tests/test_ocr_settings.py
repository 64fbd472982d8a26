"""ASAT_EXTRACTION_OCR: the default, each engine built, an unknown value and a missing package refused by name."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from asat_extraction.composition import ConfigError, build_ocr, build_pipeline, config_from_env
from asat_extraction.config import OcrChoice
from asat_extraction.inputs import rapid_ocr


def test_tesseract_is_the_default() -> None:
    config = config_from_env({})
    assert config.ocr is OcrChoice.TESSERACT
    assert build_ocr(config).name == "tesseract"


def test_an_unknown_engine_names_the_variable_and_the_choices() -> None:
    with pytest.raises(ConfigError, match=r"ASAT_EXTRACTION_OCR.*tesseract, rapidocr"):
        config_from_env({"ASAT_EXTRACTION_OCR": "easyocr"})


def test_rapidocr_is_built_when_chosen() -> None:
    pytest.importorskip("rapidocr", reason="the rapidocr extra is not installed")
    pipeline = build_pipeline(config_from_env({"ASAT_EXTRACTION_OCR": "rapidocr"}))
    assert pipeline.ocr is not None and pipeline.ocr.name == "rapidocr"


def test_rapidocr_chosen_but_missing_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def missing(name: str, package: str | None = None) -> Any:
        if name == "rapidocr":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, package)

    monkeypatch.setattr(rapid_ocr.importlib, "import_module", missing)
    with pytest.raises(ConfigError, match=r"ASAT_EXTRACTION_OCR=rapidocr needs the Python package 'rapidocr'"):
        build_pipeline(config_from_env({"ASAT_EXTRACTION_OCR": "rapidocr"}))


def test_rapidocr_never_falls_back_to_tesseract(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rapid_ocr, "PACKAGE", "no_such_ocr_package")
    with pytest.raises(ConfigError, match="no_such_ocr_package"):
        build_ocr(config_from_env({"ASAT_EXTRACTION_OCR": "rapidocr", "ASAT_EXTRACTION_TESSERACT": "tesseract"}))
