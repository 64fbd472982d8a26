"""audit-dates' counting rules on synthetic timelines."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from asat_corpus.act import ActRef
from asat_corpus.date_audit import audit, parse_years, year_row
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion, TextComparison, VersionGap
from asat_corpus.versioning import (
    REASON_AMENDED_MORE_THAN_ONCE,
    REASON_COMMENCEMENT_UNCERTAIN,
    REASON_NO_AMENDMENT_RECORDED,
)


def _version(
    number: str, start: date, end: date | None, years: tuple[int, ...], compiled: date, known_to: date | None = None
) -> ProvisionVersion:
    return ProvisionVersion(
        f"x:{number}@{start}",
        "x",
        number,
        "h",
        (),
        "t",
        (),
        ("C1",),
        True,
        start,
        end,
        Bound(start, BoundMethod.COMPILATION_DATE),
        Bound(end, BoundMethod.COMPILATION_DATE),
        years,
        "h",
        known_from=compiled,
        known_to=known_to,
        compilation_dates=(compiled,),
    )


def _gap(number: str, reason: str, between: tuple[str, str] | None = None) -> VersionGap:
    return VersionGap("x", number, date(2015, 7, 1), date(2024, 1, 1), (ActRef(1, 2016),), reason, between)


def _timeline(number: str, *gaps: VersionGap, comparisons: tuple[TextComparison, ...] = ()) -> ProvisionTimeline:
    versions = (
        # on the books until Act No. 1, 2016 changed it (assent 1 March 2016)
        _version(
            number, date(2010, 1, 1), date(2015, 7, 1), tuple(range(2010, 2016)), date(2015, 6, 22), date(2016, 3, 1)
        ),
        _version(number, date(2024, 1, 1), None, tuple(range(2024, 2028)), date(2026, 4, 1)),
    )
    return ProvisionTimeline("x", number, versions, gaps, comparisons=comparisons)


def test_a_year_counts_provisions_with_nothing_servable_by_cause() -> None:
    timelines = [
        _timeline("1", _gap("1", REASON_NO_AMENDMENT_RECORDED)),
        _timeline("2", _gap("2", REASON_COMMENCEMENT_UNCERTAIN, ("a", "b"))),
        _timeline("3", _gap("3", REASON_AMENDED_MORE_THAN_ONCE)),
        _timeline("4"),  # no gap and no version in 2020: not counted
    ]
    row = year_row(timelines, 2020, 2027, caveats=True)
    assert (row.provisions, row.none_servable) == (3, 3)
    assert row.by_cause["no_amendment_recorded"] == 1 and row.by_cause["commencement_uncertain"] == 1
    # In 2020 no held compilation shows the text on the books: nothing is served as it then stood.
    assert row.servable_with_caveat == 0 and row.unservable == 3 and row.unexplained == 1
    # In 2016 the old text was on the books until 1 March 2016: served as it then stood.
    early = year_row(timelines, 2016, 2027, caveats=True)
    assert early.servable_with_caveat == 3 and early.unservable == 0
    strict = year_row(timelines, 2016, 2027, caveats=False)
    assert strict.servable_with_caveat == 0 and strict.unexplained == 1


def test_audit_counts_merges_kept_apart_and_known_time_pairs() -> None:
    merged = TextComparison("C1", "C2", True, "same_words", 1.0, "same words")
    apart = TextComparison("C1", "C2", False, "figures_differ", 0.9, "figures differ")
    before = {("x", "1"): _timeline("1", _gap("1", REASON_NO_AMENDMENT_RECORDED))}
    after = {("x", "1"): _timeline("1", comparisons=(merged, apart))}
    result = audit(before, after, (2020,), 2027)
    assert len(result.merges) == 1 and len(result.kept_apart) == 1 and result.kept_apart_before == 1
    assert result.kept_apart[0].dated_by == ""  # the earlier text ends on its compilation date only
    assert result.known_after.pairs == 2 and result.known_after.outside_validity == 0
    assert result.target_met


def test_parse_years() -> None:
    assert parse_years("2016-2018") == (2016, 2017, 2018)
    assert parse_years("2016,2025") == (2016, 2025)
    with pytest.raises(ValueError, match="2016-2026"):
        parse_years("2018-2016")


def test_a_pair_kept_apart_but_dated_by_an_act_says_which() -> None:
    apart = TextComparison("C1", "C2", False, "figures_differ", 0.9, "figures differ")
    timeline = _timeline("1", comparisons=(apart,))
    first = replace(
        timeline.versions[0], to_bound=Bound(date(2017, 1, 1), BoundMethod.AMENDMENT_COMMENCEMENT, (ActRef(39, 2012),))
    )
    dated = replace(timeline, versions=(first, timeline.versions[1]))
    result = audit({("x", "1"): dated}, {("x", "1"): dated}, (2020,), 2027)
    assert result.kept_apart[0].dated_by == "Act No. 39, 2012 (text changed from 2017-01-01)"
