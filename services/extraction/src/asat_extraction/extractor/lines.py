"""A document as numbered lines of cells: what every rule of the deterministic extractor walks over.

Readers mark a wide horizontal gap (a column break) with a tab, and a line that starts in the
right half of the page with a leading tab; so ``Line.cells`` gives each piece of text its column
(0 = left) and rules can tell the supplier's block from the buyer's when a PDF prints them side by side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asat_extraction.document import DocumentText

_SPACES = re.compile(r"[ \u00a0]+")
_WIDE = re.compile(r" {3,}")


@dataclass(frozen=True)
class Cell:
    column: int
    start: int  # offset in Line.text
    text: str


@dataclass(frozen=True)
class Line:
    page: int
    index: int  # position in the whole document, 0-based
    text: str
    cells: tuple[Cell, ...] = ()

    def cell_at(self, offset: int) -> Cell | None:
        """The cell holding ``offset`` of ``text``."""
        for cell in reversed(self.cells):
            if offset >= cell.start:
                return cell
        return None

    def column(self, column: int) -> Cell | None:
        return next((cell for cell in self.cells if cell.column == column), None)


def split_line(page: int, index: int, raw: str) -> Line | None:
    """``raw`` (tabs between columns) as a Line, or None when it is blank."""
    parts = _WIDE.sub("\t", raw).split("\t")
    cells: list[Cell] = []
    text = ""
    for column, part in enumerate(parts):
        piece = _SPACES.sub(" ", part).strip()
        if not piece:
            continue
        if text:
            text += " "
        cells.append(Cell(column, len(text), piece))
        text += piece
    return Line(page, index, text, tuple(cells)) if text else None


def document_lines(document: DocumentText) -> list[Line]:
    lines: list[Line] = []
    for page in document.pages:
        for raw in page.text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            line = split_line(page.number, len(lines), raw)
            if line is not None:
                lines.append(line)
    return lines
