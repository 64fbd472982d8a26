"""Projection-profile deskew: the small rotation that makes text rows sharpest.

Rows of text make the horizontal projection (dark pixels per row) peaky when the page is level and
flat when it is skewed; the angle with the largest variance of row sums wins. Searched coarsely
over +-``max_degrees`` then finely around the best, on a downscaled binarised copy.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

WORK_WIDTH = 700


def _score(binary: Image.Image, angle: float) -> float:
    rotated = binary.rotate(angle, resample=Image.Resampling.NEAREST, expand=True, fillcolor=0)
    rows = np.asarray(rotated, dtype=np.float32).sum(axis=1)
    return float(np.var(rows))


def skew_angle(image: Image.Image, max_degrees: float = 8.0) -> float:
    """Degrees to rotate ``image`` (counter-clockwise, PIL's sense) to level its text rows."""
    gray = image.convert("L")
    scale = WORK_WIDTH / max(gray.width, 1)
    if scale < 1:
        gray = gray.resize((WORK_WIDTH, max(1, int(gray.height * scale))), Image.Resampling.BILINEAR)
    pixels = np.asarray(gray, dtype=np.uint8)
    threshold = min(160, int(pixels.mean() * 0.75))
    binary = Image.fromarray(((pixels < threshold) * 1).astype(np.uint8))
    if not np.asarray(binary).any():
        return 0.0
    coarse = np.arange(-max_degrees, max_degrees + 0.01, 1.0)
    best = max(coarse, key=lambda a: _score(binary, float(a)))
    fine = np.arange(best - 1.0, best + 1.01, 0.2)
    return round(float(max(fine, key=lambda a: _score(binary, float(a)))), 2)


def deskew(image: Image.Image, max_degrees: float = 8.0) -> tuple[Image.Image, float]:
    """``image`` levelled, and the angle applied (0.0 when under a tenth of a degree)."""
    angle = skew_angle(image, max_degrees)
    if abs(angle) < 0.1:
        return image, 0.0
    fill = 255 if image.mode == "L" else (255, 255, 255)
    return image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=fill), angle
