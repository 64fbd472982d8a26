"""Quantities stated in text (money, percentages, durations, member counts, ages, dates), normalised (pure).

The figures are the ones :func:`asat_corpus.text.figures.read_figures` reads (``$2.5b`` is
2,500,000,000 dollars; ``10 million dollars`` is money); durations are compared in months
(a year is twelve), days or weeks. Two readings are added on top of the shared parser:

- an **age**, in years: a number or a number of years after ``age``, ``aged``, ``age of`` or
  ``turns``/``turned`` (``aged 60``, ``preservation age of 60``), or before ``of age`` / ``old``
  (``65 years of age``, ``60 years old``); its text takes in those words (``aged 60``);
- a **date** written day first with a month name (``1 July 2017``), its value the day's ordinal
  (:meth:`datetime.date.toordinal`), so equal days compare equal however they were written.

Bare numbers (``2,000``, the ``2014`` of ``2014-15``) are not quantities: nothing says what they
count; nor is the end of a range of years before ``year`` (the ``98 year`` of "the 1997-98 year of
income"). Used by the premise check (:mod:`asat_research.premise`) and the extractive generator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from asat_corpus.text.figures import Figure, FigureKind, read_figures
from asat_corpus.text.months import DAY_MONTH_YEAR, day_month_year


@dataclass(frozen=True)
class Quantity:
    kind: str  # "money" | "percent" | "months" | "days" | "weeks" | "members" | "age" | "date"
    value: Decimal
    text: str  # as written
    start: int  # offsets into the text read
    end: int


# Each figure kind and unit as the premise check compares it: a year is twelve months.
_KINDS: dict[tuple[FigureKind, str], tuple[str, int]] = {
    (FigureKind.MONEY, "dollar"): ("money", 1),
    (FigureKind.PERCENT, "percent"): ("percent", 1),
    (FigureKind.DURATION, "day"): ("days", 1),
    (FigureKind.DURATION, "week"): ("weeks", 1),
    (FigureKind.DURATION, "month"): ("months", 1),
    (FigureKind.DURATION, "year"): ("months", 12),
    (FigureKind.COUNT, "member"): ("members", 1),
}
# "the 1997-98 year of income": the "98 year" closes a range of years, it is no duration.
_YEAR_RANGE_BEFORE = re.compile(r"\b(?:19|20)\d{2}\s?[-\u2013/]\s?$")
_AGE_BEFORE = re.compile(r"\b(?:age(?:d|\s+of)?|turn(?:s|ed|ing)?)\s*$", re.IGNORECASE)
_AGE_AFTER = re.compile(r"\s*(?:of\s+age|old)\b", re.IGNORECASE)


def _age(figure: Figure, text: str) -> Quantity | None:
    """The figure read as an age, its words with it (``aged 60``, ``60 years of age``), or None."""
    if figure.kind not in (FigureKind.NUMBER, FigureKind.DURATION) or figure.unit not in ("", "year"):
        return None
    start, end = figure.start, figure.end
    before = _AGE_BEFORE.search(text, 0, figure.start)
    after = _AGE_AFTER.match(text, figure.end) if figure.kind is FigureKind.DURATION else None
    if before is not None:
        start = before.start()
    elif after is not None:
        end = after.end()
    else:
        return None
    return Quantity("age", figure.amount, text[start:end], start, end)


def _dates(text: str) -> list[Quantity]:
    found = []
    for match in DAY_MONTH_YEAR.finditer(text):
        day = day_month_year(match)
        if day is not None:
            found.append(Quantity("date", Decimal(day.toordinal()), match.group(0), match.start(), match.end()))
    return found


def quantities(text: str) -> list[Quantity]:
    """The money, percentages, durations, member counts, ages and dates ``text`` states, in order."""
    dates = _dates(text)
    found = list(dates)
    for figure in read_figures(text):
        if any(d.start < figure.end and figure.start < d.end for d in dates):
            continue  # the day or year of a date
        age = _age(figure, text)
        if age is not None:
            found.append(age)
            continue
        if figure.kind is FigureKind.DURATION and _YEAR_RANGE_BEFORE.search(text, 0, figure.start):
            continue  # the end of a range of years ("the 1997-98 year of income"), not a duration
        reading = _KINDS.get((figure.kind, figure.unit))
        if reading is not None:
            kind, factor = reading
            found.append(Quantity(kind, figure.amount * factor, figure.written, figure.start, figure.end))
    return sorted(found, key=lambda q: q.start)
