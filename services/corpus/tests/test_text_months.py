"""Month names and day-month-year dates: one table, every spelling of a day reads as that day."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.text.months import (
    DAY_MONTH_YEAR,
    FULL_MONTH_NUMBERS,
    FULL_MONTH_PATTERN,
    MONTH_NAMES,
    MONTH_NUMBERS,
    MONTH_PATTERN,
    month_number,
    parse_day_month_year,
)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("1 July 2023", date(2023, 7, 1)),
        ("1 Jul 2023", date(2023, 7, 1)),
        ("1st July, 2023", date(2023, 7, 1)),
        ("1 Sept. 1997", date(1997, 9, 1)),
        ("19 MAY 2017", date(2017, 5, 19)),
        ("commencing on 30 June 2016 (s 2)", date(2016, 6, 30)),
    ],
)
def test_reads_day_month_year(text: str, day: date) -> None:
    assert parse_day_month_year(text) == day


def test_a_day_that_does_not_exist_or_no_date_is_none() -> None:
    assert parse_day_month_year("31 June 2023") is None
    assert parse_day_month_year("July 2023") is None
    assert parse_day_month_year("in 2023") is None


def test_the_table() -> None:
    assert len(MONTH_NAMES) == 12 and len(FULL_MONTH_NUMBERS) == 12
    assert set(FULL_MONTH_NUMBERS.values()) == set(range(1, 13))
    assert month_number("Sept.") == month_number("sep") == month_number("SEPTEMBER") == 9
    assert month_number("Jule") is None
    assert set(MONTH_NUMBERS) >= set(FULL_MONTH_NUMBERS)


def test_the_patterns_match_whole_names_only_in_title_case_unless_told() -> None:
    assert re.fullmatch(FULL_MONTH_PATTERN, "May") and not re.fullmatch(FULL_MONTH_PATTERN, "may")
    assert re.fullmatch(FULL_MONTH_PATTERN, "may", re.IGNORECASE)
    assert not re.fullmatch(FULL_MONTH_PATTERN, "Jan")
    assert all(re.fullmatch(MONTH_PATTERN, name, re.IGNORECASE) for name in MONTH_NUMBERS)
    assert re.compile(MONTH_PATTERN).groups == 0


@given(st.dates(min_value=date(1000, 1, 1)), st.sampled_from(["full", "abbreviated", "upper", "ordinal"]))
def test_any_day_written_with_any_name_of_its_month_reads_back(day: date, style: str) -> None:
    name = MONTH_NAMES[day.month - 1]
    names = [n for n, number in MONTH_NUMBERS.items() if number == day.month]
    if style == "abbreviated":
        name = min(names, key=len).title()
    elif style == "upper":
        name = name.upper()
    suffix = "th" if style == "ordinal" else ""
    text = f"on {day.day}{suffix} {name} {day.year:04d}."
    assert parse_day_month_year(text) == day
    match = DAY_MONTH_YEAR.search(text)
    assert match is not None and month_number(match["month"]) == day.month
