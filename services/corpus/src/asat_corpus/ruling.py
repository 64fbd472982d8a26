"""ATO rulings and guidance (current consolidated text only)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class RulingParagraph:
    """A numbered paragraph: ``Ruling.text[start:end]``."""

    number: str  # "1", "12A"
    start: int
    end: int


@dataclass(frozen=True)
class Ruling:
    """One ruling or guidance document.

    ``id`` is written as the ATO cites it: ``TR 2020/1``, ``GSTR 2000/1``, ``PS LA 2011/27``,
    ``ATO ID 2010/1``. ``text`` is the canonical body with navigation chrome removed.
    """

    id: str
    doc_type: str  # TR, TD, GSTR, PCG, LCG, TA, IT, MT, PSLA, SGR, AID
    year: int
    number: str
    title: str
    status: str  # as given by the source, lower-cased: "current", "withdrawn", ...
    issue_date: date | None
    withdrawn_date: date | None
    text: str
    paragraphs: tuple[RulingParagraph, ...]
    source_file: str
    current_consolidated_only: bool = True
