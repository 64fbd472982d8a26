"""How far an index build has got, in numbers and words (``asat_corpus.build_progress``)."""

from __future__ import annotations

import pytest

from asat_corpus.build_progress import (
    build_percent,
    duration_words,
    failure_words,
    phase_rate,
    phase_words,
    progress_message,
    rate_words,
    retry_after_s,
    seconds_left,
)


@pytest.mark.parametrize(
    ("state", "phase", "done", "total", "percent"),
    [
        ("queued", "", 0, 0, 0.0),
        ("running", "embed", 0, 1000, 0.0),
        ("running", "embed", 500, 1000, 42.5),
        ("running", "embed", 1000, 1000, 85.0),
        ("running", "terms", 500, 1000, 88.5),
        ("running", "index", 500, 1000, 96.0),
        ("running", "index", 1000, 1000, 99.9),  # written, not yet stamped: never 100 before it succeeded
        ("failed", "embed", 500, 1000, 42.5),
        ("succeeded", "index", 1000, 1000, 100.0),
        ("running", "embed", 2000, 1000, 85.0),  # a count past the total is held at it
    ],
)
def test_the_whole_builds_percentage(state: str, phase: str, done: int, total: int, percent: float) -> None:
    assert build_percent(state, phase, done, total) == pytest.approx(percent)


def test_the_rate_starts_from_the_first_report_so_cached_texts_are_not_speed() -> None:
    assert phase_rate([]) is None
    assert phase_rate([(0.0, 20_000)]) is None  # the cache hits, all at once
    assert phase_rate([(0.0, 20_000), (10.0, 20_080)]) == pytest.approx(8.0)


def test_the_rate_is_over_the_last_two_minutes() -> None:
    slow_then_fast = [(0.0, 0), (100.0, 100), (200.0, 1100), (300.0, 2100)]
    assert phase_rate(slow_then_fast) == pytest.approx(10.0)  # (2100 - 1100) / 100 s: the older pace is gone
    assert phase_rate([(0.0, 0), (500.0, 100)]) == pytest.approx(0.2)  # no report in the window: the one before
    assert phase_rate([(5.0, 10), (5.0, 20)]) is None  # no time between reports


def test_time_left_is_unknown_without_a_rate() -> None:
    assert seconds_left(100, 1000, None) is None
    assert seconds_left(100, 1000, 0.0) is None
    assert seconds_left(100, 1000, 9.0) == pytest.approx(100.0)
    assert seconds_left(1200, 1000, 9.0) == 0.0


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(0, "under a minute"), (59, "under a minute"), (89, "about 1 min"), (1860, "about 31 min"),
     (3600, "about 1 h"), (3900, "about 1 h 5 min")],
)  # fmt: skip
def test_durations_in_words(seconds: float, words: str) -> None:
    assert duration_words(seconds) == words


def test_the_message_names_the_percentage_the_rate_and_the_time_left() -> None:
    assert rate_words(8.14) == "8.1 texts/s" and rate_words(1234.4) == "1,234 texts/s"
    assert phase_words("", 0, 0) == "starting: preparing the texts"
    assert progress_message(42.7, "embed", 12_345, 29_000, 8.1, 1860.0) == (
        "index building, 42% done (embedding texts: 12,345 of 29,000; 8.1 texts/s; about 31 min left)"
    )
    assert progress_message(0.0, "", 0, 0, None, None) == (
        "index building, 0% done (starting: preparing the texts; rate not measured yet; time left not known yet)"
    )
    assert phase_words("terms", 100, 2000) == "counting search terms: 100 of 2,000 texts"
    assert progress_message(95.0, "index", 512, 1024, 200.0, 2.56).startswith(
        "index building, 95% done (writing the index: 512 of 1,024 texts; 200 texts/s; under a minute left)"
    )


def test_a_failure_is_its_errors_first_line() -> None:
    error = "EmbedderError: the server stopped answering\nTraceback (most recent call last):\n  ..."
    assert failure_words(error) == "the index build failed: EmbedderError: the server stopped answering"
    assert failure_words(None) == "the index build failed: no error was recorded"


@pytest.mark.parametrize(("left", "after"), [(None, 30), (0.2, 5), (42.1, 43), (1860.0, 300)])
def test_retry_after_is_the_time_left_within_bounds(left: float | None, after: int) -> None:
    assert retry_after_s(left) == after
