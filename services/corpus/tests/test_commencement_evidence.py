"""Item 2: candidate commencements narrowed by what the compilations show (pure rules)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from asat_corpus.act import ActRef, Compilation, SourceFormat
from asat_corpus.amendment import AmendingAct, Commencement
from asat_corpus.commencement_evidence import could_show, narrow_commencement


def _compilation(register_id: str, day: date, up_to: ActRef | None) -> Compilation:
    return Compilation(
        "itaa1997", "ITAA 1997", register_id, 1, day, up_to, None, SourceFormat.GITLAW_MARKDOWN, (), None, False
    )


C2015 = _compilation("C2015C00285", date(2015, 6, 22), ActRef(67, 2015))
C2024 = _compilation("C2024C00046", date(2024, 1, 1), None)
C2026 = _compilation("C2026C00122", date(2026, 4, 1), ActRef(12, 2026))


def _act(number: int, year: int, assent: date, *days: date, confident: bool = True) -> AmendingAct:
    return AmendingAct(
        "itaa1997", ActRef(number, year), "Act", assent, Commencement("as written", days, confident), "f", 1
    )


# Act No. 70, 2015: parts from 29 June 2013 (retrospective) to 1 July 2025, assent 25 June 2015.
ACT_70_2015 = _act(
    70,
    2015,
    date(2015, 6, 25),
    date(2015, 7, 1),
    date(2015, 6, 25),
    date(2015, 6, 26),
    date(2025, 7, 1),
    date(2013, 6, 29),
)


def test_a_candidate_after_the_first_compilation_showing_the_change_is_impossible() -> None:
    narrowed = narrow_commencement(ACT_70_2015, C2015, C2024)
    assert date(2025, 7, 1) in narrowed.excluded
    assert narrowed.latest == date(2015, 7, 1)
    assert "already shows the change" in narrowed.reasons[0]


def test_a_candidate_before_a_compilation_that_could_show_it_but_does_not_is_impossible() -> None:
    act = _act(81, 2016, date(2016, 11, 29), date(2017, 1, 1), date(2018, 7, 1))
    c2017 = _compilation("C2017X", date(2017, 3, 1), ActRef(90, 2016))
    narrowed = narrow_commencement(act, c2017, C2026)
    assert narrowed.candidates == (date(2018, 7, 1),) and narrowed.certain
    assert narrowed.excluded == (date(2017, 1, 1),)


def test_assent_after_the_compilation_keeps_earlier_candidates_as_retrospective() -> None:
    narrowed = narrow_commencement(ACT_70_2015, C2015, C2024)
    assert date(2013, 6, 29) in narrowed.candidates  # assent 25 June 2015 came after C2015 (22 June 2015)
    assert narrowed.retrospective
    assert not could_show(ACT_70_2015, C2015)


def test_a_compilation_closed_before_the_act_says_nothing_about_it() -> None:
    act = _act(81, 2016, date(2016, 11, 29), date(2017, 1, 1), date(2018, 7, 1))
    closed = _compilation("C2017Y", date(2017, 3, 1), ActRef(5, 2016))  # includes amendments up to an earlier Act
    assert not could_show(act, closed)
    assert narrow_commencement(act, closed, C2026).candidates == (date(2017, 1, 1), date(2018, 7, 1))


def test_evidence_against_every_candidate_leaves_them_as_endnote_3_gives_them() -> None:
    act = _act(9, 2016, date(2016, 1, 1), date(2016, 2, 1))
    c2017 = _compilation("C2017X", date(2017, 3, 1), None)
    narrowed = narrow_commencement(act, c2017, C2026)
    assert narrowed.contradicted and narrowed.candidates == (date(2016, 2, 1),)
    assert narrowed.excluded == ()


def test_an_unconfident_reading_is_never_certain() -> None:
    act = replace(ACT_70_2015, commencement=Commencement("x", (date(2015, 7, 1),), False))
    narrowed = narrow_commencement(act, C2015, C2024)
    assert narrowed.candidates == (date(2015, 7, 1),) and not narrowed.certain


def test_without_compilations_nothing_is_excluded() -> None:
    narrowed = narrow_commencement(ACT_70_2015, None, None)
    assert narrowed.excluded == () and len(narrowed.candidates) == 5
