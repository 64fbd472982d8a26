"""Acts and their compilations as held in the corpus."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum


class SourceFormat(StrEnum):
    """The formats named in ``SOURCES.json``."""

    REGISTER_PDF_LAYOUT_TEXT = "register-pdf-layout-text"
    GITLAW_MARKDOWN = "gitlaw-markdown"
    ANIMUS_PDF_MARKDOWN = "animus-pdf-markdown"
    ATO_LEGAL_DATABASE_TEXT = "ato-legal-database-text"


AUTHORISED_FORMATS = frozenset({SourceFormat.REGISTER_PDF_LAYOUT_TEXT})


@dataclass(frozen=True)
class ActRef:
    """An Act identified the way the endnotes cite it: ``No 41, 2017``."""

    number: int
    year: int

    def __str__(self) -> str:
        return f"Act No. {self.number}, {self.year}"

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.year, self.number)


@dataclass(frozen=True)
class Act:
    slug: str
    title: str


@dataclass(frozen=True)
class Compilation:
    """One compilation of an Act, as described by its ``SOURCES.json`` entry."""

    act: str
    title: str
    register_id: str
    number: int | None
    compilation_date: date | None
    amendments_up_to: ActRef | None
    amendments_up_to_text: str | None
    format: SourceFormat
    files: tuple[str, ...]
    partial: str | None
    has_endnotes: bool

    @property
    def authorised(self) -> bool:
        """True for the Register's authorised text; False for a third-party conversion."""
        return self.format in AUTHORISED_FORMATS
