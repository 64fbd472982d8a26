"""Dates as printed on Australian documents: day-first numerics, written months, ISO.

A numeric date whose day and month are both 12 or less (``05/03/2024``) is ambiguous. The document
decides it when another numeric date on it can only be read one way (``19/03/2024`` is day-first,
``03/19/2024`` month-first); otherwise it is read day-first (the Australian convention) and flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from asat_corpus.text.months import MONTH_PATTERN, calendar_date, month_number

_MONTH = rf"(?P<month_name>{MONTH_PATTERN})"  # the shared month names; the patterns below ignore case

NUMERIC = re.compile(
    r"(?<![\d/.\-])(?P<a>\d{1,2})(?P<sep>[/.\-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d/.\-]*\d)"
)
ISO = re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?!\d)")
DAY_MONTH = re.compile(rf"(?<!\d)(?P<d>\d{{1,2}})(?:st|nd|rd|th)?[ \-]{_MONTH}\.?[ \-,]+(?P<y>\d{{4}})(?!\d)", re.I)
MONTH_DAY = re.compile(rf"\b{_MONTH}\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})(?!\d)", re.I)


class Order(StrEnum):
    DAY_FIRST = "day_first"
    MONTH_FIRST = "month_first"


@dataclass(frozen=True)
class DateMatch:
    """A date found in text: where it starts and ends, and the readings it allows."""

    start: int
    end: int
    text: str
    day_first: date | None
    month_first: date | None

    @property
    def ambiguous(self) -> bool:
        return self.day_first is not None and self.month_first is not None and self.day_first != self.month_first


def _year(raw: str) -> int:
    return 2000 + int(raw) if len(raw) == 2 else int(raw)


def find_dates(text: str) -> list[DateMatch]:
    """Every date in ``text`` in order of position (overlapping matches dropped)."""
    found: list[DateMatch] = []
    for m in ISO.finditer(text):
        value = calendar_date(int(m["y"]), int(m["m"]), int(m["d"]))
        if value:
            found.append(DateMatch(m.start(), m.end(), m.group(0), value, value))
    for pattern in (DAY_MONTH, MONTH_DAY):
        for m in pattern.finditer(text):
            month = month_number(m["month_name"])
            value = calendar_date(int(m["y"]), month, int(m["d"])) if month is not None else None
            if value:
                found.append(DateMatch(m.start(), m.end(), m.group(0), value, value))
    for m in NUMERIC.finditer(text):
        year = _year(m["y"])
        a, b = int(m["a"]), int(m["b"])
        first, second = calendar_date(year, b, a), calendar_date(year, a, b)
        if first or second:
            found.append(DateMatch(m.start(), m.end(), m.group(0), first, second))
    found.sort(key=lambda d: d.start)
    kept: list[DateMatch] = []
    for match in found:
        if kept and match.start < kept[-1].end:
            continue
        kept.append(match)
    return kept


def document_order(matches: Iterable[DateMatch]) -> Order | None:
    """The order the document's unambiguous numeric dates show, or None when they show none or both."""
    orders = set()
    for match in matches:
        if match.day_first is not None and match.month_first is None:
            orders.add(Order.DAY_FIRST)
        elif match.month_first is not None and match.day_first is None:
            orders.add(Order.MONTH_FIRST)
    return orders.pop() if len(orders) == 1 else None


def resolve(match: DateMatch, order: Order | None) -> tuple[date, bool]:
    """The reading of ``match`` under the document's ``order``; True when it stays ambiguous."""
    if not match.ambiguous:
        value = match.day_first or match.month_first
        assert value is not None
        return value, False
    if order is Order.MONTH_FIRST:
        assert match.month_first is not None
        return match.month_first, False
    assert match.day_first is not None
    return match.day_first, order is None
