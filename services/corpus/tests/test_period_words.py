"""A question's own period words replaced by another period's (the web's period-conflict choice
and research's answer across years both use it)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.period_words import period_words, reword_period


def test_the_words_for_a_period_read_back_as_it() -> None:
    assert period_words(income_year=2027) == "income year 2027"
    assert period_words(as_of=date(2026, 8, 1)) == "as at 2026-08-01"
    assert period_words(as_of="2026-08-01") == "as at 2026-08-01"
    for wrong in ({}, {"income_year": 2027, "as_of": "2026-08-01"}):
        with pytest.raises(ValueError, match="give one period"):
            period_words(**wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "matched", "sent"),
    [
        ("Home office at a fixed rate in FY2024?", ["FY2024"], "Home office at a fixed rate in income year 2027?"),
        ("FY2024: and again FY2024.", ["FY2024"], "income year 2027: and again income year 2027."),
        (
            "In 2019-20, and as at 1 July 2019?",
            ["2019-20", "as at 1 July 2019"],
            "In income year 2027, and income year 2027?",
        ),
        ("Was FY2024A a year?", ["FY2024"], "Was FY2024A a year?"),  # not whole words: left alone
        ("What is the threshold?", ["FY2024"], "What is the threshold?"),
        ("What is the threshold?", [], "What is the threshold?"),
    ],
)
def test_the_questions_own_words_are_replaced_as_whole_words(question: str, matched: list[str], sent: str) -> None:
    assert reword_period(question, matched, "income year 2027") == sent


def test_the_replacement_is_one_pass() -> None:
    # "income year 2024" also matches inside the words put in: replaced once, never again.
    assert reword_period("income year 2024 or FY2024", ["FY2024", "income year 2024"], "income year 2024 (FY2024)") == (
        "income year 2024 (FY2024) or income year 2024 (FY2024)"
    )


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60), st.integers(1990, 2050))
def test_without_period_words_the_question_is_unchanged(question: str, year: int) -> None:
    assert reword_period(question, [f"FY{year}"] if f"FY{year}" not in question else [], "income year 2027") == question
