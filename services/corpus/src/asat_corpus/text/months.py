"""The one table of month names, and dates written day first with a month name (pure).

Names: the full English names and their abbreviations (``Jan`` ... ``Dec``, ``Sept`` as well as
``Sep``; ``May`` has none). ``month_number`` reads any of them in any case, with or without a
trailing full stop. The patterns are regular-expression alternations without groups, written in
title case (``January|...``), so a caller compiled without ``re.IGNORECASE`` matches only
capitalised names (``1 may`` is then not a date) and one compiled with it matches any case.

``DAY_MONTH_YEAR`` reads ``1 July 2023``, ``1 Jul 2023``, ``1st July, 2023`` and ``1 Sept. 2023``
(groups ``day``, ``month``, ``year``); :func:`day_month_year` turns such a match into a date,
None when no such day exists (``31 June 2023``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

MONTH_NAMES: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_ABBREVIATIONS = {
    "Jan": 1,
    "Feb": 2,
    "Mar": 3,
    "Apr": 4,
    "Jun": 6,
    "Jul": 7,
    "Aug": 8,
    "Sep": 9,
    "Sept": 9,
    "Oct": 10,
    "Nov": 11,
    "Dec": 12,
}

FULL_MONTH_NUMBERS: Mapping[str, int] = {name.lower(): number for number, name in enumerate(MONTH_NAMES, start=1)}
"""Lower-case full month names and their numbers (``july`` -> 7)."""

MONTH_NUMBERS: Mapping[str, int] = {**FULL_MONTH_NUMBERS, **{name.lower(): n for name, n in _ABBREVIATIONS.items()}}
"""Lower-case full names and abbreviations and their numbers (``jul`` -> 7, ``sept`` -> 9)."""

FULL_MONTH_PATTERN = "|".join(MONTH_NAMES)
"""``January|February|...|December``."""

MONTH_PATTERN = "|".join(sorted((*MONTH_NAMES, *_ABBREVIATIONS), key=len, reverse=True))
"""Every full name and abbreviation, longest first."""

DAY_MONTH_YEAR = re.compile(
    rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<month>{MONTH_PATTERN})\.?,?\s+(?P<year>\d{{4}})\b",
    re.IGNORECASE,
)


def month_number(name: str) -> int | None:
    """The number of a month name or abbreviation, any case, a trailing full stop allowed."""
    return MONTH_NUMBERS.get(name.strip().rstrip(".").lower())


def calendar_date(year: int, month: int, day: int) -> date | None:
    """The day, or None when the calendar has no such day."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def day_month_year(match: re.Match[str]) -> date | None:
    """The date a :data:`DAY_MONTH_YEAR` match states, None when no such day exists."""
    month = month_number(match["month"])
    if month is None:
        return None
    return calendar_date(int(match["year"]), month, int(match["day"]))


def parse_day_month_year(text: str) -> date | None:
    """The first ``1 July 2023`` / ``1 Jul 2023`` date in ``text``, None when there is none or it
    does not exist."""
    match = DAY_MONTH_YEAR.search(text)
    return day_month_year(match) if match is not None else None
