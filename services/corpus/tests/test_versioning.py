"""The dating rules, on synthetic compilations and amendment histories (no corpus needed)."""

from __future__ import annotations

import itertools
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.act import ActRef, Compilation, SourceFormat
from asat_corpus.amendment import AmendingAct, AmendmentEntry, AmendmentKind, Commencement
from asat_corpus.provision import BoundMethod, ParsedProvision
from asat_corpus.resolution import Status, resolve, resolve_as_known
from asat_corpus.versioning import BEFORE_ISSUE_24, ActHistory, Observation, build_timeline

C2015 = Compilation(
    act="itaa1997",
    title="ITAA 1997",
    register_id="C2015C00285",
    number=137,
    compilation_date=date(2015, 6, 22),
    amendments_up_to=ActRef(67, 2015),
    amendments_up_to_text="Act No. 67, 2015",
    format=SourceFormat.GITLAW_MARKDOWN,
    files=(),
    partial=None,
    has_endnotes=False,
)
C2026 = Compilation(
    act="itaa1997",
    title="ITAA 1997",
    register_id="C2026C00122",
    number=263,
    compilation_date=date(2026, 4, 1),
    amendments_up_to=ActRef(12, 2026),
    amendments_up_to_text="Act No. 12, 2026",
    format=SourceFormat.REGISTER_PDF_LAYOUT_TEXT,
    files=(),
    partial=None,
    has_endnotes=True,
)
ORIGINAL = AmendingAct(
    "itaa1997",
    ActRef(38, 1997),
    "ITAA 1997",
    date(1997, 4, 27),
    Commencement("1 July 1997", (date(1997, 7, 1),), True),
    "f",
    1,
)


def _act(number: int, year: int, *days: date, confident: bool = True) -> AmendingAct:
    return AmendingAct(
        "itaa1997",
        ActRef(number, year),
        f"Act {number} {year}",
        days[0] if days else None,
        Commencement("as written", tuple(days), confident),
        "f",
        1,
    )


def _entry(kind: AmendmentKind, number: int, year: int, provision: str = "328-110") -> AmendmentEntry:
    return AmendmentEntry("itaa1997", f"s {provision}", provision, kind, ActRef(number, year), "f", 1)


def _obs(compilation: Compilation, text: str, number: str = "328-110") -> Observation:
    return Observation(
        ParsedProvision("itaa1997", compilation.register_id, number, "Heading", (), text, (), "f", 1), compilation
    )


def _history(acts: list[AmendingAct], entries: list[AmendmentEntry]) -> ActHistory:
    by: dict[str, tuple[AmendmentEntry, ...]] = {}
    for e in entries:
        assert e.provision is not None
        by[e.provision] = (*by.get(e.provision, ()), e)
    return ActHistory(ORIGINAL, {a.ref: a for a in acts}, by)


SMALL_BUSINESS = _history(
    [
        _act(80, 2007, date(2007, 7, 1)),
        _act(37, 2012, date(2012, 6, 29)),
        _act(41, 2017, date(2016, 7, 1), date(2017, 5, 19)),
        _act(92, 2020, date(2020, 10, 15)),
        _act(40, 2023, date(2023, 6, 29)),
    ],
    [
        _entry(AmendmentKind.ADDED, 80, 2007),
        _entry(AmendmentKind.AMENDED, 37, 2012),
        _entry(AmendmentKind.AMENDED, 41, 2017),
        _entry(AmendmentKind.AMENDED, 92, 2020),
        _entry(AmendmentKind.AMENDED, 40, 2023),
    ],
)


def test_two_held_texts_with_amendments_between_leave_a_gap_naming_the_acts() -> None:
    timeline = build_timeline(
        "itaa1997",
        "328-110",
        [_obs(C2015, "less than $2 million"), _obs(C2026, "less than $10 million")],
        [C2015, C2026],
        SMALL_BUSINESS,
        horizon=2027,
    )
    old, new = timeline.versions
    assert old.valid_from == date(2012, 6, 29)
    assert old.valid_to == date(2016, 7, 1)  # earliest commencement of Act 41, 2017
    assert old.to_bound.acts == (ActRef(41, 2017),)
    assert old.to_bound.method is BoundMethod.COMMENCEMENT_SHRUNK
    assert new.valid_from == date(2023, 6, 29)
    assert new.from_bound.acts == (ActRef(40, 2023),)
    assert new.valid_to is None
    assert old.income_years == (2012, 2013, 2014, 2015, 2016)
    assert new.income_years == (2023, 2024, 2025, 2026, 2027)
    gap = next(g for g in timeline.gaps if g.start == date(2016, 7, 1))
    assert gap.end == date(2023, 6, 29)
    assert gap.acts == (ActRef(41, 2017), ActRef(92, 2020), ActRef(40, 2023))
    assert resolve(timeline, date(2015, 6, 30)).version == old
    assert resolve(timeline, date(2026, 6, 30)).version == new
    in_gap = resolve(timeline, date(2019, 1, 1))
    assert in_gap.status is Status.GAP and "Act No. 92, 2020" in in_gap.message
    # Added in 2007 and amended in 2012 before the earliest compilation: that text is not held.
    assert resolve(timeline, date(2010, 1, 1)).status is Status.GAP
    assert resolve(timeline, date(2006, 1, 1)).status is Status.NOT_YET_ENACTED


def test_identical_text_is_one_version_seen_in_both_compilations() -> None:
    history = _history([], [])
    timeline = build_timeline(
        "itaa1997",
        "8-1",
        [_obs(C2015, "You can deduct (see section 81)", "8-1"), _obs(C2026, "You can deduct (see section 8-1)", "8-1")],
        [C2015, C2026],
        history,
        horizon=2027,
    )
    (version,) = timeline.versions
    assert version.register_ids == ("C2015C00285", "C2026C00122")
    assert version.authorised  # the authorised text is the canonical one
    assert version.text.endswith("8-1)")
    assert version.valid_from == date(1997, 7, 1)
    assert version.from_bound.method is BoundMethod.ACT_COMMENCEMENT
    assert version.valid_to is None


def test_texts_that_differ_without_a_recorded_amendment_are_not_stretched() -> None:
    timeline = build_timeline(
        "itaa1997",
        "8-1",
        [_obs(C2015, "old words", "8-1"), _obs(C2026, "new words", "8-1")],
        [C2015, C2026],
        _history([], []),
        horizon=2027,
    )
    old, new = timeline.versions
    assert old.valid_to == date(2015, 6, 23)
    assert new.valid_from == date(2026, 4, 1)
    assert timeline.notes
    assert resolve(timeline, date(2020, 1, 1)).status is Status.GAP


def test_added_after_the_earliest_compilation_is_not_yet_enacted_before() -> None:
    history = _history([_act(15, 2019, date(2019, 4, 1))], [_entry(AmendmentKind.ADDED, 15, 2019, "355-100")])
    timeline = build_timeline(
        "itaa1997", "355-100", [_obs(C2026, "new rule", "355-100")], [C2015, C2026], history, horizon=2027
    )
    (version,) = timeline.versions
    assert version.valid_from == date(2019, 4, 1)
    result = resolve(timeline, date(2015, 6, 30))
    assert result.status is Status.NOT_YET_ENACTED
    assert "Act No. 15, 2019" in result.message


def test_unreadable_commencement_shrinks_both_sides() -> None:
    history = _history(
        [_act(5, 2018, date(2018, 1, 1), confident=False)],
        [_entry(AmendmentKind.AMENDED, 5, 2018, "8-1")],
    )
    timeline = build_timeline(
        "itaa1997", "8-1", [_obs(C2015, "old", "8-1"), _obs(C2026, "new", "8-1")], [C2015, C2026], history, 2027
    )
    old, new = timeline.versions
    assert old.valid_to == date(2015, 6, 23)
    assert new.valid_from == date(2026, 4, 1)
    assert new.from_bound.method is BoundMethod.COMMENCEMENT_SHRUNK


def test_repealed_provision_ends_at_the_repeal() -> None:
    history = _history([_act(9, 2016, date(2016, 1, 1))], [_entry(AmendmentKind.REPEALED, 9, 2016, "40-5")])
    timeline = build_timeline("itaa1997", "40-5", [_obs(C2015, "old", "40-5")], [C2015, C2026], history, 2027)
    (version,) = timeline.versions
    assert version.valid_to == date(2016, 1, 1)
    assert resolve(timeline, date(2020, 1, 1)).status is Status.NOT_IN_FORCE


def test_without_any_history_only_the_compilation_date_is_certain() -> None:
    timeline = build_timeline(
        "fbtaa1986",
        "5",
        [_obs(C2015, "text", "5")],
        [C2015],
        ActHistory(None, {}, {}),
        horizon=2027,
        current_since=date(2025, 7, 1),
    )
    (version,) = timeline.versions
    assert (version.valid_from, version.valid_to) == (date(2015, 6, 22), date(2015, 6, 23))
    assert version.income_years == (2015,)
    assert resolve(timeline, date(2016, 1, 1)).status is Status.NOT_HELD


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4),
    st.lists(
        st.tuples(
            st.integers(1, 60),
            st.integers(2000, 2026),
            st.dates(date(1999, 1, 1), date(2027, 12, 31)),
            st.dates(date(1999, 1, 1), date(2027, 12, 31)),
            st.booleans(),
            st.sampled_from(list(AmendmentKind)),
        ),
        max_size=8,
    ),
)
def test_versions_of_a_provision_never_overlap(
    texts: list[str], amendments: list[tuple[int, int, date, date, bool, AmendmentKind]]
) -> None:
    compilations = [
        Compilation(
            "x",
            "X",
            f"C{2000 + 5 * i}",
            i,
            date(2005 + 5 * i, 6, 30),
            ActRef(99, 2005 + 5 * i),
            None,
            SourceFormat.GITLAW_MARKDOWN,
            (),
            None,
            False,
        )
        for i in range(len(texts))
    ]
    acts = [_act(n, y, d1, d2, confident=c) for n, y, d1, d2, c, _ in amendments]
    entries = [_entry(kind, n, y, "1-1") for n, y, _, _, _, kind in amendments]
    history = _history(acts, entries)
    timeline = build_timeline(
        "x", "1-1", [_obs(c, t, "1-1") for c, t in zip(compilations, texts, strict=True)], compilations, history, 2030
    )
    spans = sorted(
        [(v.valid_from, v.valid_to or date.max) for v in timeline.versions if (v.valid_to or date.max) > v.valid_from]
        + [(g.start, g.end) for g in timeline.gaps]
    )
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert end <= start
    for version in timeline.versions:
        assert version.valid_to is None or version.valid_to >= version.valid_from
    # Known time: intervals never overlap, and every held text is the text on the books on each of
    # its compilation dates.
    known = sorted((v.known_from or date.min, v.known_to or date.max) for v in timeline.versions)
    for (_, end), (start, _) in itertools.pairwise(known):
        assert end <= start
    for version in timeline.versions:
        for day in version.compilation_dates:
            assert resolve_as_known(timeline, day).version == version


def test_a_conversion_that_dropped_a_table_is_the_same_version_when_nothing_was_amended() -> None:
    timeline = build_timeline(
        "itaa1997",
        "20-30",
        [
            _obs(C2015, "(1) This table lists the provisions.\n(2) Other words.", "20-30"),
            _obs(C2026, "(1) This table lists the provisions.\nItem | Provision\n1.1 | 8-1\n(2) Other words.", "20-30"),
        ],
        [C2015, C2026],
        _history([], []),
        horizon=2027,
    )
    (version,) = timeline.versions
    assert version.register_ids == ("C2015C00285", "C2026C00122")
    assert "1.1 | 8-1" in version.text
    assert not timeline.notes


def test_is_lossy_copy_needs_every_word_in_order() -> None:
    from asat_corpus.comparison import is_lossy_copy

    assert is_lossy_copy("the whollyowned group's asset", "the wholly-owned group’s big asset")
    assert not is_lossy_copy("less than $2 million", "less than $10 million")
    assert not is_lossy_copy("b a", "a b")


# Issue 24: conversion noise (item 1), narrowed commencements (item 2), known time (item 3).


def _assented(number: int, year: int, assent: date, *days: date) -> AmendingAct:
    return AmendingAct("itaa1997", ActRef(number, year), "Act", assent, Commencement("as written", days, True), "f", 1)


C2024 = Compilation(
    act="itaa1997",
    title="ITAA 1997",
    register_id="C2024C00046",
    number=248,
    compilation_date=date(2024, 1, 1),
    amendments_up_to=None,
    amendments_up_to_text=None,
    format=SourceFormat.ANIMUS_PDF_MARKDOWN,
    files=(),
    partial="volumes 1, 3, 4, 9 only",
    has_endnotes=False,
)


def test_a_reflowed_table_with_no_amendment_recorded_is_one_version_with_the_authorised_text() -> None:
    converted = "the insured\nItem CGT event Exception\n1 any insurance policy"
    authorised = "Item | CGT event | Exception\n1 | any insurance policy | the insured"
    timeline = build_timeline(
        "itaa1997",
        "118-300",
        [_obs(C2024, converted, "118-300"), _obs(C2026, authorised, "118-300")],
        [C2015, C2024, C2026],
        _history([], []),
        horizon=2027,
    )
    (version,) = timeline.versions
    assert version.authorised and version.text == authorised
    assert version.register_ids == ("C2024C00046", "C2026C00122")
    assert 2025 in version.income_years and not timeline.gaps
    (comparison,) = timeline.comparisons
    assert comparison.merged and comparison.verdict == "same_words" and comparison.similarity == 1.0


def test_with_the_rules_off_the_same_pair_is_a_gap_as_before() -> None:
    timeline = build_timeline(
        "itaa1997",
        "118-300",
        [_obs(C2024, "1 policy\nItem CGT event", "118-300"), _obs(C2026, "Item | CGT event\n1 | policy", "118-300")],
        [C2015, C2024, C2026],
        _history([], []),
        horizon=2027,
        rules=BEFORE_ISSUE_24,
    )
    assert len(timeline.versions) == 2 and timeline.gaps and not timeline.comparisons


def test_a_changed_figure_with_no_amendment_recorded_stays_apart_with_its_cause() -> None:
    timeline = build_timeline(
        "itaa1997",
        "8-1",
        [_obs(C2015, "less than $2 million", "8-1"), _obs(C2026, "less than $10 million", "8-1")],
        [C2015, C2026],
        _history([], []),
        horizon=2027,
    )
    assert len(timeline.versions) == 2
    (comparison,) = timeline.comparisons
    assert not comparison.merged and comparison.verdict == "figures_differ" and "2" in comparison.cause


def test_an_act_straddling_a_compilation_explains_a_later_change_on_its_remaining_day() -> None:
    # Assented 2016; parts commence 1 July 2016 and 1 July 2025. The 2024 compilation still shows
    # the old text, so the part that changed this section is the 2025 one.
    act = _assented(81, 2016, date(2016, 11, 29), date(2016, 7, 1), date(2025, 7, 1))
    history = _history([act], [_entry(AmendmentKind.AMENDED, 81, 2016, "114-5")])
    obs = [_obs(C2015, "old rule", "114-5"), _obs(C2024, "old rule", "114-5"), _obs(C2026, "new rule", "114-5")]
    timeline = build_timeline("itaa1997", "114-5", obs, [C2015, C2024, C2026], history, horizon=2027)
    old, new = timeline.versions
    assert old.valid_to == new.valid_from == date(2025, 7, 1)
    assert old.to_bound.method is BoundMethod.AMENDMENT_COMMENCEMENT
    assert "rule out 2016-07-01" in old.to_bound.detail
    assert not timeline.gaps
    before = build_timeline("itaa1997", "114-5", obs, [C2015, C2024, C2026], history, 2027, rules=BEFORE_ISSUE_24)
    assert [g.reason for g in before.gaps] == [
        "texts differ but the amendment history records no amendment between them"
    ]


def test_one_act_of_several_days_leaves_a_gap_between_two_held_texts_with_its_candidates() -> None:
    act = _assented(70, 2015, date(2015, 6, 25), date(2013, 6, 29), date(2015, 7, 1), date(2025, 7, 1))
    history = _history([act], [_entry(AmendmentKind.AMENDED, 70, 2015, "114-5")])
    obs = [_obs(C2015, "old rule", "114-5"), _obs(C2024, "new rule", "114-5"), _obs(C2026, "new rule", "114-5")]
    timeline = build_timeline("itaa1997", "114-5", obs, [C2015, C2024, C2026], history, horizon=2027)
    old, new = timeline.versions
    assert new.valid_from == date(2015, 7, 1)  # 1 July 2025 is ruled out: the 2024 compilation shows it
    assert 2020 in new.income_years
    (gap,) = (g for g in timeline.gaps if g.start == date(2013, 6, 29))
    assert gap.between == (old.id, new.id) and gap.one_of_two_held_texts
    assert gap.candidates == (date(2013, 6, 29), date(2015, 7, 1))
    assert gap.retrospective  # 29 June 2013 is before the assent
    assert old.to_bound.widest == date(2015, 7, 1) and old.to_bound.uncertain


def test_known_time_runs_from_the_first_held_compilation_to_the_amending_acts_assent() -> None:
    # Retrospective: assented 10 September 2015 with effect from 5 March 2015, after the June 2015 text.
    acts = [
        _assented(124, 2013, date(2013, 6, 28), date(2013, 6, 29)),
        _assented(126, 2015, date(2015, 9, 10), date(2015, 3, 5)),
    ]
    history = _history(
        acts, [_entry(AmendmentKind.AMENDED, 124, 2013, "177-10"), _entry(AmendmentKind.AMENDED, 126, 2015, "177-10")]
    )
    obs = [_obs(C2015, "old", "177-10"), _obs(C2026, "new", "177-10")]
    timeline = build_timeline("itaa1997", "177-10", obs, [C2015, C2026], history, horizon=2027)
    old, new = timeline.versions
    assert old.valid_to == date(2015, 3, 5)  # as the law now stands
    assert not old.in_force_on(C2015.compilation_date or date.min)
    assert old.known_from == date(2013, 6, 29)  # made law then: certain commencement after assent
    assert old.known_to == date(2015, 9, 10) and old.known_to_bound is not None
    assert old.known_to_bound.retrospective
    assert old.known_on(date(2015, 5, 1)) and old.known_on(date(2015, 6, 22))
    # The new text was the text on the books from the assent, though first held in 2026.
    assert new.known_from == date(2015, 9, 10) == old.known_to and new.known_to is None
    assert old.compilation_dates == (date(2015, 6, 22),)
