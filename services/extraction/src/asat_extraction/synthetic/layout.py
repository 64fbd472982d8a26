"""A renderer-neutral page description: rows of positioned cells, drawn by the PDF, image and text renderers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class Cell:
    text: str
    x: float  # 0..1 of the printable width; the cell's left edge, or right edge when align is "r"
    align: Literal["l", "r"] = "l"


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    style: Literal["normal", "bold", "title", "small"] = "normal"
    gap: float = 0.0  # extra space before the row, in rows
    role: Literal["text", "header", "item"] = "text"


@dataclass
class Sheet:
    rows: list[Row] = field(default_factory=list)

    def add(self, *cells: Cell, style: Literal["normal", "bold", "title", "small"] = "normal", gap: float = 0.0,
            role: Literal["text", "header", "item"] = "text") -> None:  # fmt: skip
        self.rows.append(Row(tuple(cells), style, gap, role))

    def line(self, text: str, style: Literal["normal", "bold", "title", "small"] = "normal", gap: float = 0.0) -> None:
        self.add(Cell(text, 0.0), style=style, gap=gap)


def paginate(rows: list[Row], per_page: int) -> list[list[Row]]:
    """Split rows into pages; a page that breaks inside the item table ends with a continuation line
    and the next page repeats the table header."""
    pages: list[list[Row]] = []
    current: list[Row] = []
    header: Row | None = None
    for row in rows:
        if row.role == "header":
            header = row
        if len(current) >= per_page:
            in_table = row.role == "item"
            if in_table:
                current.append(Row((Cell("Continued on next page", 0.0),), "small", 0.5))
            pages.append(current)
            current = [header] if in_table and header is not None else []
        current.append(row)
    pages.append(current)
    return pages


def as_text(rows: list[Row], width: int = 72) -> str:
    """Plain text: cells placed at their column (right-aligned cells end at their column)."""
    lines: list[str] = []
    for row in rows:
        if row.gap >= 1:
            lines.append("")
        line = ""
        for cell in sorted(row.cells, key=lambda c: c.x):
            column = int(cell.x * width)
            start = column - len(cell.text) if cell.align == "r" else column
            start = max(start, len(line) + (1 if line else 0))
            line = line.ljust(start) + cell.text
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"
