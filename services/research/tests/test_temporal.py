from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.temporal import ScopeSource, TemporalError, period_conflict, preview, resolve_income_year

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


def test_two_years_in_one_question_are_refused_naming_both_years() -> None:
    with pytest.raises(TemporalError) as raised:
        resolve_income_year("compare FY2015 and 2019-20", TODAY)
    assert "income year 2015 ('FY2015'), income year 2020 ('2019-20')" in str(raised.value)


@pytest.mark.parametrize(
    ("question", "income_year", "as_of"),
    [
        ("in FY2024?", None, None),  # no parameter
        ("can I claim the roof repair?", 2027, None),  # no period in the question
        ("in FY2024?", 2024, None),  # the same year
        ("in the 2023-24 income year?", 2024, None),
        ("as at 1 July 2016, what was the rule?", None, date(2017, 3, 1)),  # the same income year, another day
        ("compare FY2015 and FY2020", 2020, None),  # the parameter picks one of the question's years
    ],
)
def test_no_conflict(question: str, income_year: int | None, as_of: date | None) -> None:
    assert period_conflict(question, income_year, as_of) is None


def test_a_conflict_names_both_periods_in_words_and_as_data() -> None:
    conflict = period_conflict("Home office running expenses at a fixed rate per hour in FY2024?", 2027, None)
    assert conflict is not None
    assert conflict.reason == (
        "the question names income year 2024 ('FY2024': 1 July 2023 to 30 June 2024) but income_year=2027 was given "
        "(income year 2027: 1 July 2026 to 30 June 2027): ask again with one of them (set income_year=2024, or "
        "reword the question for income year 2027)"
    )
    asked, given = conflict.question, conflict.parameter
    assert (asked.income_year, asked.matched, asked.start, asked.end) == (
        2024,
        "FY2024",
        date(2023, 7, 1),
        date(2024, 6, 30),
    )
    assert (given.income_year, given.name, given.start, given.end) == (
        2027,
        "income_year=2027",
        date(2026, 7, 1),
        date(2027, 6, 30),
    )


def test_an_as_of_day_and_several_years_in_the_question() -> None:
    by_day = period_conflict("what was it in 2019-20?", None, date(2026, 8, 1))
    assert by_day is not None and by_day.parameter.name == "as_of=2026-08-01" and by_day.parameter.income_year == 2027
    several = period_conflict("compare FY2015 and FY2020", 2027, None)
    assert several is not None and several.question.income_year == 2015
    assert "income year 2015 ('FY2015'), income year 2020 ('FY2020') but income_year=2027" in several.reason


def test_preview_reads_what_resolve_reads_and_the_conflict() -> None:
    read = preview("in FY2024?", TODAY)
    assert (read.scope.income_year, read.scope.source, read.start, read.end, read.conflict) == (
        2024,
        ScopeSource.QUESTION,
        date(2023, 7, 1),
        date(2024, 6, 30),
        None,
    )
    assert preview("no year here", TODAY).scope.source is ScopeSource.DEFAULT
    clash = preview("in FY2024?", TODAY, income_year=2027)
    assert clash.scope.income_year == 2027 and clash.conflict is not None
    with pytest.raises(TemporalError, match="more than one income year"):
        preview("FY2015 or FY2020?", TODAY)


@given(st.integers(1901, 2100), st.integers(1901, 2100))
def test_fy_and_income_year_conflict_exactly_when_they_differ(named: int, given_year: int) -> None:
    conflict = period_conflict(f"What applied in FY{named}?", given_year, None)
    assert (conflict is None) == (named == given_year)
    if conflict is not None:
        assert f"income year {named}" in conflict.reason and f"income_year={given_year}" in conflict.reason
