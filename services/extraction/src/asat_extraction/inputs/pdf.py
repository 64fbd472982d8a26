"""PDFs through pdfium: the text layer of each page, and pages without one rendered for OCR."""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image

from asat_extraction.inputs.errors import Cause, InputError
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import OcrEngine


@dataclass(frozen=True)
class PdfPage:
    text: str
    ocr: bool


def _open(data: bytes) -> pdfium.PdfDocument:
    if b"%%EOF" not in data[-2048:]:
        raise InputError(
            Cause.TRUNCATED,
            "the PDF ends without its end-of-file marker (%%EOF): it was cut short in transfer; fetch it again",
        )
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        text = str(error).lower()
        if "password" in text:
            raise InputError(
                Cause.ENCRYPTED,
                "the PDF is password-protected: save an unprotected copy (print to PDF) and upload that",
            ) from None
        raise InputError(Cause.CORRUPT, f"the PDF cannot be read ({error}): it is damaged; fetch it again") from None


COLUMN_GAP = 14.0  # points of empty space between two words that makes a column break


def _columned_text(textpage: pdfium.PdfTextPage, page_width: float) -> str:
    """The text layer with a tab at each column break and before a line that starts mid-page."""
    text = str(textpage.get_text_range())
    boxes = [textpage.get_charbox(i) for i in range(textpage.count_chars())]
    if len(boxes) != len(text):
        return text  # pdfium's char list and text disagree (rare): keep the plain text, no columns
    out: list[str] = []
    previous_right: float | None = None
    line_start = True
    pending_space = False
    for char, (left, _bottom, right, _top) in zip(text, boxes, strict=True):
        if char in "\r\n":
            out.append(char)
            previous_right, line_start, pending_space = None, True, False
            continue
        if char.isspace():
            pending_space = True
            continue
        if (line_start and left > page_width * 0.4) or (
            previous_right is not None and left - previous_right > COLUMN_GAP
        ):
            out.append("\t")
        elif pending_space:
            out.append(" ")
        out.append(char)
        previous_right, line_start, pending_space = right, False, False
    return "".join(out)


def read_pdf(data: bytes, limits: InputLimits, ocr: OcrEngine | None) -> list[PdfPage]:
    document = _open(data)
    try:
        if len(document) == 0:
            raise InputError(Cause.CORRUPT, "the PDF has no pages")
        if len(document) > limits.max_pages:
            raise InputError(
                Cause.TOO_MANY_PAGES,
                f"the PDF has {len(document)} pages, more than the limit of {limits.max_pages}: "
                "split it into one file per invoice",
            )
        pages: list[PdfPage] = []
        for index in range(len(document)):
            page = document[index]
            text = _columned_text(page.get_textpage(), float(page.get_size()[0]))
            if len("".join(text.split())) >= limits.min_text_chars:
                pages.append(PdfPage(text, ocr=False))
                continue
            width, height = page.get_size()
            scale = limits.render_dpi / 72
            if width * scale * height * scale > limits.max_pixels:
                raise InputError(
                    Cause.IMAGE_TOO_LARGE,
                    f"page {index + 1} would render to {int(width * scale)} x {int(height * scale)} pixels, over the "
                    f"limit of {limits.max_pixels}: it is not a normal page size",
                )
            if ocr is None:
                raise InputError(Cause.OCR_UNAVAILABLE, f"page {index + 1} has no text layer and OCR is not configured")
            image: Image.Image = page.render(scale=scale, grayscale=True).to_pil()
            pages.append(PdfPage(ocr.read(image).text, ocr=True))
        return pages
    finally:
        document.close()
