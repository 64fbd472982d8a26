"""Abbreviations spelled out for the search query."""

from __future__ import annotations

import pytest

from asat_research.spelled_out import spelled_out


@pytest.mark.parametrize(
    ("question", "query"),
    [
        (
            "An SMSF could have up to 10 members in 2014-15, couldn't it?",
            "An SMSF (self managed superannuation fund) could have up to 10 members in 2014-15, couldn't it?",
        ),
        ("Can smsfs borrow?", "Can smsfs (self managed superannuation funds) borrow?"),
        ("Is my client an SBE this year?", "Is my client an SBE (small business entity) this year?"),
        ("Do SBEs get it?", "Do SBEs (small business entities) get it?"),
        ("Who must quote a TFN?", "Who must quote a TFN (tax file number)?"),
    ],
)
def test_the_long_form_follows_the_abbreviation(question: str, query: str) -> None:
    assert spelled_out(question) == query


@pytest.mark.parametrize(
    "question",
    [
        "Does the CGT discount apply to a company?",  # the Act's own word
        "Is hot food GST-free?",
        "How much PAYG must an employer withhold?",
        "Is the lessee of a car liable?",  # "less" and "ess" inside words are not abbreviations
    ],
)
def test_a_question_with_no_listed_abbreviation_is_unchanged(question: str) -> None:
    assert spelled_out(question) == question
