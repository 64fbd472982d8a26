from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from asat_web.diff import DiffOp, DiffSegment, diff_texts, side, tokens

words = st.lists(
    st.sampled_from(["$2", "$10", "million", "less", "than", "turnover", "\n", "  ", " ", "(a)"]), max_size=30
)


@given(words, words)
def test_segments_read_back_as_either_text(old: list[str], new: list[str]) -> None:
    a, b = " ".join(old), " ".join(new)
    segments = diff_texts(a, b)
    assert side(segments, DiffOp.DELETE) == a
    assert side(segments, DiffOp.INSERT) == b
    assert all(s.text for s in segments)
    assert all(x.op is not y.op for x, y in itertools.pairwise(segments))


@given(st.text(max_size=100))
def test_tokens_rejoin(text: str) -> None:
    assert "".join(tokens(text)) == text


def test_a_changed_threshold_is_a_deletion_then_an_insertion() -> None:
    old = "aggregated turnover is less than $2 million."
    new = "aggregated turnover is less than $10 million."
    assert diff_texts(old, new) == (
        DiffSegment(DiffOp.EQUAL, "aggregated turnover is less than "),
        DiffSegment(DiffOp.DELETE, "$2"),
        DiffSegment(DiffOp.INSERT, "$10"),
        DiffSegment(DiffOp.EQUAL, " million."),
    )


def test_identical_texts_are_one_equal_segment() -> None:
    assert diff_texts("same text", "same text") == (DiffSegment(DiffOp.EQUAL, "same text"),)
    assert diff_texts("", "") == ()
