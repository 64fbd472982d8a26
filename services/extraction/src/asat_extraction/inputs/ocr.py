"""OCR port and its Tesseract adapter (local binary and its installed language data; nothing downloaded).

The adapter levels the page (projection-profile deskew), reads it, and when the words come back
with low confidence asks Tesseract's orientation detection (OSD) whether the page is upside down
or sideways, turns it, and reads it again, keeping the better reading.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from typing import Protocol

import pytesseract  # type: ignore[import-untyped]
from PIL import Image

from asat_extraction.inputs.deskew import deskew
from asat_extraction.inputs.errors import Cause, InputError


@dataclass(frozen=True)
class OcrResult:
    text: str
    confidence: float  # mean word confidence, 0..100
    rotation: int  # degrees turned (0, 90, 180, 270) before reading
    skew: float  # degrees of deskew applied


class OcrEngine(Protocol):
    """Reads a page image: printed rows in reading order, a tab at a wide gap between cells.

    The promise every adapter keeps (``asat_extraction.testing.ocr_contract``): a page skewed a few
    degrees or turned upside down is read upright; a blank page is no text and no error; an image
    that cannot be decoded is an :class:`InputError` (``corrupt``), never some library's exception.
    """

    @property
    def name(self) -> str: ...

    def read(self, image: Image.Image) -> OcrResult:
        """The text of ``image`` in reading order, lines separated by newlines."""
        ...


LOW_CONFIDENCE = 70.0
_AMOUNT_LABEL = re.compile(r"\b(total|subtotal|gst|amount|balance)\b", re.I)
_MONEY = re.compile(r"\d\.\d{2}\b")


@dataclass(frozen=True)
class WordBox:
    """A word's (or phrase's) box on the page, in pixels."""

    top: int
    height: int
    left: int
    width: int
    text: str

    @property
    def middle(self) -> float:
        return self.top + self.height / 2


def _overlaps(a: WordBox, b: WordBox) -> bool:
    """True when the boxes share over a third of the smaller one's area."""
    width = min(a.left + a.width, b.left + b.width) - max(a.left, b.left)
    height = min(a.top + a.height, b.top + b.height) - max(a.top, b.top)
    if width <= 0 or height <= 0:
        return False
    return width * height > min(a.width * a.height, b.width * b.height) / 3


def grayscale(image: Image.Image) -> Image.Image:
    """``image`` in 8-bit gray; an image Pillow cannot decode (truncated, damaged) is an InputError."""
    try:
        return image.convert("L")
    except (OSError, SyntaxError, ValueError) as error:
        raise InputError(
            Cause.CORRUPT, f"the image cannot be decoded for OCR ({error}): it is damaged or truncated"
        ) from None


def layout_text(words: list[WordBox], page_width: int) -> str:
    """Words (or phrases) with their boxes laid out as printed rows, in reading order."""
    return "\n".join(_columned(row, page_width) for row in _rows(words))


def _rows(words: list[WordBox]) -> list[list[WordBox]]:
    """Words grouped into printed rows by their vertical middle, whatever blocks Tesseract saw
    (it often reads a right-hand column of amounts as a block of its own)."""
    if not words:
        return []
    heights = sorted(w.height for w in words)
    tolerance = heights[len(heights) // 2] * 0.55
    rows: list[list[WordBox]] = []
    for word in sorted(words, key=lambda w: w.middle):
        if rows and abs(word.middle - sum(w.middle for w in rows[-1]) / len(rows[-1])) <= tolerance:
            rows[-1].append(word)
        else:
            rows.append([word])
    return [sorted(row, key=lambda w: w.left) for row in rows]


def _columned(words: list[WordBox], page_width: int) -> str:
    """Words of one row joined; a tab at a gap wider than three letters, and before a row that starts mid-page."""
    heights = sorted(w.height for w in words)
    gap = 3 * heights[len(heights) // 2]
    out = "\t" if words[0].left > page_width * 0.4 else ""
    right: int | None = None
    for word in words:
        left, width, text = word.left, word.width, word.text
        if right is not None:
            out += "\t" if left - right > gap else " "
        out += text
        right = left + width
    return out


class TesseractOcr:
    def __init__(self, language: str = "eng", command: str = "tesseract") -> None:
        path = shutil.which(command)
        if path is None:
            raise InputError(
                Cause.OCR_UNAVAILABLE,
                f"the OCR program {command!r} is not installed: install tesseract-ocr and tesseract-ocr-eng "
                "(apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd)",
            )
        pytesseract.pytesseract.tesseract_cmd = path
        self._language = language
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")

    @property
    def name(self) -> str:
        return "tesseract"

    def _words(self, image: Image.Image, psm: int) -> list[tuple[WordBox, float]]:
        data = pytesseract.image_to_data(
            image, lang=self._language, config=f"--psm {psm}", output_type=pytesseract.Output.DICT
        )
        words: list[tuple[WordBox, float]] = []
        for i, text in enumerate(data["text"]):
            if str(text).strip():
                box = WordBox(
                    int(data["top"][i]), int(data["height"][i]), int(data["left"][i]), int(data["width"][i]), str(text)
                )
                words.append((box, float(data["conf"][i])))
        return words

    def _read(self, image: Image.Image) -> tuple[str, float]:
        """Layout analysis (psm 4) reads headings of any size but can drop a right-aligned column of
        amounts; when a row labelled as an amount shows none, a uniform-block pass (psm 6) runs too
        and its words that overlap none of the first pass are added. Rows are rebuilt from positions."""
        first = self._words(image, 4)
        text = layout_text([w for w, _ in first], image.width)
        confidences = [c for _, c in first]
        if any(_AMOUNT_LABEL.search(row) and not _MONEY.search(row) for row in text.splitlines()):
            second = [(w, c) for w, c in self._words(image, 6) if not any(_overlaps(w, f) for f, _ in first)]
            words = [w for w, _ in first + second]
            text = layout_text(words, image.width)
            confidences = confidences or [c for _, c in second]
        return text, (sum(confidences) / len(confidences) if confidences else 0.0)

    def read(self, image: Image.Image) -> OcrResult:
        gray = grayscale(image)
        levelled, skew = deskew(gray)
        text, confidence = self._read(levelled)
        if confidence >= LOW_CONFIDENCE and len(text) > 20:
            return OcrResult(text, confidence, 0, skew)
        try:
            osd = pytesseract.image_to_osd(gray, config="--psm 0", output_type=pytesseract.Output.DICT)
            rotate = int(osd.get("rotate", 0)) % 360
        except pytesseract.TesseractError:
            rotate = 0  # OSD finds too few characters to judge: keep the first reading
        if rotate == 0:
            return OcrResult(text, confidence, 0, skew)
        turned, skew2 = deskew(gray.rotate(-rotate, expand=True, fillcolor=255))
        text2, confidence2 = self._read(turned)
        if confidence2 > confidence:
            return OcrResult(text2, confidence2, rotate, skew2)
        return OcrResult(text, confidence, 0, skew)
