"""Why a document could not be read: a cause code for machines and a message for people."""

from __future__ import annotations

from enum import StrEnum


class Cause(StrEnum):
    EMPTY = "empty"
    TOO_LARGE = "too_large"
    ENCRYPTED = "encrypted"
    CORRUPT = "corrupt"
    TRUNCATED = "truncated"
    IMAGE_TOO_LARGE = "image_too_large"
    TOO_MANY_PAGES = "too_many_pages"
    UNSUPPORTED = "unsupported"
    NOT_UTF8 = "not_utf8"
    OCR_UNAVAILABLE = "ocr_unavailable"
    EXTENSION_MISMATCH = "extension_mismatch"  # a PDF named .png, an image named .pdf, ...


class InputError(Exception):
    """The document cannot be read; ``message`` says what is wrong with it and what to do."""

    def __init__(self, cause: Cause, message: str) -> None:
        super().__init__(message)
        self.cause = cause
        self.message = message
