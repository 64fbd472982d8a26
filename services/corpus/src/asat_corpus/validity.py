"""Half-open validity intervals: the one "in force on a day" test (pure).

A text is in force on ``day`` when ``valid_from <= day < valid_to``; an open start (``None``)
always was, an open end still is. For a period ``[start, end)`` (an income year) a text counts
when its interval overlaps the period by at least one day.
"""

from __future__ import annotations

from datetime import date


def in_force_on(valid_from: date | None, valid_to: date | None, day: date) -> bool:
    return (valid_from is None or valid_from <= day) and (valid_to is None or day < valid_to)


def in_force_during(valid_from: date | None, valid_to: date | None, start: date, end: date) -> bool:
    """Whether ``[valid_from, valid_to)`` shares a day with ``[start, end)``."""
    return (valid_from is None or valid_from < end) and (valid_to is None or valid_to > start)
