"""A model provider in the pipeline: a failing model is one document's error, images reach the model."""

from __future__ import annotations

import base64
import io
from decimal import Decimal
from pathlib import Path

from PIL import Image

from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import OcrResult
from asat_extraction.model.anthropic_adapter import AnthropicTransport
from asat_extraction.model.extractor import ModelExtractor
from asat_extraction.model.ollama_adapter import OllamaTransport
from asat_extraction.pipeline import EXTRACTOR_FAILED, Failed, Pipeline, Processed
from asat_extraction.testing.extractor_contract import INVOICE
from asat_extraction.testing.stub_server import StubServer, load_exchanges

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "model"
ANTHROPIC = load_exchanges(FIXTURES / "anthropic.json")
OLLAMA = load_exchanges(FIXTURES / "ollama.json")


class InvoiceOcr:
    """Reads every image as the contract invoice (no Tesseract needed)."""

    name = "fixed"

    def read(self, image: Image.Image) -> OcrResult:
        return OcrResult(INVOICE, 90.0, 0, 0.0)


def _image(fmt: str, frames: int = 1) -> bytes:
    out = io.BytesIO()
    pictures = [Image.new("RGB", (40, 20), (255, 255, 255 - i)) for i in range(frames)]
    pictures[0].save(out, format=fmt, save_all=frames > 1, append_images=pictures[1:])
    return out.getvalue()


def test_a_model_that_fails_is_one_documents_error_and_the_batch_goes_on(stub: StubServer) -> None:
    stub.script(ANTHROPIC["invoice_overloaded"], ANTHROPIC["invoice_good"])
    pipeline = Pipeline(
        ModelExtractor(AnthropicTransport(stub.url, "claude-sonnet-4-5", "test-key", timeout=5)), None, InputLimits()
    )
    first = pipeline.process("a.txt", INVOICE.encode())
    second = pipeline.process("b.txt", INVOICE.encode())
    assert isinstance(first, Failed) and first.cause == EXTRACTOR_FAILED
    assert "anthropic at" in first.message and "HTTP 529" in first.message
    assert "ASAT_EXTRACTION_MODEL" in first.message
    assert isinstance(second, Processed) and second.extraction.total_amount.value == Decimal("41.25")
    assert second.extraction.extractor == "anthropic:claude-sonnet-4-5"


def test_an_image_documents_picture_reaches_the_model(stub: StubServer) -> None:
    stub.script(OLLAMA["image_good"])
    png = _image("PNG")
    pipeline = Pipeline(
        ModelExtractor(OllamaTransport(stub.url, "llama3.2-vision", timeout=5)),
        InvoiceOcr(),
        InputLimits(),
        images=True,
    )
    result = pipeline.process("scan.png", png)
    assert isinstance(result, Processed) and result.extraction.supplier_abn.value == "51824753556"
    assert stub.received[0].body["messages"][1]["images"] == [base64.b64encode(png).decode()]


def test_tiff_frames_go_to_the_model_as_png(stub: StubServer) -> None:
    stub.script(OLLAMA["image_good"])
    pipeline = Pipeline(
        ModelExtractor(OllamaTransport(stub.url, "llama3.2-vision", timeout=5)),
        InvoiceOcr(),
        InputLimits(),
        images=True,
    )
    assert isinstance(pipeline.process("scan.tif", _image("TIFF", frames=2)), Processed)
    sent = stub.received[0].body["messages"][1]["images"]
    assert len(sent) == 2 and all(base64.b64decode(s).startswith(b"\x89PNG") for s in sent)


def test_the_deterministic_pipeline_keeps_no_pictures() -> None:
    from asat_extraction.inputs.reader import read_document

    assert read_document("scan.png", _image("PNG"), InputLimits(), InvoiceOcr()).document.images == ()


def test_every_frame_of_a_tiff_is_a_page() -> None:
    from asat_extraction.inputs.reader import read_document

    read = read_document("scan.tif", _image("TIFF", frames=2), InputLimits(), InvoiceOcr(), images=True)
    assert [page.number for page in read.document.pages] == [1, 2]
    assert [image.page for image in read.document.images] == [1, 2]
