from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.income_year import income_year_end, income_year_of, income_year_start, income_years_overlapping


def test_income_year_boundaries() -> None:
    assert income_year_of(date(2015, 6, 30)) == 2015
    assert income_year_of(date(2015, 7, 1)) == 2016
    assert income_year_start(2020) == date(2019, 7, 1)
    assert income_year_end(2020) == date(2020, 7, 1)


def test_mid_year_change_reaches_the_year_from_both_sides() -> None:
    change = date(2016, 1, 1)
    assert income_years_overlapping(date(2012, 1, 1), change, 2027)[-1] == 2016
    assert income_years_overlapping(change, None, 2027)[0] == 2016


def test_exclusive_end_on_the_first_of_july_does_not_reach_the_next_year() -> None:
    assert income_years_overlapping(date(2012, 1, 1), date(2016, 7, 1), 2027)[-1] == 2016
    assert income_years_overlapping(date(2016, 7, 1), date(2016, 7, 1), 2027) == ()


@given(st.dates(date(1950, 1, 1), date(2090, 1, 1)), st.integers(0, 3000))
def test_every_day_in_the_interval_is_in_a_listed_year(start: date, length: int) -> None:
    end = start + timedelta(days=length + 1)
    years = income_years_overlapping(start, end, 2100)
    assert income_year_of(start) in years and income_year_of(end - timedelta(days=1)) in years
    assert years == tuple(range(years[0], years[-1] + 1))
