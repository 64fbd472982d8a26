"""Out-of-period citations, by the citation's own dates and by the corpus's."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from asat_research.evaluation.temporal_check import HeldDates, in_force, temporal_violations
from asat_research.gold import CaseDate
from services.research.tests.evaluation.builders import V2015, V2026, FakeDates, make_citation


def year(n: int) -> CaseDate:
    return CaseDate(n, None)


def day(d: date) -> CaseDate:
    return CaseDate(None, d)


def test_income_year_needs_an_overlap_with_the_year() -> None:
    # in force 2012-04-15 .. 2016-07-01 (exclusive)
    start, end = date(2012, 4, 15), date(2016, 7, 1)
    assert in_force(start, end, year(2012))  # 1 Jul 2011 - 30 Jun 2012 holds 15 Apr 2012
    assert in_force(start, end, year(2016))
    assert not in_force(start, end, year(2017))  # ends the day FY2017 starts
    assert not in_force(start, end, year(2011))
    assert in_force(date(2016, 6, 30), None, year(2016))
    assert not in_force(date(2016, 7, 1), None, year(2016))


def test_as_of_needs_the_day_inside_the_half_open_interval() -> None:
    start, end = date(2012, 4, 15), date(2016, 7, 1)
    assert in_force(start, end, day(start))
    assert in_force(start, end, day(date(2016, 6, 30)))
    assert not in_force(start, end, day(end))
    assert not in_force(start, end, day(date(2012, 4, 14)))


def test_a_version_in_force_is_no_violation() -> None:
    assert temporal_violations((make_citation(V2015),), year(2015), FakeDates()) == ()
    assert temporal_violations((make_citation(V2026),), day(date(2026, 3, 1)), FakeDates()) == ()


def test_a_version_out_of_period_is_one_violation_per_citation() -> None:
    cited = (make_citation(V2015), make_citation(V2015, quote="another span"))
    found = temporal_violations(cited, year(2026), FakeDates())
    assert len(found) == 2
    assert "not income year 2026" in found[0]


def test_a_payload_that_misstates_its_dates_cannot_hide_a_violation() -> None:
    lying = make_citation(V2015, valid_from="2012-04-15", valid_to=None)  # claims to be current
    found = temporal_violations((lying,), year(2026), FakeDates())
    assert len(found) == 1
    assert "the corpus dates it 2012-04-15..2016-07-01" in found[0]


def test_a_version_the_corpus_does_not_hold_is_a_violation() -> None:
    invented = make_citation(
        "itaa1997:328-110@C2099C00001", act="itaa1997", provision="328-110", valid_from="2000-01-01"
    )
    found = temporal_violations((invented,), year(2015), FakeDates())
    assert found and "no such version" in found[0]


def test_a_version_id_of_another_provision_is_a_violation() -> None:
    relabelled = make_citation(V2015, provision="328-115")
    found = temporal_violations((relabelled,), year(2015), FakeDates())
    assert found and "cited as itaa1997 328-115" in found[0]


def test_rulings_are_checked_against_their_reachable_period() -> None:
    ruling = make_citation("TR 2020/1", quote="residency")
    assert temporal_violations((ruling,), year(2021), FakeDates()) == ()
    assert len(temporal_violations((ruling,), year(2019), FakeDates())) == 1


def test_dates_that_are_not_iso_are_reported() -> None:
    broken = make_citation(V2015, valid_from="15 April 2012")
    found = temporal_violations((broken,), year(2015), FakeDates())
    assert found and "not ISO dates" in found[0]


class ThenStoodDates(FakeDates):
    """V2015 in force to 30 June 2016 and, the law as it now stands not held after that, on the
    books (as it then stood) from 1 July 2016 to 10 September 2016."""

    def held(self, source_id: str) -> HeldDates | None:
        held = super().held(source_id)
        if held is None or source_id != V2015:
            return held
        return replace(held, then_stood=((date(2016, 7, 1), date(2016, 9, 10)),))


def test_a_text_quoted_as_it_then_stood_with_its_caveat_is_no_violation() -> None:
    caveated = make_citation(V2015, then_stood="as it then stood (C2015C00285); amended by Act No. 126, 2015")
    assert temporal_violations((caveated,), year(2017), ThenStoodDates()) == ()
    assert temporal_violations((caveated,), day(date(2016, 8, 1)), ThenStoodDates()) == ()


def test_a_text_quoted_as_it_then_stood_without_its_caveat_is_a_violation() -> None:
    (found,) = temporal_violations((make_citation(V2015),), year(2017), ThenStoodDates())
    assert "without the caveat" in found


def test_a_caveat_does_not_excuse_a_day_the_text_was_not_on_the_books() -> None:
    caveated = make_citation(V2015, then_stood="as it then stood (C2015C00285)")
    (found,) = temporal_violations((caveated,), day(date(2016, 9, 10)), ThenStoodDates())
    assert found.endswith("not as of 2016-09-10")
    assert len(temporal_violations((caveated,), year(2018), ThenStoodDates())) == 1
