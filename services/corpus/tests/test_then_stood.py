"""Item 4: where the law as it now stands is not held, the text as it then stood (synthetic timelines)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.act import ActRef
from asat_corpus.corpus_build import _gap_items
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion, VersionGap
from asat_corpus.then_stood import (
    ThenStood,
    marker_years,
    texts_served,
    then_stood_stretches,
    then_stood_years,
    uncovered_years,
)

# The versions of tests/test_known_time.py (GST Act s 177-10).
ACT_126 = ActRef(126, 2015)


def _version(
    vid: str,
    valid: tuple[date, date | None],
    known: tuple[date, date | None],
    to_bound: Bound,
    compiled: date,
) -> ProvisionVersion:
    return ProvisionVersion(
        id=vid,
        act="gst1999",
        number="177-10",
        heading="Heading",
        hierarchy=(),
        text=vid,
        subsections=(),
        register_ids=(vid.split("@")[1],),
        authorised=False,
        valid_from=valid[0],
        valid_to=valid[1],
        from_bound=Bound(valid[0], BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=to_bound,
        income_years=(),
        content_hash="x",
        known_from=known[0],
        known_to=known[1],
        compilation_dates=(compiled,),
    )


RETRO = Bound(date(2015, 3, 5), BoundMethod.AMENDMENT_COMMENCEMENT, (ACT_126,), "", None, (date(2015, 3, 5),), True)
OLD = _version(
    "gst1999:177-10@C2015C00284",
    (date(2013, 6, 29), date(2015, 3, 5)),
    (date(2013, 6, 29), date(2015, 9, 10)),
    RETRO,
    date(2015, 6, 25),
)
NEW = _version(
    "gst1999:177-10@C2026C00081",
    (date(2018, 7, 2), None),
    (date(2026, 1, 1), None),
    Bound(None, BoundMethod.OPEN),
    date(2026, 1, 1),
)

# GST Act s 177-10 shape: the June 2015 text was amended with effect from 5 March 2015 by an Act
# assented after that compilation; the amended text is not held until 2018 (a gap).
GAP = VersionGap("gst1999", "177-10", date(2015, 3, 5), date(2018, 7, 2), (ACT_126,), "amended; text not held")
TIMELINE = ProvisionTimeline("gst1999", "177-10", (OLD, NEW), (GAP,))


def test_the_gap_is_served_as_it_then_stood_while_the_old_text_was_on_the_books() -> None:
    (stretch,) = then_stood_stretches(TIMELINE)
    # OLD was on the books until 10 September 2015; after that nothing held shows the text.
    assert (stretch.version_id, stretch.start, stretch.end) == (OLD.id, date(2015, 3, 5), date(2015, 9, 10))
    assert stretch.covers(date(2015, 5, 1)) and not stretch.covers(date(2015, 9, 10))
    assert "Act No. 126, 2015" in stretch.caveat and "retrospective" in stretch.caveat
    assert "2015-03-05 to 2018-07-01 is not held" in stretch.caveat


def test_years_with_an_uncovered_day_keep_their_gap_marker() -> None:
    stretches = then_stood_stretches(TIMELINE)
    assert then_stood_years(stretches, 2026) == (2015, 2016)
    # 2015 (to 30 June 2015) is wholly covered; 2016 only to 9 September 2015; 2017-2019 not at all.
    assert uncovered_years(GAP, stretches, 2026) == (2016, 2017, 2018, 2019)
    (marker,) = _gap_items(TIMELINE, 2026, stretches)
    assert marker.payload["income_years"] == [2016, 2017, 2018, 2019]


def test_a_gap_no_held_text_covers_is_not_served() -> None:
    never_known = replace(OLD, known_from=None, known_to=None)
    assert then_stood_stretches(replace(TIMELINE, versions=(never_known, NEW))) == ()


def test_a_text_known_only_after_the_gap_does_not_reach_back() -> None:
    later = replace(GAP, start=date(2010, 1, 1), end=date(2013, 1, 1))
    assert then_stood_stretches(replace(TIMELINE, gaps=(later,))) == ()


@given(
    st.lists(
        st.tuples(st.integers(0, 3000), st.integers(1, 800)),
        max_size=4,
    ),
    st.integers(0, 3000),
    st.integers(1, 3000),
)
def test_uncovered_years_are_exactly_the_years_with_a_day_no_stretch_covers(
    spans: list[tuple[int, int]], gap_offset: int, gap_length: int
) -> None:
    origin = date(2010, 7, 1)
    gap = replace(
        GAP,
        start=date.fromordinal(origin.toordinal() + gap_offset),
        end=date.fromordinal(origin.toordinal() + gap_offset + gap_length),
    )
    stretches = [
        ThenStood("v", date.fromordinal(origin.toordinal() + a), date.fromordinal(origin.toordinal() + a + n), "c")
        for a, n in spans
    ]
    expected = set()
    for ordinal in range(gap.start.toordinal(), gap.end.toordinal()):
        day = date.fromordinal(ordinal)
        if not any(s.covers(day) for s in stretches):
            expected.add(day.year + 1 if day.month >= 7 else day.year)
    assert set(uncovered_years(gap, stretches, 2030)) == expected


def _between(end: date = date(2015, 7, 1)) -> VersionGap:
    return replace(
        GAP,
        start=date(2013, 6, 29),
        end=end,
        reason="commencement of the amending Act uncertain",
        between=(OLD.id, NEW.id),
        candidates=(date(2013, 6, 29), date(2015, 6, 25), date(2015, 7, 1)),
    )


def test_a_gap_between_two_held_texts_is_served_on_every_day_the_later_text_after_the_change() -> None:
    # ITAA 1997 s 114-5 shape: Act No. 70, 2015 commenced on one of three days; the June 2015
    # compilation still shows the old text until its assent (25 June 2015); no held compilation
    # shows a text from then until the next one, so the text the Act made is quoted, its caveat
    # saying the old text applied until the Act commenced.
    between = _between()
    old = replace(OLD, known_from=date(2008, 6, 26), known_to=date(2015, 6, 25))
    timeline = replace(TIMELINE, versions=(old, NEW), gaps=(between,))
    stretches = then_stood_stretches(timeline)
    assert [(s.version_id, s.start, s.end) for s in stretches] == [
        (OLD.id, date(2013, 6, 29), date(2015, 6, 25)),
        (NEW.id, date(2015, 6, 25), date(2015, 7, 1)),
    ]
    assert all(f"either {OLD.id} or {NEW.id}" in s.caveat for s in stretches)
    assert all("one of 2013-06-29, 2015-06-25, 2015-07-01" in s.caveat for s in stretches)
    assert stretches[1].caveat.startswith(f"quoted as amended by {ACT_126}")
    assert f"until {ACT_126} commenced for this provision the text was {OLD.id}" in stretches[1].caveat
    assert uncovered_years(between, stretches, 2026) == ()
    assert marker_years(between, stretches, 2026) == ()
    # Income year 2015 reads one gap: the two texts are one reading, not a change within the year.
    assert texts_served(stretches, (), date(2014, 7, 1), date(2015, 7, 1)) == (f"{OLD.id} or {NEW.id}",)


def test_before_the_earlier_text_is_first_held_it_is_still_the_text_as_it_then_stood() -> None:
    # The earlier text first held in June 2015 although in force since 2011: until the amending
    # Act's assent nothing on the books had changed it.
    between = _between(end=date(2025, 7, 1))
    old = replace(OLD, known_from=date(2015, 6, 22), known_to=date(2015, 6, 25))
    timeline = replace(TIMELINE, versions=(old, NEW), gaps=(between,))
    stretches = then_stood_stretches(timeline)
    assert [(s.version_id, s.start, s.end) for s in stretches] == [
        (OLD.id, date(2013, 6, 29), date(2015, 6, 22)),
        (OLD.id, date(2015, 6, 22), date(2015, 6, 25)),
        (NEW.id, date(2015, 6, 25), date(2025, 7, 1)),
    ]
    assert then_stood_years(stretches, 2026) == tuple(range(2013, 2026))


def test_a_text_in_force_for_part_of_the_period_beside_a_gap_is_a_change_within_it() -> None:
    stretches = (
        ThenStood("a", date(2015, 6, 1), date(2015, 6, 25), "c", date(2015, 6, 1)),
        ThenStood("b", date(2015, 6, 25), date(2015, 7, 1), "c", date(2015, 6, 1)),
        ThenStood("c", date(2014, 8, 1), date(2014, 9, 1), "c", date(2014, 8, 1)),
    )
    year = (date(2014, 7, 1), date(2015, 7, 1))
    assert texts_served(stretches, ("a",), *year) == ("a", "b", "c")
    assert texts_served(stretches, ("z",), *year) == ("z", "a or b", "c")
    assert texts_served(stretches, (), date(2015, 6, 25), date(2015, 6, 26)) == ("b",)


@given(st.integers(0, 2000), st.integers(1, 4000), st.integers(-200, 4000), st.integers(0, 400))
def test_every_day_of_a_gap_between_two_held_texts_is_served_by_exactly_one_text(
    offset: int, length: int, known_to: int, known_from_before: int
) -> None:
    origin = date(2010, 7, 1)
    start = date.fromordinal(origin.toordinal() + offset)
    gap = replace(_between(), start=start, end=date.fromordinal(start.toordinal() + length))
    to_day = date.fromordinal(start.toordinal() + known_to)
    from_day = date.fromordinal(min(to_day, start).toordinal() - known_from_before)
    old = replace(OLD, known_from=from_day, known_to=to_day)
    new = replace(NEW, known_from=date.fromordinal(gap.end.toordinal() + 30))
    stretches = then_stood_stretches(replace(TIMELINE, versions=(old, new), gaps=(gap,)))
    for ordinal in range(gap.start.toordinal(), gap.end.toordinal(), 17):
        day = date.fromordinal(ordinal)
        serving = [s for s in stretches if s.covers(day)]
        assert len(serving) == 1
        assert serving[0].version_id == (OLD.id if day < to_day else NEW.id)
