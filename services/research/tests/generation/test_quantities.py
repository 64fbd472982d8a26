from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from asat_research.generation.quantities import quantities


def test_reads_money_percent_durations_and_members() -> None:
    found = {
        (q.kind, q.value)
        for q in quantities("$10 million, $2,000,000, 15%, 10 per cent, 12 months, 2 years, 5 members, six months")
    }
    assert found == {
        ("money", 10_000_000),
        ("money", 2_000_000),
        ("percent", 15),
        ("percent", 10),
        ("months", 12),
        ("months", 24),
        ("members", 5),
        ("months", 6),
    }


def test_a_bare_number_or_an_income_year_is_no_quantity() -> None:
    assert quantities("the 2014-15 income year, item 2 of the table") == []


def test_the_end_of_a_range_of_years_is_no_duration() -> None:
    # ITAA 1936 s 262A, C2015C00300: "that occurs in the 1997-98 year of income or a later year of income"
    assert quantities("that occurs in the 1997-98 year of income or a later year of income.") == []
    assert quantities("in the 2019\u201320 year of income") == []
    # a range of durations is still two durations
    assert [(q.kind, q.value) for q in quantities("for 10-15 years")] == [("months", 180)]


def test_ages_in_years() -> None:
    texts = ["aged 60", "preservation age of 60", "she turns 60", "60 years of age", "60 years old"]
    for text in texts:
        assert [(q.kind, q.value) for q in quantities(text)] == [("age", 60)], text
    assert [q.kind for q in quantities("held for 60 years")] == ["months"]


def test_dates_compare_by_day_however_written() -> None:
    (long,) = quantities("from 1 July 2017")
    (short,) = quantities("from 1 Jul. 2017")
    assert long.kind == short.kind == "date"
    assert long.value == short.value == date(2017, 7, 1).toordinal()
    assert long.text == "1 July 2017"
    assert quantities("on 31 June 2017") == []  # no such day; and its numbers are no quantities either


def test_each_quantity_says_where_it_was_written() -> None:
    text = "less than $2 million for 12 months"
    assert [text[q.start : q.end] for q in quantities(text)] == ["$2 million", "12 months"]
    assert [q.text for q in quantities(text)] == ["$2 million", "12 months"]


@given(st.integers(1, 10**9))
def test_money_round_trips(amount: int) -> None:
    (quantity,) = quantities(f"${amount:,}")
    assert quantity.value == amount


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)))
def test_dates_round_trip(day: date) -> None:
    (quantity,) = quantities(f"on {day.day} {day:%B} {day.year}")
    assert quantity.kind == "date" and quantity.value == Decimal(day.toordinal())
