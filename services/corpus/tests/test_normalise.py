"""The one normalisation: its rule, and a position map that agrees with it for every input."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from asat_corpus.normalise import normalise, normalise_text, normalise_with_map

# Characters that make NFKC non-local: combining marks (in and out of canonical order), Hangul
# jamo that compose into syllables, starters that compose with the starter before them, NFKC
# expansions that produce spaces or combining marks, hyphens and odd spaces.
_TRICKY = (
    "e\u0301\u0323\u0302aAoO\u0308\u0338=<"  # combining marks, U+0338 composes with = and <
    "\u1100\u1161\u11a8\uac00\u3131\u314f\uffa1\uffc2"  # Hangul L, V, T, LV syllable, compat jamo
    "\u0b47\u0b3e\u0b57\u09c7\u09be"  # Oriya and Bengali vowel signs composing with a starter
    "\u00a8\u02d8\u0344\u0f73\u0f71\u0f72\u1fbf\u1fcd"  # NFKC to space + mark, or to two marks
    "\ufb01\ufb03\u2474\u00bd\u2460\uff21\u3000\u00a0\u2009\u200a"  # ligatures, enclosed, wide, spaces
    "\u2010\u2011-\u2013\u2014 \t\n\r\x0b\x0c\x1c\u0085\u2028"  # hyphens, dashes, whitespace
)
tricky_text = st.text(alphabet=st.sampled_from(_TRICKY), max_size=40)
any_text = st.one_of(st.text(max_size=60), tricky_text)


def test_normalise_applies_the_documented_rule() -> None:
    assert normalise("  \ufb01ne\u00a0print\u2011text \n\t 8\u20101  ") == "fine print-text 8-1"


def test_normalise_keeps_case_punctuation_and_dashes() -> None:
    assert normalise("Division 7A \u2013 *Loans*") == "Division 7A \u2013 *Loans*"


def test_normalise_composes_combining_sequences() -> None:
    assert normalise("cafe\u0301") == "caf\u00e9"


def test_combining_sequence_maps_to_both_original_characters() -> None:
    normalised = normalise_text("cafe\u0301 x")
    assert normalised.text == "caf\u00e9 x"
    assert normalised.original_range(3, 4) == (3, 5)
    assert normalised.original_range(0, 4) == (0, 5)


def test_whitespace_run_maps_to_the_whole_run() -> None:
    normalised = normalise_text("a \n\t b")
    assert normalised.text == "a b"
    assert normalised.original_range(1, 2) == (1, 5)
    assert normalised.original_range(0, 3) == (0, 6)


def test_ligature_maps_each_output_letter_to_the_ligature() -> None:
    normalised = normalise_text("\ufb01ne")
    assert normalised.text == "fine"
    assert normalised.original_range(1, 4) == (0, 3)


def test_out_of_range_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="outside the normalised text"):
        normalise_text("abc").original_range(2, 9)


@given(any_text)
@example("e\u0301\u0323")
@example("\u1100\u1161\u11a8")
@example("\u0b47\u0b3e")
@example(" \u00a8 x")
@settings(max_examples=400)
def test_map_text_equals_normalise(text: str) -> None:
    out, mapping = normalise_with_map(text)
    assert out == normalise(text)
    assert normalise_text(text).text == normalise(text)
    assert len(mapping) == len(out) + 1
    assert mapping[-1] == len(text)


@given(any_text)
@settings(max_examples=300)
def test_positions_are_monotonic_and_inside_the_original(text: str) -> None:
    normalised = normalise_text(text)
    assert len(normalised.starts) == len(normalised.ends) == len(normalised.text)
    for index, (start, end) in enumerate(zip(normalised.starts, normalised.ends, strict=True)):
        assert 0 <= start < end <= len(text)
        if index:
            assert normalised.starts[index - 1] <= start
            assert normalised.ends[index - 1] <= end


@given(any_text, st.data())
@settings(max_examples=400)
def test_mapped_range_covers_the_matched_characters(text: str, data: st.DataObject) -> None:
    normalised = normalise_text(text)
    size = len(normalised.text)
    start = data.draw(st.integers(0, size))
    end = data.draw(st.integers(start, size))
    a, b = normalised.original_range(start, end)
    assert 0 <= a <= b <= len(text)
    matched = normalised.text[start:end]
    # The original range produces at least the matched text ...
    assert normalise(matched) in normalise(text[a:b])
    if start == end:
        return
    # ... and is tight: it starts where the first matched character's source starts and ends
    # where the last one's ends.
    assert (a, b) == (normalised.starts[start], normalised.ends[end - 1])
    aligned = (start == 0 or normalised.ends[start - 1] <= a) and (end == size or normalised.starts[end] >= b)
    if aligned and matched == matched.strip():
        assert normalise(text[a:b]) == matched
