"""Fact extraction: equal values read as equal keys however written; never raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_verifier.groundedness.facts import extract_facts, metadata_provision_keys, read_facts


def _keys(text: str) -> list[str]:
    return [fact.key for fact in extract_facts(text)]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("$10 million", "money:10000000"),
        ("$10,000,000", "money:10000000"),
        ("A$10m", "money:10000000"),
        ("$1.5 billion", "money:1500000000"),
        ("$300k", "money:300000"),
        ("2,000 dollars", "money:2000"),
        ("$0.50", "money:0.5"),
        ("15%", "percent:15"),
        ("15 per cent", "percent:15"),
        ("7.5 percent", "percent:7.5"),
        ("1 July 2017", "date:2017-07-01"),
        ("July 1, 2017", "date:2017-07-01"),
        ("2017-07-01", "date:2017-07-01"),
        ("1/7/2017", "date:2017-07-01"),
        ("30 June", "date:--06-30"),
        ("2019-20", "income-year:2020"),
        ("2019\u201320", "income-year:2020"),
        ("2019-2020", "income-year:2020"),
        ("section 8-1", "provision:section:8-1"),
        ("s 8\u20131", "provision:section:8-1"),
        ("subsection 26-52(3)", "provision:section:26-52"),
        ("paragraph 8-1(1)(a)", "provision:section:8-1"),
        ("section 109D", "provision:section:109D"),
        ("Division 7A", "provision:division:7A"),
        ("Subdivision 40-B", "provision:subdivision:40-B"),
        ("Part IVA", "provision:part:IVA"),
        ("under 8-1 of the Act", "provision:section:8-1"),
        ("5,000 kilometres", "number:5000"),
        ("twelve months", "number:12"),
    ],
)
def test_reads_the_value(text: str, key: str) -> None:
    assert _keys(text) == [key]


def test_a_fact_is_read_once() -> None:
    assert _keys("From 1 July 2017, $10 million under section 328-110; 25% and 3 years.") == [
        "provision:section:328-110",
        "date:2017-07-01",
        "money:10000000",
        "percent:25",
        "number:3",
    ]


def test_one_is_not_checked_as_a_number() -> None:
    assert _keys("one of the following applies") == []


def test_rest_blanks_the_facts() -> None:
    assert read_facts("less than $10 million under section 8-1").rest.split() == ["less", "than", "under"]


def test_metadata_keys() -> None:
    assert metadata_provision_keys("8-1") == ("provision:section:8-1", "provision:division:8")
    assert metadata_provision_keys("109D") == ("provision:section:109D",)
    assert metadata_provision_keys("sch1-12-35") == (
        "provision:schedule:1",
        "provision:section:12-35",
        "provision:division:12",
    )


@given(st.integers(min_value=1, max_value=10**12))
def test_money_written_with_or_without_separators_is_one_value(amount: int) -> None:
    assert _keys(f"${amount:,}") == _keys(f"${amount}") == [f"money:{amount}"]


@given(st.integers(min_value=1, max_value=999))
def test_millions_in_words_or_digits_are_one_value(millions: int) -> None:
    assert _keys(f"${millions} million") == _keys(f"${millions * 1_000_000:,}")


@given(st.dates())
def test_dates_in_any_supported_format_are_one_value(day: object) -> None:
    from datetime import date

    assert isinstance(day, date)
    written = [
        f"{day.day} {day:%B} {day.year:04d}",
        f"{day:%B} {day.day}, {day.year:04d}",
        f"{day.year:04d}-{day.month:02d}-{day.day:02d}",
        f"{day.day}/{day.month}/{day.year:04d}",
    ]
    if day.year >= 1000:
        assert {tuple(_keys(w)) for w in written} == {(f"date:{day.isoformat()}",)}


@given(st.text(max_size=200))
@settings(max_examples=300)
def test_never_raises_and_keys_are_typed(text: str) -> None:
    for fact in extract_facts(text):
        assert fact.key.split(":", 1)[0] in {"money", "percent", "date", "income-year", "provision", "number"}
        assert fact.written
