"""The answer across years, planned (pure): which income years to ask again, the bound, the gaps,
and each year's question reworded. The timelines are ``timeline_json`` items written by hand; the
first mirrors the corpus's ITAA 1997 s 328-110 (two texts, two stretches not held)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.income_year import income_year_end, income_year_of, income_year_start
from asat_research.across_years import (
    MAX_YEARS,
    ProvisionHistory,
    Stretch,
    plan_years,
    question_for_year,
    stretches,
    years_touched,
)

V2015 = "itaa1997:328-110@C2015C00285"
V2026 = "itaa1997:328-110@C2026C00122"


def version(version_id: str, start: str, end: str | None) -> dict[str, Any]:
    return {"type": "version", "id": version_id, "valid_from": start, "valid_to": end, "register_ids": []}


def gap(start: str, end: str, held: str = "not_held", reason: str = "not held") -> dict[str, Any]:
    return {"type": "gap", "valid_from": start, "valid_to": end, "held": held, "reason": reason, "acts": []}


# ITAA 1997 s 328-110 as the corpus dates it.
SBE_ITEMS = [
    gap("2007-06-21", "2012-04-15", reason="amended before the earliest compilation held"),
    version(V2015, "2012-04-15", "2016-07-01"),
    gap("2016-07-01", "2024-01-01", reason="amended more than once between held compilations"),
    {"type": "retrospective", "act": "Act No. 41, 2017", "valid_from": "2016-07-01", "valid_to": "2017-05-19"},
    version(V2026, "2024-01-01", None),
]


def sbe(cited: tuple[str, ...] = (V2026,)) -> ProvisionHistory:
    return ProvisionHistory("itaa1997", "328-110", "ITAA 1997 s 328-110", cited, stretches(SBE_ITEMS))


def test_the_timeline_items_read_as_versions_and_gaps_by_start() -> None:
    read = stretches(reversed(SBE_ITEMS))
    assert [(s.start.isoformat(), s.version_id, s.held) for s in read] == [
        ("2007-06-21", None, "not_held"),
        ("2012-04-15", V2015, None),
        ("2016-07-01", None, "not_held"),
        ("2024-01-01", V2026, None),
    ]
    assert read[-1].end is None and read[0].reason == "amended before the earliest compilation held"
    (one,) = stretches([gap("2016-07-01", "2017-07-01", held="one_of_two")])
    assert one.held == "one_of_two" and one.is_gap


def test_each_year_a_cited_provisions_text_starts_is_asked_with_the_original_year() -> None:
    plan = plan_years([sbe()], 2026, horizon=2027)
    assert [(y.income_year, y.original) for y in plan.years] == [(2012, False), (2024, False), (2026, True)]
    assert plan.years[0].why == (
        "ITAA 1997 s 328-110: C2015C00285 in force from 2012-04-15, after a stretch whose text is not held",
    )
    assert plan.years[1].why == (
        "ITAA 1997 s 328-110: C2026C00122 in force from 2024-01-01, after a stretch whose text is not held",
    )
    assert plan.years[2].why == ("the year asked about",)
    assert plan.left_out == () and plan.reason is None


def test_the_gaps_between_the_years_are_given_with_the_income_years_they_touch() -> None:
    plan = plan_years([sbe()], 2026, horizon=2027)
    assert [(g.start, g.end, g.held, g.income_years) for g in plan.gaps] == [
        (date(2007, 6, 21), date(2012, 4, 15), "not_held", tuple(range(2007, 2013))),
        (date(2016, 7, 1), date(2024, 1, 1), "not_held", tuple(range(2017, 2025))),
    ]
    assert plan.gaps[1].label == "ITAA 1997 s 328-110" and "between held compilations" in plan.gaps[1].reason
    # Only the gaps overlapping the years asked: from 2024 on, the earlier stretches are not shown.
    later = plan_years([sbe()], 2026, max_years=2, horizon=2027)
    assert [y.income_year for y in later.years] == [2024, 2026] and later.left_out == (2012,)
    assert [g.start for g in later.gaps] == [date(2016, 7, 1)]


def test_the_original_year_is_asked_once_when_a_text_also_starts_in_it() -> None:
    plan = plan_years([sbe()], 2024, horizon=2027)
    assert [(y.income_year, y.original) for y in plan.years] == [(2012, False), (2024, True)]
    assert plan.years[1].why[0] == "the year asked about" and "2024-01-01" in plan.years[1].why[1]


def _many_versions(count: int) -> ProvisionHistory:
    """A provision amended every year from 2000: ``count`` versions, one a year."""
    items = [
        version(f"a:1@C{2000 + i}", f"{1999 + i}-07-01", f"{2000 + i}-07-01" if i < count - 1 else None)
        for i in range(count)
    ]
    return ProvisionHistory("a", "1", "A s 1", (items[-1]["id"],), stretches(items))


def test_the_bound_keeps_the_newest_change_years_and_always_the_original() -> None:
    history = _many_versions(20)  # change years 2000 to 2019
    plan = plan_years([history], 2019)
    assert len(plan.years) == MAX_YEARS == 12
    assert [y.income_year for y in plan.years] == list(range(2008, 2020))
    assert plan.left_out == tuple(range(2000, 2008))
    assert plan.years[0].why == ("A s 1: C2008 in force from 2007-07-01, replacing the text before",)
    first = plan_years([_many_versions(2)], 2001)
    assert first.years[0].why == ("A s 1: C2000 in force from 1999-07-01, its first text held",)
    old = plan_years([history], 2003)  # the original among the oldest: kept, with the 11 newest
    assert [y.income_year for y in old.years] == [2003, *range(2009, 2020)]
    assert old.left_out == (*range(2000, 2003), *range(2004, 2009))


def test_years_after_the_corpus_horizon_are_left_out() -> None:
    plan = plan_years([_many_versions(5)], 2002, horizon=2003)  # change years 2000 to 2004
    assert [y.income_year for y in plan.years] == [2000, 2001, 2002, 2003]
    assert plan.left_out == (2004,)


def test_an_answer_citing_no_provision_asks_only_its_own_year_and_says_why() -> None:
    plan = plan_years([], 2026)
    assert [(y.income_year, y.original) for y in plan.years] == [(2026, True)]
    assert plan.gaps == () and plan.reason is not None
    assert plan.reason.startswith("the answer for income year 2026 cited no provision")


def test_a_bound_under_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        plan_years([sbe()], 2026, max_years=0)


def test_years_touched_counts_every_income_year_holding_a_day() -> None:
    assert years_touched(date(2016, 7, 1), date(2024, 1, 1)) == tuple(range(2017, 2025))
    assert years_touched(date(2016, 7, 1), date(2017, 7, 1)) == (2017,)
    assert years_touched(date(2016, 7, 1), date(2016, 7, 1)) == ()


@pytest.mark.parametrize(
    ("question", "year", "sent"),
    [
        ("What was the turnover threshold in FY2015?", 2017, "What was the turnover threshold in income year 2017?"),
        ("What was the threshold for 2014-15?", 2024, "What was the threshold for income year 2024?"),
        ("What was the threshold as at 1 July 2016?", 2013, "What was the threshold income year 2013?"),
        ("FY15: what was the threshold (FY15)?", 2020, "income year 2020: what was the threshold (income year 2020)?"),
        ("What is the threshold?", 2024, "What is the threshold?"),
    ],
)
def test_each_years_question_names_that_year_in_place_of_its_own_words(question: str, year: int, sent: str) -> None:
    assert question_for_year(question, year) == sent


# -- the property -----------------------------------------------------------------------------


@st.composite
def timelines(draw: st.DrawFn) -> tuple[tuple[Stretch, ...], date, date | None]:
    """A provision's timeline: contiguous stretches from a start, each a version or a gap (no two
    gaps in a row), the last a version that may still be in force."""
    start = date(1990, 1, 1) + timedelta(days=draw(st.integers(0, 9000)))
    count = draw(st.integers(1, 25))
    items: list[Stretch] = []
    day = start
    previous_gap = False
    for i in range(count):
        last = i == count - 1
        is_gap = not last and not previous_gap and draw(st.booleans())
        length = draw(st.integers(1, 1500))
        end = None if last and draw(st.booleans()) else day + timedelta(days=length)
        if is_gap:
            held = draw(st.sampled_from(["not_held", "one_of_two"]))
            items.append(Stretch(day, end, held=held, reason="not held"))
        else:
            items.append(Stretch(day, end, version_id=f"a:1@v{i}"))
        previous_gap = is_gap
        if end is not None:
            day = end
    shuffled = draw(st.permutations(items))
    return tuple(sorted(shuffled, key=lambda s: s.start)), start, items[-1].end


@given(
    st.lists(timelines(), min_size=1, max_size=3),
    st.integers(1, 15),
    st.data(),
)
@settings(max_examples=200, deadline=None)
def test_the_years_are_sorted_unique_bounded_and_within_the_timelines(
    drawn: list[tuple[tuple[Stretch, ...], date, date | None]], max_years: int, data: st.DataObject
) -> None:
    histories = [ProvisionHistory("a", str(n), f"A s {n}", (), items) for n, (items, _, _) in enumerate(drawn)]
    horizon = 1 + max(income_year_of(s.end or s.start) for items, _, _ in drawn for s in items)
    spans = [
        (income_year_of(start), income_year_of(end - timedelta(days=1)) if end else horizon) for _, start, end in drawn
    ]
    # The original answer cited a version, so its year lies within that version's timeline
    # (timelines may leave gaps between them: a year in a gap was never asked about).
    first, last = data.draw(st.sampled_from(spans), label="the cited timeline")
    original = data.draw(st.integers(first, last), label="original year")
    plan = plan_years(histories, original, max_years=max_years, horizon=horizon)
    years = [y.income_year for y in plan.years]
    assert years == sorted(set(years)), "sorted and each once"
    assert len(years) <= max_years
    assert [y.income_year for y in plan.years if y.original] == [original]
    for year in years:
        assert any(a <= year <= b for a, b in spans), f"{year} is outside every timeline's span"
    changes = {income_year_of(s.start) for items, _, _ in drawn for s in items if not s.is_gap}
    asked_changes = set(years) - {original}
    assert asked_changes <= changes and changes - {original} == asked_changes | set(plan.left_out)
    assert all(left < min(asked_changes) for left in plan.left_out if asked_changes), "the newest are kept"
    window = (income_year_start(years[0]), income_year_end(years[-1]))
    for span in plan.gaps:
        assert span.start < window[1] and span.end > window[0], "a gap shown overlaps the years asked"
        assert span.income_years == tuple(range(span.income_years[0], span.income_years[-1] + 1))
