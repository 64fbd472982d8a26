"""Inputs: text PDFs, images through OCR, emails, text; every bad input is a per-document error."""

from __future__ import annotations

import io
from email.message import EmailMessage

import pytest
from PIL import Image

from asat_extraction.inputs.limits import InputLimits
from asat_extraction.pipeline import Failed, Pipeline, Processed
from asat_extraction.synthetic.render_image import capture, draw_page, encode, image_pdf
from asat_extraction.testing.samples import INVOICE_ROWS, as_processed, encrypted


def test_text_pdf(pipeline: Pipeline, invoice_pdf: bytes) -> None:
    result = as_processed(pipeline.process("a.pdf", invoice_pdf))
    assert result.input_kind.value == "text_pdf"
    assert result.extraction.total_amount.value is not None and str(result.extraction.total_amount.value) == "37.50"
    assert result.extraction.supplier_abn.value == "51824753556"


@pytest.mark.slow
def test_skewed_png_through_ocr(pipeline: Pipeline) -> None:
    import random

    image = capture(draw_page(INVOICE_ROWS, 1240), random.Random(1), 2.5)
    result = as_processed(pipeline.process("scan.png", encode(image, "PNG")))
    assert result.input_kind.value == "image"
    assert result.extraction.supplier_abn.value == "51824753556"
    assert str(result.extraction.total_amount.value) == "37.50"


@pytest.mark.slow
def test_image_only_pdf_through_ocr(pipeline: Pipeline) -> None:
    import random

    result = as_processed(pipeline.process("scan.pdf", image_pdf(INVOICE_ROWS, random.Random(2))))
    assert result.input_kind.value == "image_pdf"
    assert str(result.extraction.total_amount.value) == "37.50"


def test_email_with_pdf_attachment(pipeline: Pipeline, invoice_pdf: bytes) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@b.com.au", "c@d.com.au", "Invoice"
    message.set_content("Please find attached our invoice.")
    message.add_attachment(invoice_pdf, maintype="application", subtype="pdf", filename="inv.pdf")
    result = as_processed(pipeline.process("mail.eml", bytes(message)))
    assert result.input_kind.value == "email"
    assert result.extraction.invoice_number.value == "INV-00042"


def test_email_body_only(pipeline: Pipeline) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@b.com.au", "c@d.com.au", "Receipt"
    message.set_content(
        "Bean There Cafe\nABN 51 824 753 556\nTAX INVOICE / RECEIPT\nFlat White   4.50\nTotal   $4.50\n"
    )
    result = as_processed(pipeline.process("mail.eml", bytes(message)))
    assert result.extraction.kind.value is not None and result.extraction.kind.value.value == "receipt"
    assert str(result.extraction.total_amount.value) == "4.50"


def test_plain_text(pipeline: Pipeline) -> None:
    result = as_processed(pipeline.process("r.txt", b"Acme Pty Ltd\nABN 51 824 753 556\nTotal $11.00\nGST $1.00\n"))
    assert str(result.extraction.gst_amount.value) == "1.00"


def failure(pipeline: Pipeline, name: str, data: bytes) -> Failed:
    result = pipeline.process(name, data)
    assert isinstance(result, Failed), result
    assert result.message
    return result


def test_zero_bytes(pipeline: Pipeline) -> None:
    assert failure(pipeline, "empty.pdf", b"").cause == "empty"


def test_sixty_megabytes(pipeline: Pipeline) -> None:
    result = failure(pipeline, "huge.pdf", b"%PDF-1.7\n" + b"0" * (60 * 1024 * 1024))
    assert result.cause == "too_large" and "huge.pdf" in result.message


def test_encrypted_pdf(pipeline: Pipeline, invoice_pdf: bytes) -> None:
    assert failure(pipeline, "locked.pdf", encrypted(invoice_pdf)).cause == "encrypted"


def test_truncated_pdf(pipeline: Pipeline, invoice_pdf: bytes) -> None:
    assert failure(pipeline, "cut.pdf", invoice_pdf[: len(invoice_pdf) // 2]).cause == "truncated"


def test_corrupt_pdf(pipeline: Pipeline) -> None:
    assert failure(pipeline, "bad.pdf", b"%PDF-1.4\nthis is not a pdf body\n%%EOF\n").cause == "corrupt"


def test_corrupt_image(pipeline: Pipeline) -> None:
    assert failure(pipeline, "bad.png", b"\x89PNG\r\n\x1a\n" + b"\x00garbage" * 10).cause == "corrupt"


def test_decompression_bomb_refused_before_decoding() -> None:
    from asat_extraction.extractor.deterministic import DeterministicExtractor
    from asat_extraction.inputs.ocr import TesseractOcr

    small = Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits(max_pixels=10_000))
    buffer = io.BytesIO()
    Image.new("1", (200, 200), 1).save(buffer, "PNG")
    assert failure(small, "bomb.png", buffer.getvalue()).cause == "image_too_large"


def test_unsupported_type(pipeline: Pipeline) -> None:
    result = failure(pipeline, "archive.zip", b"PK\x03\x04\x00\x00\x00\x00binary\x00\x01\x02")
    assert result.cause == "unsupported" and "archive.zip" in result.message


def test_a_file_of_another_kind_than_its_extension_says_is_refused(pipeline: Pipeline, invoice_pdf: bytes) -> None:
    result = failure(pipeline, "invoice.png", invoice_pdf)
    assert result.cause == "extension_mismatch" and "invoice.png" in result.message


def test_one_picture_format_named_as_another_is_read_with_a_warning(pipeline: Pipeline) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (400, 120), "white").save(buffer, "PNG")
    result = pipeline.process("scan.jpg", buffer.getvalue())
    assert isinstance(result, Processed), result
    assert "extension_mismatch" in [w.code for w in result.extraction.warnings]
    assert result.media_type == "image/png"


def test_processed_type_is_exported() -> None:
    assert Processed.__name__ == "Processed"
