"""Rendering a stored document's pages as PNG (asat_extraction.pages): PDFs, TIFF frames, images."""

from __future__ import annotations

import io

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from PIL import Image

from asat_extraction import pages
from asat_extraction.pages import NoPages, PageOutOfRange, Unrenderable, page_count, render_page


def blank_pdf(*sizes: tuple[float, float]) -> bytes:
    """A PDF of empty pages, each ``(width, height)`` in points."""
    document = pdfium.PdfDocument.new()
    for width, height in sizes:
        document.new_page(width, height)
    out = io.BytesIO()
    document.save(out)
    document.close()
    return out.getvalue()


def encoded(image: Image.Image, fmt: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def decoded(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png))


A4 = (595.0, 842.0)


def test_a_pdf_page_renders_at_page_dpi(invoice_pdf: bytes) -> None:
    assert page_count("application/pdf", invoice_pdf) == 1
    image = decoded(render_page("application/pdf", invoice_pdf, 1))
    width, height = image.size
    assert 110 <= pages.PAGE_DPI <= 150
    assert abs(width - 595 * pages.PAGE_DPI / 72) <= 1 or abs(width - 612 * pages.PAGE_DPI / 72) <= 1
    assert height > width and max(image.size) <= pages.MAX_SIDE
    assert image.convert("L").getextrema()[0] < 128  # there is dark ink (the invoice's text) on it


def test_each_pdf_page_is_its_own_and_out_of_range_names_the_count() -> None:
    pdf = blank_pdf(A4, (842.0, 595.0), A4)
    assert page_count("application/pdf", pdf) == 3
    landscape = decoded(render_page("application/pdf", pdf, 2))
    assert landscape.width > landscape.height
    for page in (0, 4):
        with pytest.raises(PageOutOfRange, match="the document has 3 pages") as raised:
            render_page("application/pdf", pdf, page)
        assert raised.value.count == 3


def test_a_huge_pdf_page_is_capped_in_pixels() -> None:
    pdf = blank_pdf((14_400.0, 3_000.0))  # a 200 x 42 inch poster
    image = decoded(render_page("application/pdf", pdf, 1))
    assert image.width == pages.MAX_SIDE or abs(image.width - pages.MAX_SIDE) <= 1
    assert image.height < image.width


def test_every_tiff_frame_is_a_page() -> None:
    frames = [Image.new("RGB", (300, 400), colour) for colour in ("red", "lime", "blue")]
    tiff = encoded(frames[0], "TIFF", save_all=True, append_images=frames[1:])
    assert page_count("image/tiff", tiff) == 3
    second = decoded(render_page("image/tiff", tiff, 2)).convert("RGB")
    assert second.size == (300, 400) and second.getpixel((10, 10)) == (0, 255, 0)
    with pytest.raises(PageOutOfRange, match="page 4 is out of range: the document has 3 pages"):
        render_page("image/tiff", tiff, 4)


def test_an_image_is_its_one_page_turned_upright_by_its_exif_orientation() -> None:
    picture = Image.new("RGB", (200, 100), "white")
    exif = Image.Exif()
    exif[0x0112] = 6  # stored on its side: rotate 90 degrees clockwise to show
    jpeg = encoded(picture, "JPEG", exif=exif.tobytes())
    assert page_count("image/jpeg", jpeg) == 1
    assert decoded(render_page("image/jpeg", jpeg, 1)).size == (100, 200)
    png = encoded(Image.new("RGBA", (40, 30), (0, 0, 0, 0)), "PNG")
    assert decoded(render_page("image/png", png, 1)).size == (40, 30)
    with pytest.raises(PageOutOfRange, match=r"the document has 1 page$"):
        render_page("image/png", png, 2)


def test_a_large_image_is_scaled_down_to_the_cap() -> None:
    big = encoded(Image.new("L", (pages.MAX_SIDE * 2, 1000), 255), "PNG")
    assert decoded(render_page("image/png", big, 1)).size == (pages.MAX_SIDE, 500)


@pytest.mark.parametrize("media_type", ["message/rfc822", "text/plain"])
def test_email_and_text_have_no_pages(media_type: str) -> None:
    assert page_count(media_type, b"Total $22.00") is None
    with pytest.raises(NoPages, match=f"a {media_type} document has no pages to show"):
        render_page(media_type, b"Total $22.00", 1)


def test_damaged_bytes_are_unrenderable() -> None:
    with pytest.raises(Unrenderable, match="the PDF cannot be opened"):
        render_page("application/pdf", b"%PDF-1.7 nothing else", 1)
    with pytest.raises(Unrenderable, match="the image cannot be decoded"):
        render_page("image/png", b"\x89PNG\r\n\x1a\n broken", 1)


def test_an_image_declaring_too_many_pixels_is_not_decoded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages, "MAX_SOURCE_PIXELS", 100)
    with pytest.raises(Unrenderable, match="declares 20 x 20 pixels"):
        render_page("image/png", encoded(Image.new("L", (20, 20)), "PNG"), 1)
