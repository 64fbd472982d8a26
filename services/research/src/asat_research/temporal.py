"""Resolving the income year a question is about (pure: ``today`` is injected).

Precedence: an explicit ``income_year`` or ``as_of`` parameter wins (both given must agree);
then a year stated in the question; then the income year containing ``today``.

Understood in a question: ``FY2020``, ``FY 2020``, ``FY20``, ``2019-20``, ``2019/20``,
``2019–20``, ``2019-2020``, ``income year 2020``, ``2020 income year``, ``year ended 30 June
2020``, ``as at 1 July 2016`` / ``as of 2016-07-01`` / ``on 1 July 2016``. A question naming
two different income years is ambiguous and refused with a message saying how to ask.

The period is never silently chosen: :func:`period_conflict` finds a question that names one
income year asked with an ``income_year`` or ``as_of`` parameter naming another. The pipeline
refuses such a question at resolve (decision ``period_conflict``), naming both periods, and
:func:`preview` says what period a question would be answered for, without answering it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum

from asat_corpus.income_year import (
    MAX_INCOME_YEAR,
    MIN_INCOME_YEAR,
    income_year_end,
    income_year_of,
    income_year_start,
)
from asat_corpus.text.months import MONTH_PATTERN, parse_day_month_year


class TemporalError(ValueError):
    """The request's date or income year is invalid or ambiguous; the message says how to fix it."""


class ScopeSource(StrEnum):
    PARAMETER = "parameter"
    QUESTION = "question"
    DEFAULT = "default (current income year)"


@dataclass(frozen=True)
class TemporalScope:
    income_year: int
    as_of: date | None  # a specific day, when one was given
    source: ScopeSource
    matched: str  # the words or parameter it came from
    # Known time: the law as the latest held compilation on or before this day showed it.
    as_known_on: date | None = None

    @property
    def reference_day(self) -> date:
        """The day to resolve a single provision on: the given day, else the year's last day."""
        return self.as_of or date.fromordinal(income_year_end(self.income_year).toordinal() - 1)


_DAY_FIRST = rf"\d{{1,2}}\s+(?:{MONTH_PATTERN})\s+\d{{4}}"
_ISO = r"\d{4}-\d{2}-\d{2}"

_AS_AT = re.compile(rf"\b(?:as\s+at|as\s+of|on)\s+({_DAY_FIRST}|{_ISO})\b", re.IGNORECASE)
_YEAR_ENDED = re.compile(rf"\byear\s+end(?:ed|ing)\s+(30\s+June\s+\d{{4}}|{_ISO})\b", re.IGNORECASE)
_FY = re.compile(r"\bFY\s?(\d{4}|\d{2})\b", re.IGNORECASE)
_SPAN = re.compile(r"\b((?:19|20)\d{2})\s*[-/\u2013\u2014]\s*(\d{4}|\d{2})\b")
_INCOME_YEAR_AFTER = re.compile(r"\bincome\s+year\s+(\d{4})\b", re.IGNORECASE)
_INCOME_YEAR_BEFORE = re.compile(r"\b(\d{4})\s+income\s+year\b", re.IGNORECASE)


def _parse_day(text: str) -> date:
    text = " ".join(text.split())
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        pass
    day = parse_day_month_year(text)
    if day is not None:
        return day
    raise TemporalError(f"{text!r} is not a date I can read: write it as 1 July 2016 or 2016-07-01")


def _check_year(year: int, what: str) -> int:
    if not MIN_INCOME_YEAR <= year <= MAX_INCOME_YEAR:
        raise TemporalError(f"{what} {year} is outside {MIN_INCOME_YEAR}-{MAX_INCOME_YEAR}")
    return year


def _span_year(first: str, second: str) -> int | None:
    start = int(first)
    end = int(second) if len(second) == 4 else (start // 100) * 100 + int(second)
    if len(second) == 2 and end < start:
        end += 100
    return end if end == start + 1 else None


def _mentions(question: str) -> list[tuple[int, date | None, str]]:
    found: list[tuple[int, date | None, str]] = []
    consumed: list[tuple[int, int]] = []

    def add(match: re.Match[str], year: int, day: date | None) -> None:
        if any(s < match.end() and match.start() < e for s, e in consumed):
            return
        consumed.append((match.start(), match.end()))
        found.append((year, day, match.group(0)))

    for match in _AS_AT.finditer(question):
        day = _parse_day(match.group(1))
        add(match, income_year_of(day), day)
    for match in _YEAR_ENDED.finditer(question):
        day = _parse_day(match.group(1))
        add(match, income_year_of(day), None)
    for match in _FY.finditer(question):
        raw = match.group(1)
        add(match, int(raw) if len(raw) == 4 else 2000 + int(raw), None)
    for match in _INCOME_YEAR_AFTER.finditer(question):
        add(match, int(match.group(1)), None)
    for match in _INCOME_YEAR_BEFORE.finditer(question):
        add(match, int(match.group(1)), None)
    for match in _SPAN.finditer(question):
        year = _span_year(match.group(1), match.group(2))
        if year is not None:
            add(match, year, None)
    return found


def resolve_income_year(
    question: str,
    today: date,
    income_year: int | None = None,
    as_of: date | None = None,
    as_known_on: date | None = None,
) -> TemporalScope:
    """The income year (and day, if any) a question is about. Raises :class:`TemporalError`.

    ``as_known_on`` asks for the text on the books that day (the known-time axis): it stands alone,
    as the parameter that picks the day, and the income year is the one containing it.
    """
    if as_known_on is not None:
        if income_year is not None or as_of is not None:
            raise TemporalError(
                "as_known_on picks the day whose text on the books is wanted; give it alone, without "
                "income_year or as_of (those ask for the law as it now stands)"
            )
        _check_year(income_year_of(as_known_on), "as_known_on falls in income year")
        return TemporalScope(
            income_year_of(as_known_on),
            None,
            ScopeSource.PARAMETER,
            f"as_known_on={as_known_on.isoformat()}",
            as_known_on,
        )
    if income_year is not None:
        _check_year(income_year, "income_year")
    if as_of is not None:
        _check_year(income_year_of(as_of), "as_of falls in income year")
        if income_year is not None and income_year_of(as_of) != income_year:
            raise TemporalError(
                f"as_of {as_of} is in income year {income_year_of(as_of)}, not income_year {income_year}: "
                "give one of them, or make them agree"
            )
        return TemporalScope(income_year_of(as_of), as_of, ScopeSource.PARAMETER, f"as_of={as_of.isoformat()}")
    if income_year is not None:
        return TemporalScope(income_year, None, ScopeSource.PARAMETER, f"income_year={income_year}")
    mentions = _mentions(question)
    years = sorted({year for year, _, _ in mentions})
    if len(years) > 1:
        raise TemporalError(
            f"the question names more than one income year ({_named_years(mentions)}); ask about one year at a "
            "time, or set income_year"
        )
    if years:
        year, day, text = mentions[0]
        _check_year(year, "income year")
        days = {d for _, d, _ in mentions if d is not None}
        return TemporalScope(year, day if len(days) == 1 else None, ScopeSource.QUESTION, text)
    return TemporalScope(income_year_of(today), None, ScopeSource.DEFAULT, f"today {today.isoformat()}")


def _named_years(mentions: list[tuple[int, date | None, str]]) -> str:
    """``income year 2015 ('FY2015'), income year 2020 ('2019-20')``: each year named, with its words."""
    by_year: dict[int, list[str]] = {}
    for year, _, text in mentions:
        by_year.setdefault(year, []).append(repr(text))
    return ", ".join(f"income year {year} ({', '.join(words)})" for year, words in sorted(by_year.items()))


def last_day(year: int) -> date:
    """The last day of income year ``year`` (30 June ``year``)."""
    return income_year_end(year) - timedelta(days=1)


def span_words(year: int) -> str:
    """``1 July 2023 to 30 June 2024`` for income year 2024."""
    return f"1 July {year - 1} to 30 June {year}"


@dataclass(frozen=True)
class QuestionPeriod:
    """The income year a question names, and the words it names it with."""

    income_year: int
    matched: str  # e.g. "FY2024"
    start: date  # 1 July of the year before
    end: date  # 30 June of the year (the last day, inclusive)


@dataclass(frozen=True)
class ParameterPeriod:
    """The income year an ``income_year`` or ``as_of`` parameter names."""

    income_year: int
    name: str  # e.g. "income_year=2027" or "as_of=2026-08-01"
    start: date
    end: date  # the last day, inclusive


@dataclass(frozen=True)
class PeriodConflict:
    """The question names one income year and the parameter another: neither is chosen silently."""

    question: QuestionPeriod
    parameter: ParameterPeriod
    reason: str


def _question_period(year: int, matched: str) -> QuestionPeriod:
    return QuestionPeriod(year, matched, income_year_start(year), last_day(year))


def period_conflict(question: str, income_year: int | None, as_of: date | None) -> PeriodConflict | None:
    """The conflict between the period the question names and the ``income_year`` or ``as_of``
    parameter, or None: no parameter, no period in the question, or the same income year.

    A question naming several income years conflicts only when the parameter is none of them
    (the parameter picks among them otherwise); the first named is the question's period. The
    known-time parameter (``as_known_on``) is not compared: it picks the day whose text on the
    books is wanted, which need not fall in the year the question is about.
    """
    if as_of is not None:
        year, name = income_year_of(as_of), f"as_of={as_of.isoformat()}"
    elif income_year is not None:
        year, name = income_year, f"income_year={income_year}"
    else:
        return None
    mentions = _mentions(question)
    if not mentions or any(named == year for named, _, _ in mentions):
        return None
    first_year, _, first_words = mentions[0]
    asked = _question_period(first_year, first_words)
    given = ParameterPeriod(year, name, income_year_start(year), last_day(year))
    others = sorted({named for named, _, _ in mentions} - {first_year})
    named = (
        f"income year {first_year} ({first_words!r}: {span_words(first_year)})"
        if not others
        else _named_years(mentions)
    )
    reason = (
        f"the question names {named} but {name} was given (income year {year}: {span_words(year)}): ask again "
        f"with one of them (set income_year={first_year}, or reword the question for income year {year})"
    )
    return PeriodConflict(asked, given, reason)


@dataclass(frozen=True)
class PeriodPreview:
    """The period a question would be answered for, read without answering it."""

    scope: TemporalScope
    start: date
    end: date  # the last day, inclusive
    conflict: PeriodConflict | None


def preview(question: str, today: date, income_year: int | None = None, as_of: date | None = None) -> PeriodPreview:
    """What :func:`resolve_income_year` reads, and the conflict the pipeline would refuse; raises
    :class:`TemporalError` as it does."""
    scope = resolve_income_year(question, today, income_year, as_of)
    conflict = period_conflict(question, income_year, as_of)
    return PeriodPreview(scope, income_year_start(scope.income_year), last_day(scope.income_year), conflict)


def named_periods(question: str) -> tuple[str, ...]:
    """The question's words for each period it names (``FY2024``, ``2019-20``, ``as at 1 July
    2016``, ...), as :func:`resolve_income_year` reads them: what to replace to ask it for another
    period (``asat_corpus.period_words.reword_period``). Raises :class:`TemporalError` for a day it
    cannot read."""
    return tuple(dict.fromkeys(text for _, _, text in _mentions(question)))
