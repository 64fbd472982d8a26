"""The one "in force" test and the span id's chunk (pure; hypothesis over days)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import assume, given
from hypothesis import strategies as st

from asat_corpus.chunking import SPAN_SEPARATOR, chunk_id_of
from asat_corpus.validity import in_force_during, in_force_on

DAYS = st.dates(min_value=date(2000, 1, 1), max_value=date(2030, 12, 31))


def test_half_open_interval_with_open_ends() -> None:
    start, end = date(2015, 7, 1), date(2017, 7, 1)
    assert in_force_on(start, end, start) and not in_force_on(start, end, end)
    assert in_force_on(None, end, date(1900, 1, 1)) and in_force_on(start, None, date(2100, 1, 1))
    assert in_force_during(start, end, date(2016, 7, 1), date(2017, 7, 1))
    assert not in_force_during(start, end, date(2017, 7, 1), date(2018, 7, 1))


@given(st.one_of(st.none(), DAYS), st.one_of(st.none(), DAYS), DAYS, st.integers(1, 400))
def test_in_force_during_a_period_is_in_force_on_one_of_its_days(
    valid_from: date | None, valid_to: date | None, start: date, length: int
) -> None:
    assume(valid_from is None or valid_to is None or valid_from < valid_to)  # a version's interval
    end = start + timedelta(days=length)
    some_day = any(in_force_on(valid_from, valid_to, start + timedelta(days=n)) for n in range(length))
    assert in_force_during(valid_from, valid_to, start, end) == some_day


@given(st.text(alphabet="abcdefghij0123456789:@-_.", min_size=1, max_size=40), st.integers(1, 999))
def test_chunk_id_of_a_span_id_is_the_chunk_it_was_made_from(chunk_id: str, n: int) -> None:
    assert chunk_id_of(f"{chunk_id}{SPAN_SEPARATOR}{n}") == chunk_id
