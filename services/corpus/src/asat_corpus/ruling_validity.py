"""When a ruling is reachable (pure).

Rulings are held as their current consolidated text only. A ruling is reachable from its issue
date; where the issue date is not known, from the last day of the year in its citation (the
latest it can have issued, so the interval only shrinks). A withdrawn ruling is not reachable
from its withdrawal date; withdrawn with no date known, it is reachable only up to the horizon
of its citation year, and the payload carries its status so the answer can say so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from asat_corpus.income_year import MIN_INCOME_YEAR, income_years_overlapping
from asat_corpus.ruling import Ruling


@dataclass(frozen=True)
class RulingValidity:
    valid_from: date
    valid_to: date | None
    from_basis: str
    income_years: tuple[int, ...]


def ruling_validity(ruling: Ruling, horizon: int) -> RulingValidity:
    if ruling.issue_date is not None:
        start, basis = ruling.issue_date, "issue date"
    elif ruling.year < MIN_INCOME_YEAR:
        # Neither an issue date nor a year in the citation: it cannot be placed, so it is not served.
        never = date(MIN_INCOME_YEAR, 1, 1)
        return RulingValidity(never, never, "issue date and year not known: not reachable", ())
    else:
        start, basis = date(ruling.year, 12, 31), f"issue date not held: last day of {ruling.year}"
    end = ruling.withdrawn_date
    if ruling.status == "withdrawn" and end is None:
        # Withdrawn on an unknown day: reachable only on the day we can place it (its issue).
        end = date.fromordinal(start.toordinal() + 1)
    if end is not None and end < start:
        end = start
    return RulingValidity(start, end, basis, income_years_overlapping(start, end, horizon))
