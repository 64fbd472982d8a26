"""Images (PNG, JPEG, TIFF) through Pillow and OCR, refusing decompression bombs before decoding."""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from asat_extraction.inputs.errors import Cause, InputError
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import OcrEngine


def open_image(data: bytes, limits: InputLimits) -> Image.Image:
    """The decoded image; refuses one whose declared size is over ``limits.max_pixels``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > limits.max_pixels:
                raise InputError(
                    Cause.IMAGE_TOO_LARGE,
                    f"the image declares {width} x {height} pixels, over the limit of {limits.max_pixels}: "
                    "a decompression bomb or a far larger scan than needed; rescan at 200-300 dpi",
                )
            image.load()
    except InputError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise InputError(Cause.IMAGE_TOO_LARGE, f"the image is too large to decode safely ({error})") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        raise InputError(Cause.CORRUPT, f"the image cannot be decoded ({error}): it is damaged or truncated") from None
    if getattr(image, "n_frames", 1) > 1:
        return image  # a copy would keep only the first frame: each frame is turned upright as it is read
    return _upright(image)


def _upright(image: Image.Image) -> Image.Image:
    return ImageOps.exif_transpose(image) or image


def read_image(data: bytes, limits: InputLimits, ocr: OcrEngine | None) -> list[str]:
    """The text of each frame (a TIFF may have several), by OCR."""
    if ocr is None:
        raise InputError(Cause.OCR_UNAVAILABLE, "images need OCR and OCR is not configured")
    image = open_image(data, limits)
    frames = getattr(image, "n_frames", 1)
    if frames > limits.max_pages:
        raise InputError(Cause.TOO_MANY_PAGES, f"the image has {frames} frames, over the limit of {limits.max_pages}")
    texts: list[str] = []
    for frame in range(frames):
        image.seek(frame)
        texts.append(ocr.read(_upright(image).convert("RGB")).text)
    return texts


def frames_as_png(data: bytes, limits: InputLimits) -> list[bytes]:
    """Each frame of the image as PNG bytes (vision APIs take PNG or JPEG, not TIFF)."""
    image = open_image(data, limits)
    frames: list[bytes] = []
    for frame in range(min(getattr(image, "n_frames", 1), limits.max_pages)):
        image.seek(frame)
        out = io.BytesIO()
        _upright(image).convert("RGB").save(out, format="PNG")
        frames.append(out.getvalue())
    return frames
