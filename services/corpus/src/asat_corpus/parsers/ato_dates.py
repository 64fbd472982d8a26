"""Dates as the ATO Legal database writes them (``29 May 1975``) and where they sit.

Three places give a ruling's dates, in order of authority:

* the sign-off block: a ``Commissioner of Taxation`` line (any case, optionally preceded by
  ``Deputy``/``Second``) followed within two lines by a date;
* a labelled element: ``Date of Issue:`` (Taxpayer Alerts, Practice Statements),
  ``Date of publication:`` / ``Date of decision:`` (ATO IDs), the label on one line and the
  date on the next (or on the same line);
* the version history table at the end of the page (see :mod:`ato_history`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from asat_corpus.text.months import FULL_MONTH_PATTERN, calendar_date, month_number

# Full month names, as the ATO writes them; a two-digit year is 19yy.
_DATE = re.compile(r"\b(\d{1,2})\s*(" + FULL_MONTH_PATTERN + r")\s+(\d{4}|\d{2})\b", re.IGNORECASE)
_DATE_LINE = re.compile(r"^\s*" + _DATE.pattern + r"\s*\.?\s*(\[\d{1,3}\]\s*)*$", re.IGNORECASE)
TWO_DIGIT_CENTURY = 1900  # "18 March 77" in old IT rulings
_SIGN_OFF = re.compile(r"^\s*((deputy|second|first)\s+)?commissioner of taxation\s*$", re.IGNORECASE)
SIGN_OFF_WINDOW = 2


def parse_date(text: str) -> date | None:
    """The first ``d Month yyyy`` (or ``d Month yy``, read as 19yy) in ``text``; ``None`` when there
    is none or it is impossible."""
    match = _DATE.search(text)
    if match is None:
        return None
    day, month, year = int(match.group(1)), month_number(match.group(2)), int(match.group(3))
    if month is None:
        return None
    if year < 100:
        year += TWO_DIGIT_CENTURY
    return calendar_date(year, month, day)


def date_line(line: str) -> date | None:
    """The date when ``line`` holds nothing but a date (a full stop or footnote marker may follow)."""
    return parse_date(line) if _DATE_LINE.match(line) else None


def is_sign_off(line: str) -> bool:
    return _SIGN_OFF.match(line) is not None


def sign_off_dates(lines: Sequence[str]) -> list[tuple[int, date]]:
    """Every ``(line index, date)`` of a Commissioner's sign-off, in document order."""
    found: list[tuple[int, date]] = []
    for index, line in enumerate(lines):
        if not is_sign_off(line):
            continue
        for offset in range(1, SIGN_OFF_WINDOW + 1):
            if index + offset < len(lines):
                when = date_line(lines[index + offset])
                if when is not None:
                    found.append((index, when))
                    break
    return found


def labelled_date(lines: Sequence[str], label: str) -> date | None:
    """The date given by the first ``label`` element (e.g. ``Date of Issue:``), if any."""
    wanted = label.lower()
    for index, line in enumerate(lines):
        if not line.lower().startswith(wanted):
            continue
        same_line = parse_date(line[len(label) :])
        if same_line is not None:
            return same_line
        if index + 1 < len(lines):
            following = date_line(lines[index + 1])
            if following is not None:
                return following
    return None
