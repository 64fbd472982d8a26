"""The version history table at the foot of an ATO Legal database page.

It reads, one cell per line::

    TR 2020/1 history          (or just "history")
    Date:
    Version:
    Change:                    (optional column)
    1 April 2020
    Original ruling
    ...
    You are here               (marks the version shown on the page)
    24 April 2024
    Consolidated ruling
    Addendum

Each row starts with a date line; the first cell after it is the version label.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from asat_corpus.parsers.ato_dates import date_line

_HISTORY_HEAD = re.compile(r"(^|\s)history$", re.IGNORECASE)
YOU_ARE_HERE = "you are here"


@dataclass(frozen=True)
class HistoryRow:
    when: date
    version: str  # "Original ruling", "Consolidated ruling", "Withdrawn", "Archived", ...
    current: bool  # the row marked "You are here"


@dataclass(frozen=True)
class History:
    start_line: int  # index of the "... history" heading: the page body ends before it
    rows: tuple[HistoryRow, ...]

    @property
    def current(self) -> HistoryRow | None:
        marked = [row for row in self.rows if row.current]
        return marked[-1] if marked else None

    def first(self, *prefixes: str) -> HistoryRow | None:
        """The earliest row whose version label starts with one of ``prefixes`` (any case)."""
        wanted = tuple(p.lower() for p in prefixes)
        for row in self.rows:
            if row.version.lower().startswith(wanted):
                return row
        return None


def _next_filled(lines: Sequence[str], index: int) -> int:
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def find_history(lines: Sequence[str]) -> History | None:
    """The last history table in ``lines`` (a heading followed by ``Date:``), or ``None``.

    Blank lines between cells are ignored; ``start_line`` indexes ``lines`` as given.
    """
    start = None
    for index, line in enumerate(lines):
        if _HISTORY_HEAD.search(line.strip()):
            following = _next_filled(lines, index + 1)
            if following < len(lines) and lines[following].strip().lower() == "date:":
                start = index
    if start is None:
        return None
    rows: list[HistoryRow] = []
    marked = False
    index = _next_filled(lines, start + 1)
    while index < len(lines):
        cell = lines[index].strip()
        when = date_line(cell)
        following = _next_filled(lines, index + 1)
        if cell.lower() == YOU_ARE_HERE:
            marked = True
        elif when is not None and following < len(lines):
            rows.append(HistoryRow(when, lines[following].strip(), marked))
            marked = False
            index = following
        index = _next_filled(lines, index + 1)
    return History(start, tuple(rows))
