"""The contract every OCR engine meets (Tesseract, RapidOCR), on pages drawn here with Pillow.

A subclass defines an ``engine`` fixture returning the adapter under test. The promise is the one
:class:`~asat_extraction.inputs.ocr.OcrEngine` states: the key tokens of a printed invoice come back
in reading order, also from a skewed or upside-down page; a blank page is no text and no error; an
image that cannot be decoded is an ``InputError`` with cause ``corrupt``.
"""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from asat_extraction.inputs.errors import Cause, InputError
from asat_extraction.inputs.ocr import OcrEngine, OcrResult
from asat_extraction.synthetic.render_image import draw_page
from asat_extraction.testing.samples import INVOICE_ROWS

ABN_DIGITS = "51824753556"
TOTAL = "37.50"


def invoice_page() -> Image.Image:
    """The sample invoice (supplier, ABN 51 824 753 556, GST $3.41, total $37.50) as a white RGB page."""
    return draw_page(INVOICE_ROWS, 1240).convert("RGB")


def assert_reads_the_invoice(result: OcrResult) -> None:
    lines = [line for line in result.text.splitlines() if line.strip()]
    abn = next((i for i, line in enumerate(lines) if ABN_DIGITS in re.sub(r"\D", "", line)), None)
    total = next((i for i, line in enumerate(lines) if "total" in line.lower() and TOTAL in line), None)
    assert abn is not None, f"no line with the ABN digits in {result.text!r}"
    assert total is not None, f"no line with the total {TOTAL} in {result.text!r}"
    assert "3.41" in result.text, f"no GST amount in {result.text!r}"
    assert abn < total, "lines are not in reading order"
    assert 0.0 <= result.confidence <= 100.0


class OcrEngineContract:
    @pytest.fixture
    def engine(self) -> OcrEngine:
        raise NotImplementedError("define an 'engine' fixture returning the OCR adapter under test")

    def test_has_a_name(self, engine: OcrEngine) -> None:
        assert engine.name and engine.name == engine.name.lower()

    def test_reads_the_key_tokens_in_reading_order(self, engine: OcrEngine) -> None:
        result = engine.read(invoice_page())
        assert_reads_the_invoice(result)
        assert result.rotation == 0

    def test_reads_a_skewed_page(self, engine: OcrEngine) -> None:
        skewed = invoice_page().rotate(2.5, resample=Image.Resampling.BICUBIC, expand=True, fillcolor="white")
        result = engine.read(skewed)
        assert_reads_the_invoice(result)
        assert result.skew != 0.0

    def test_reads_an_upside_down_page(self, engine: OcrEngine) -> None:
        result = engine.read(invoice_page().rotate(180))
        assert_reads_the_invoice(result)
        assert result.rotation == 180

    def test_blank_page_is_no_text_and_no_error(self, engine: OcrEngine) -> None:
        result = engine.read(Image.new("RGB", (1240, 600), "white"))
        assert result.text.strip() == ""

    def test_grayscale_input_is_read(self, engine: OcrEngine) -> None:
        assert_reads_the_invoice(engine.read(invoice_page().convert("L")))

    def test_unreadable_image_is_a_clear_error(self, engine: OcrEngine) -> None:
        out = io.BytesIO()
        invoice_page().save(out, format="PNG")
        truncated = Image.open(io.BytesIO(out.getvalue()[: len(out.getvalue()) // 3]))  # decoded lazily, on read
        with pytest.raises(InputError) as caught:
            engine.read(truncated)
        assert caught.value.cause is Cause.CORRUPT
        assert "cannot be decoded" in caught.value.message
