"""OCR adapter for RapidOCR: PaddleOCR's PP-OCR models run by onnxruntime on the CPU.

The ``rapidocr`` wheel (3.10 and later) ships its detection, recognition and direction models as
``.onnx`` files inside the package; this adapter passes their paths explicitly, so the library's
download-on-first-use path is never taken and no network is needed. A wheel without them is
refused at start, never fetched. Install it with the ``rapidocr`` extra of asat-extraction.

Like the Tesseract adapter it levels the page first. RapidOCR returns phrases with their boxes and a
score each; the phrases are laid out as printed rows by the same code as Tesseract's words. When the
scores are low (an upside-down page reads as confident-looking garbage at about 0.7) or most boxes
stand taller than wide (a page turned sideways), the page is turned and read again, keeping the better reading.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from asat_extraction.inputs.deskew import deskew
from asat_extraction.inputs.errors import Cause, InputError
from asat_extraction.inputs.ocr import OcrResult, WordBox, grayscale, layout_text

PACKAGE = "rapidocr"
INSTALL = "pip install 'asat-extraction[rapidocr]' (rapidocr>=3.10 with its bundled ONNX models, and onnxruntime)"
MODELS = {
    "Det.model_path": "PP-OCRv6_det_small.onnx",
    "Rec.model_path": "PP-OCRv6_rec_small.onnx",
    "Cls.model_path": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}
GOOD_SCORE = 0.9  # mean phrase score of an upright page is about 0.99; upside down, about 0.7

_Reading = tuple[list[WordBox], float]  # phrases with their boxes; mean score 0..1


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise InputError(
            Cause.OCR_UNAVAILABLE, f"ASAT_EXTRACTION_OCR=rapidocr needs the Python package {name!r}: {INSTALL}"
        ) from None


class RapidOcr:
    def __init__(self) -> None:
        module = _import(PACKAGE)
        _import("onnxruntime")
        models = Path(module.__file__).parent / "models"
        missing = [name for name in MODELS.values() if not (models / name).is_file()]
        if missing:
            raise InputError(
                Cause.OCR_UNAVAILABLE,
                f"the installed rapidocr has no bundled {', '.join(missing)} in {models} and models are never "
                f"downloaded at run time: {INSTALL}",
            )
        params: dict[str, object] = {
            "Global.log_level": "error",
            "Global.use_cls": False,  # page direction is decided here, for the whole page
            **{key: str(models / name) for key, name in MODELS.items()},
        }
        self._engine = module.RapidOCR(params=params)

    @property
    def name(self) -> str:
        return "rapidocr"

    def _read(self, image: Image.Image) -> _Reading:
        output = self._engine(np.asarray(image.convert("RGB")))
        if output.boxes is None or output.txts is None or output.scores is None:
            return [], 0.0
        words: list[WordBox] = []
        for box, text, _ in zip(output.boxes, output.txts, output.scores, strict=True):
            xs, ys = [float(p[0]) for p in box], [float(p[1]) for p in box]
            left, top = int(min(xs)), int(min(ys))
            words.append(WordBox(top, max(1, int(max(ys)) - top), left, max(1, int(max(xs)) - left), str(text)))
        scores = [float(s) for s in output.scores]
        return words, sum(scores) / len(scores) if scores else 0.0

    @staticmethod
    def _sideways(words: list[WordBox]) -> bool:
        return sum(w.height > w.width for w in words) * 2 > len(words)

    def read(self, image: Image.Image) -> OcrResult:
        gray = grayscale(image)
        levelled, skew = deskew(gray)
        words, score = self._read(levelled)
        if not words or (score >= GOOD_SCORE and not self._sideways(words)):
            return OcrResult(layout_text(words, levelled.width), score * 100, 0, skew)
        # An upright reading beats a sideways one (RapidOCR reads tall phrases turned, so their
        # scores can be high while the rows are not); then the higher mean score wins.
        best = (words, score, 0, skew, levelled.width)
        for rotate in (90, 270) if self._sideways(words) else (180,):
            turned, turned_skew = deskew(gray.rotate(-rotate, expand=True, fillcolor=255))
            turned_words, turned_score = self._read(turned)
            if turned_words and (not self._sideways(turned_words), turned_score) > (
                not self._sideways(best[0]),
                best[1],
            ):
                best = (turned_words, turned_score, rotate, turned_skew, turned.width)
                if turned_score >= GOOD_SCORE and not self._sideways(turned_words):
                    break
        words, score, rotation, skew, width = best
        return OcrResult(layout_text(words, width), score * 100, rotation, skew)
