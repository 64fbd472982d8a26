"""A stored document's pages as PNG pictures, for the review view: PDFs through pdfium, TIFF frames
and images through Pillow (turned upright by their EXIF orientation).

Pages are numbered from 1. A PDF page renders at ``PAGE_DPI``; any page is scaled down so that
its longer side is at most ``MAX_SIDE`` pixels. Email and text have no pages (:class:`NoPages`).
Pure: bytes and a media type in, PNG bytes out; nothing is kept.
"""

from __future__ import annotations

import io
import warnings

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image, ImageOps, UnidentifiedImageError

PAGE_DPI = 130  # an A4 page is 1075 x 1520 pixels: small print stays readable beside the fields
MAX_SIDE = 2000  # pixels, the longer side of a rendered page at most
MAX_SOURCE_PIXELS = 60_000_000  # an image declaring more is not decoded (a decompression bomb)
PDF = "application/pdf"
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/tiff", "image/gif", "image/webp"})


class NoPages(Exception):
    """The media type has no pages to show (email, text)."""

    def __init__(self, media_type: str) -> None:
        super().__init__(
            f"a {media_type} document has no pages to show: only PDFs and images (PNG, JPEG, TIFF) are "
            "rendered; read its text in the transaction's provenance, or download it from /file"
        )
        self.media_type = media_type


class PageOutOfRange(LookupError):
    """The document has fewer pages than the one asked for."""

    def __init__(self, page: int, count: int) -> None:
        super().__init__(f"page {page} is out of range: the document has {count} page{'s' if count != 1 else ''}")
        self.page, self.count = page, count


class Unrenderable(Exception):
    """The bytes cannot be rendered (damaged, or too large to decode safely)."""


def has_pages(media_type: str) -> bool:
    return media_type == PDF or media_type in IMAGE_TYPES


def page_count(media_type: str, data: bytes) -> int | None:
    """How many pages the document has; None for a type without pages."""
    if media_type == PDF:
        document = _open_pdf(data)
        try:
            return len(document)
        finally:
            document.close()
    if media_type in IMAGE_TYPES:
        return int(getattr(_open_image(data), "n_frames", 1))
    return None


def render_page(media_type: str, data: bytes, page: int) -> bytes:
    """Page ``page`` (1-based) as PNG bytes. Raises NoPages, PageOutOfRange or Unrenderable."""
    if media_type == PDF:
        return _png(_pdf_page(data, page))
    if media_type in IMAGE_TYPES:
        return _png(_image_frame(data, page))
    raise NoPages(media_type)


def _fit(width: float, height: float, scale: float) -> float:
    """``scale``, lowered where needed so the longer side is at most MAX_SIDE pixels."""
    longest = max(width, height) * scale
    return scale if longest <= MAX_SIDE else scale * MAX_SIDE / longest


def _open_pdf(data: bytes) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise Unrenderable(f"the PDF cannot be opened ({error})") from None


def _pdf_page(data: bytes, page: int) -> Image.Image:
    document = _open_pdf(data)
    try:
        if not 1 <= page <= len(document):
            raise PageOutOfRange(page, len(document))
        pdf_page = document[page - 1]
        width, height = pdf_page.get_size()
        scale = _fit(float(width), float(height), PAGE_DPI / 72)
        image: Image.Image = pdf_page.render(scale=scale).to_pil()
        return image
    finally:
        document.close()


def _open_image(data: bytes) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > MAX_SOURCE_PIXELS:
                raise Unrenderable(f"the image declares {width} x {height} pixels: too large to decode safely")
            return image
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise Unrenderable(f"the image is too large to decode safely ({error})") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise Unrenderable(f"the image cannot be decoded ({error})") from None


def _image_frame(data: bytes, page: int) -> Image.Image:
    image = _open_image(data)
    count = int(getattr(image, "n_frames", 1))
    if not 1 <= page <= count:
        raise PageOutOfRange(page, count)
    try:
        image.seek(page - 1)
        frame = ImageOps.exif_transpose(image) or image
        frame = frame.convert("RGBA" if "A" in frame.getbands() else "RGB")
    except (OSError, SyntaxError, ValueError) as error:
        raise Unrenderable(f"frame {page} of the image cannot be decoded ({error})") from None
    scale = _fit(frame.width, frame.height, 1.0)
    if scale < 1.0:
        size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
        frame = frame.resize(size, Image.Resampling.LANCZOS)
    return frame


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
