"""Scans and photos: rows drawn with Pillow, then skewed, noised and compressed like a real capture."""

from __future__ import annotations

import io
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from asat_extraction.synthetic.layout import Row, paginate

SIZES = {"normal": 26, "bold": 26, "title": 36, "small": 22}


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)  # Pillow's bundled scalable font: no system fonts needed


def draw_page(rows: list[Row], width: int, height: int | None = None, margin: int = 60) -> Image.Image:
    line_height = 40
    total = margin * 2 + int(sum(line_height * (1 + r.gap) for r in rows)) + 20
    image = Image.new("L", (width, height or total), 255)
    draw = ImageDraw.Draw(image)
    usable = width - 2 * margin
    y = float(margin)
    for row in rows:
        y += line_height * row.gap
        font = _font(SIZES[row.style])
        for cell in row.cells:
            x = margin + cell.x * usable
            if cell.align == "r":
                x -= draw.textlength(cell.text, font=font)
            draw.text((x, y), cell.text, fill=0, font=font, stroke_width=1 if row.style in ("bold", "title") else 0)
        y += line_height
    return image


def capture(image: Image.Image, rng: random.Random, skew: float, upside_down: bool = False) -> Image.Image:
    """Rotate by ``skew`` degrees, blur a little, add sensor noise; optionally turn it upside down."""
    captured = image.rotate(skew, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=235)
    captured = captured.filter(ImageFilter.GaussianBlur(radius=0.6))
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, 12, (captured.height, captured.width))
    pixels = np.clip(np.asarray(captured, dtype=np.float32) + noise, 0, 255).astype(np.uint8)
    captured = Image.fromarray(pixels)
    return captured.rotate(180) if upside_down else captured


def encode(image: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    if fmt == "JPEG":
        image.convert("L").save(buffer, "JPEG", quality=75)
    else:
        image.save(buffer, fmt)
    return buffer.getvalue()


def image_pdf(rows: list[Row], rng: random.Random, rows_per_page: int = 40) -> bytes:
    """A scanned document: each page an A4 image at 150 dpi, no text layer."""
    pages = [
        capture(draw_page(page, 1240, 1754), rng, rng.uniform(-2.5, 2.5)) for page in paginate(rows, rows_per_page)
    ]
    buffer = io.BytesIO()
    pages[0].convert("L").save(
        buffer, "PDF", resolution=150, save_all=True, append_images=[p.convert("L") for p in pages[1:]]
    )
    return buffer.getvalue()
