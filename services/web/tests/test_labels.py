from __future__ import annotations

from datetime import date

import pytest

from asat_web.labels import decision_heading, default_income_year, interval, short_generation, stage_summary


@pytest.mark.parametrize(
    ("day", "year"), [(date(2026, 6, 30), 2026), (date(2026, 7, 1), 2027), (date(2015, 1, 1), 2015)]
)
def test_the_default_income_year_is_the_one_containing_today(day: date, year: int) -> None:
    assert default_income_year(day) == year


def test_interval_gives_the_last_day_in_force() -> None:
    assert interval("2014-07-01", "2016-07-01") == "in force from 2014-07-01 to 2016-06-30"
    assert interval("2025-07-01", None) == "in force from 2025-07-01, still in force"
    assert interval(None, "garbage") == "in force from an unknown date until before garbage"


def test_decisions_and_stages_in_plain_words() -> None:
    assert decision_heading("abstain_low_relevance").startswith("No answer: the corpus does not appear")
    assert decision_heading("abstain_something_new") == "No answer"
    assert stage_summary("resolve", {"income_year": 2015, "source": "parameter"}) == "income year 2015 (from parameter)"
    assert stage_summary("resolve", {"as_of": "2015-03-01", "source": "question"}).startswith("as at 2015-03-01")
    assert stage_summary("resolve", {"income_year": 2016, "as_known_on": "2015-10-31", "source": "parameter"}) == (
        "as known on 2015-10-31, income year 2016 (from parameter)"
    )
    assert stage_summary("retrieve", {"hits": 7, "gap_markers": 1}) == "7 passages, 1 markers of text not held"
    assert stage_summary("rerank", {"parents": ["a", "b"], "top_score": 0.5}) == "2 sources kept, best score 0.500"
    assert stage_summary("rerank", {"parents": [], "top_score": None}) == "0 sources kept, nothing scored"
    assert stage_summary("verify", {"claims": 3, "verified": 2}) == "2 of 3 claims verified"
    # The decision comes with the result, after the audit row: the gate line never says it.
    assert stage_summary("gate", {"claims": 2}) == "decided; shown once the audit row is written"
    assert stage_summary("audit", {"audit_id": 4}) == "audit row 4"
    assert short_generation("0123456789abcdef") == "0123456789ab"
