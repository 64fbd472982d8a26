"""The text of a document as the extractor sees it: numbered pages, each with where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class InputKind(StrEnum):
    """How the text was obtained; the bench reports time per input kind."""

    TEXT_PDF = "text_pdf"
    IMAGE_PDF = "image_pdf"
    IMAGE = "image"
    TEXT = "text"
    EMAIL = "email"


@dataclass(frozen=True)
class Page:
    """Page ``number`` (1-based across the whole document) and its text; ``source`` says where from."""

    number: int
    text: str
    source: str
    ocr: bool = False


@dataclass(frozen=True)
class PageImage:
    """The picture of page ``page`` (PNG or JPEG bytes), offered to vision models beside the text."""

    page: int
    media_type: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class DocumentText:
    pages: tuple[Page, ...]
    input_kind: InputKind
    media_type: str
    images: tuple[PageImage, ...] = ()  # only when the pipeline was asked for them (model providers)

    @property
    def ocr(self) -> bool:
        return any(page.ocr for page in self.pages)
