from __future__ import annotations

from datetime import date

from asat_corpus.ruling import Ruling
from asat_corpus.ruling_validity import ruling_validity


def _ruling(status: str, issued: date | None, withdrawn: date | None) -> Ruling:
    return Ruling("TR 2020/1", "TR", 2020, "1", "t", status, issued, withdrawn, "x", (), "f")


def test_reachable_from_issue_date() -> None:
    v = ruling_validity(_ruling("current", date(2020, 3, 4), None), 2027)
    assert v.valid_from == date(2020, 3, 4) and v.valid_to is None
    assert v.income_years == tuple(range(2020, 2028))


def test_unknown_issue_date_starts_at_the_end_of_the_citation_year() -> None:
    v = ruling_validity(_ruling("current", None, None), 2027)
    assert v.valid_from == date(2020, 12, 31)
    assert v.income_years[0] == 2021


def test_withdrawn_ruling_is_not_reachable_after_withdrawal() -> None:
    v = ruling_validity(_ruling("withdrawn", date(2020, 3, 4), date(2022, 8, 1)), 2027)
    assert v.income_years == (2020, 2021, 2022, 2023)
    assert ruling_validity(_ruling("withdrawn", date(2020, 3, 4), None), 2027).income_years == (2020,)


def test_a_ruling_that_cannot_be_placed_is_not_reachable() -> None:
    ruling = Ruling("IT 2167", "IT", 0, "2167", "t", "current", None, None, "x", (), "f")
    assert ruling_validity(ruling, 2027).income_years == ()
