"""Australian income years: income year N runs from 1 July N-1 to 30 June N (inclusive)."""

from __future__ import annotations

from datetime import date, timedelta

MIN_INCOME_YEAR = 1900
MAX_INCOME_YEAR = 2100


def income_year_of(day: date) -> int:
    """The income year that contains ``day``."""
    return day.year + 1 if day.month >= 7 else day.year


def income_year_start(year: int) -> date:
    """First day of income year ``year`` (1 July of the previous calendar year)."""
    return date(year - 1, 7, 1)


def income_year_end(year: int) -> date:
    """Exclusive end of income year ``year`` (1 July of calendar year ``year``)."""
    return date(year, 7, 1)


def income_years_overlapping(valid_from: date, valid_to: date | None, horizon: int) -> tuple[int, ...]:
    """Every income year in which ``[valid_from, valid_to)`` holds at least one day.

    ``valid_to`` is exclusive; ``None`` means open, in which case years run up to ``horizon``
    inclusive. An empty interval overlaps no year.
    """
    if valid_to is not None and valid_to <= valid_from:
        return ()
    first = income_year_of(valid_from)
    last = horizon if valid_to is None else income_year_of(valid_to - timedelta(days=1))
    return tuple(range(first, last + 1))
