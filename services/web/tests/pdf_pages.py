"""Reading the file note's PDF in the tests: its text (pypdf) and a picture of a page (pypdfium2)."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from pypdf import PdfReader


def page_texts(pdf: bytes) -> list[str]:
    """The extracted text of each page, as pypdf gives it."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def extracted_text(pdf: bytes) -> str:
    """The whole document's extracted text, one page after another."""
    return "\n".join(page_texts(pdf))


def save_first_page_png(pdf: bytes, path: Path, scale: float = 1.5) -> Path:
    """The first page rendered to PNG at ``path`` (72 dpi times ``scale``), for the docs."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[0].render(scale=scale).to_pil()
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, format="PNG", optimize=True)
    finally:
        document.close()
    return path
