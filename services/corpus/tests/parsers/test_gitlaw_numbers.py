"""Hyphen recovery for gitlaw provision numbers and body references."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.parsers.gitlaw_numbers import (
    reference_index,
    restore_reference_hyphens,
    split_part_number,
    split_section_number,
    split_subdivision_number,
)

divisions = st.builds(
    lambda n, letter: f"{n}{letter}",
    st.integers(min_value=1, max_value=999),
    st.sampled_from(["", "", "", "A", "B"]),
)
suffixes = st.builds(
    lambda n, letters: f"{n}{letters}",
    st.integers(min_value=1, max_value=999),
    st.sampled_from(["", "", "", "A", "AB", "C"]),
)


@given(divisions, suffixes)
def test_section_number_recovered_from_its_division(division: str, suffix: str) -> None:
    assert split_section_number(f"{division}{suffix}", division) == f"{division}-{suffix}"


@given(divisions, st.integers(min_value=1, max_value=999))
def test_number_of_another_division_is_not_split(division: str, other: int) -> None:
    printed = f"{other}5"
    if printed.startswith(division):
        return
    assert split_section_number(printed, division) is None


def test_examples_from_the_itaa_1997() -> None:
    assert split_section_number("328110", "328") == "328-110"
    assert split_section_number("81", "8") == "8-1"
    assert split_section_number("15249", "152") == "152-49"
    assert split_section_number("83A10", "83A") == "83A-10"
    assert split_section_number("328", "328") is None
    assert split_section_number("3280", "328") is None  # a suffix never starts with 0
    assert split_subdivision_number("328C", "328") == "328-C"
    assert split_subdivision_number("32810", "328") is None
    assert split_part_number("345", "3") == "3-45"
    assert split_part_number("215", "2") == "2-15"


def test_restores_references_after_reference_words_only() -> None:
    known = ["328-110", "328-125", "152-49", "8-1", "1-1"]
    text = (
        "see section 15249 and subsection 328110(5); sections 328110 to 328125 apply; "
        "Division 328 is about 81 things; subsection 35(11) stays"
    )
    restored, count = restore_reference_hyphens(text, known)
    assert restored == (
        "see section 152-49 and subsection 328-110(5); sections 328-110 to 328-125 apply; "
        "Division 328 is about 81 things; subsection 35(11) stays"
    )
    assert count == 4


def test_ambiguous_digits_are_left_alone() -> None:
    restored, count = restore_reference_hyphens("section 111 applies", ["1-11", "11-1"])
    assert (restored, count) == ("section 111 applies", 0)
    assert reference_index(["1-11", "11-1"]) == {"111": None}


def test_number_printed_without_hyphen_is_kept() -> None:
    restored, count = restore_reference_hyphens("section 109D and section 1091", ["109D"])
    assert (restored, count) == ("section 109D and section 1091", 0)


numbers = st.builds(
    lambda a, b: f"{a}-{b}",
    st.integers(min_value=1, max_value=99),
    st.integers(min_value=1, max_value=99),
)


@given(
    st.lists(numbers, max_size=6),
    st.text(alphabet="abcsection 0123456789(),-\n", max_size=80),
)
def test_text_without_an_unambiguous_match_is_unchanged(known: list[str], text: str) -> None:
    index = reference_index(known)
    unique = {key for key, number in index.items() if number is not None and number != key}
    if any(key in re.findall(r"\d[0-9A-Z]*", text) for key in unique):
        return
    assert restore_reference_hyphens(text, known) == (text, 0)


@given(st.lists(numbers, min_size=1, max_size=6, unique=True))
def test_every_unique_number_cited_after_section_is_restored(known: list[str]) -> None:
    index = reference_index(known)
    for key, number in index.items():
        restored, count = restore_reference_hyphens(f"see section {key} here", known)
        if number is None:
            assert count == 0
        else:
            assert restored == f"see section {number} here"
            assert count == 1
