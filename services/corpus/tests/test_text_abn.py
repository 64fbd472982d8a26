"""ABN modulus-89 checksum."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.text.abn import abn_digits, abn_is_valid, complete_abn, format_abn

NINE_DIGITS = st.text(alphabet="0123456789", min_size=9, max_size=9)


def test_known_valid_abn() -> None:
    assert abn_is_valid("51824753556")  # the ATO's published example


def test_known_invalid_abn() -> None:
    assert not abn_is_valid("51824753557")


def test_rejects_wrong_length_letters_and_leading_zero() -> None:
    assert not abn_is_valid("5182475355")
    assert not abn_is_valid("5182475355a")
    assert not abn_is_valid("01824753556")


def test_digits_from_printed_forms() -> None:
    assert abn_digits("ABN 51 824 753 556") == "51824753556"
    assert abn_digits("51 824 753") is None
    assert format_abn("51824753556") == "51 824 753 556"


@given(NINE_DIGITS)
def test_completed_abn_is_valid(last_nine: str) -> None:
    abn = complete_abn(last_nine)
    assert abn.endswith(last_nine)
    assert abn_is_valid(abn)


@given(NINE_DIGITS, st.integers(0, 10), st.integers(1, 9))
def test_any_single_digit_change_is_caught(last_nine: str, position: int, delta: int) -> None:
    abn = complete_abn(last_nine)
    changed = abn[:position] + str((int(abn[position]) + delta) % 10) + abn[position + 1 :]
    assert not abn_is_valid(changed)
