from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.temporal import ScopeSource, TemporalError, resolve_income_year

TODAY = date(2026, 12, 2)


@pytest.mark.parametrize(
    ("question", "year"),
    [
        ("Was this deductible in FY2020?", 2020),
        ("was it deductible in fy 2020", 2020),
        ("Small business threshold FY15", 2015),
        ("What was the turnover threshold in 2019-20?", 2020),
        ("turnover threshold 2019/20", 2020),
        ("turnover threshold 2019\u201320", 2020),
        ("turnover threshold for 2019-2020", 2020),
        ("in the 2014-15 income year", 2015),
        ("for income year 2016, could they claim", 2016),
        ("the 2016 income year", 2016),
        ("for the year ended 30 June 2018", 2018),
        ("as at 1 July 2016, what was the rule", 2017),
        ("as of 2016-06-30 what was the rule", 2016),
    ],
)
def test_years_stated_in_the_question(question: str, year: int) -> None:
    scope = resolve_income_year(question, TODAY)
    assert scope.income_year == year
    assert scope.source is ScopeSource.QUESTION


def test_as_at_keeps_the_day() -> None:
    scope = resolve_income_year("as at 1 July 2016, what was s 8-1?", TODAY)
    assert scope.as_of == date(2016, 7, 1)
    assert scope.reference_day == date(2016, 7, 1)


def test_explicit_parameters_win_over_the_question() -> None:
    assert resolve_income_year("in FY2015?", TODAY, income_year=2020).income_year == 2020
    scope = resolve_income_year("in FY2015?", TODAY, as_of=date(2019, 8, 1))
    assert (scope.income_year, scope.as_of, scope.source) == (2020, date(2019, 8, 1), ScopeSource.PARAMETER)


def test_default_is_the_income_year_containing_today() -> None:
    scope = resolve_income_year("can my client claim the roof repair?", TODAY)
    assert (scope.income_year, scope.source) == (2027, ScopeSource.DEFAULT)
    assert scope.reference_day == date(2027, 6, 30)


def test_section_numbers_and_money_are_not_years() -> None:
    assert resolve_income_year("s 328-110 and $2,000,000 and 2016-07 data", TODAY).source is ScopeSource.DEFAULT


def test_refusals_say_how_to_fix() -> None:
    with pytest.raises(TemporalError, match="more than one income year"):
        resolve_income_year("compare FY2015 and FY2020", TODAY)
    with pytest.raises(TemporalError, match="outside 1900-2100"):
        resolve_income_year("q", TODAY, income_year=1800)
    with pytest.raises(TemporalError, match="make them agree"):
        resolve_income_year("q", TODAY, income_year=2015, as_of=date(2020, 1, 1))
    with pytest.raises(TemporalError, match="outside"):
        resolve_income_year("q", TODAY, as_of=date(2150, 1, 1))


@given(st.integers(1901, 2100))
def test_every_fy_form_round_trips(year: int) -> None:
    for form in (f"FY{year}", f"{year - 1}-{str(year)[2:]}", f"{year - 1}/{year}", f"income year {year}"):
        assert resolve_income_year(f"what applied in {form}?", TODAY).income_year == year


@given(st.text(max_size=200))
def test_never_crashes_on_arbitrary_text(question: str) -> None:
    try:
        scope = resolve_income_year(question, TODAY)
    except TemporalError:
        return
    assert 1900 <= scope.income_year <= 2100
