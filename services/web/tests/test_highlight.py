from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_web.highlight import QuoteMismatch, highlight


@given(st.text(max_size=200), st.data())
def test_the_highlight_is_exactly_the_range_and_rejoins_to_the_text(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    part = highlight(text, start, end, text[start:end])
    assert part.quote == text[start:end]
    assert part.before + part.quote + part.after == text
    assert len(part.before) == start


@given(st.text(min_size=1, max_size=100), st.data())
def test_a_quote_that_differs_from_the_range_is_refused(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    with pytest.raises(QuoteMismatch, match="not the verified quote"):
        highlight(text, start, end, text[start:end] + "x")


def test_a_range_outside_the_text_is_refused() -> None:
    with pytest.raises(QuoteMismatch, match="outside the source text"):
        highlight("abc", 2, 9, "c")
    with pytest.raises(QuoteMismatch, match="outside"):
        highlight("abc", 2, 1, "")
