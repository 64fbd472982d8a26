"""Limits on what one document may cost to read (set from the environment by ``composition``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputLimits:
    max_bytes: int = 50 * 1024 * 1024
    max_pages: int = 50
    max_pixels: int = 60_000_000  # about 7,700 x 7,700: an A4 page at 600 dpi is 35 million
    render_dpi: int = 150  # image-only pages: 150 dpi halves OCR time against 200 at equal accuracy on the bench
    min_text_chars: int = 20  # a PDF page with fewer characters in its text layer is OCR'd
    max_attachments: int = 10
