"""How far an index build has got, in numbers and in words: pure rules, no clock, no I/O.

The ingest service measures its build (phase, texts done of the phase's total, a sample of
``(time, done)`` per report) and states it with these rules; research and the web read the same
numbers back and word them with the same functions, so the percentage, the rate and the time left
are the same everywhere they are shown.

A build has three measured phases: ``embed`` (every distinct text to a vector; texts already in the
vector cache count at once), ``terms`` (every distinct text's search terms counted; those in the
term-count cache count at once) and ``index`` (every point written). Embedding is most of the work
on a cold build, so the whole build's percentage gives it 0 to 85%, the terms 85 to 92% and
writing 92 to 100%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EMBED = "embed"
TERMS = "terms"
WRITE = "index"
# Each phase's share of the whole build's percentage: (start, end).
PHASE_SPANS: dict[str, tuple[float, float]] = {EMBED: (0.0, 85.0), TERMS: (85.0, 92.0), WRITE: (92.0, 100.0)}
RATE_WINDOW_S = 120.0  # the rate is measured over the phase's last two minutes
RETRY_AFTER_UNKNOWN_S = 30
RETRY_AFTER_MIN_S = 5
RETRY_AFTER_MAX_S = 300


def build_percent(state: str, phase: str, done: int, total: int) -> float:
    """The whole build's percentage done (0 to 100), from its state and its phase's count. A build
    that has not succeeded is never 100%: the last point written is not the stamp."""
    if state == "succeeded":
        return 100.0
    span = PHASE_SPANS.get(phase)
    if span is None or total <= 0:
        return 0.0
    start, end = span
    share = min(max(done, 0), total) / total
    return min(start + (end - start) * share, 99.9)


def phase_rate(samples: Sequence[tuple[float, int]], window_s: float = RATE_WINDOW_S) -> float | None:
    """Items per second of one phase from its reports ``(time, done)``, oldest first, over the last
    ``window_s`` seconds. The first report is the baseline, never a step of speed: texts found in
    the vector cache are all reported at once at the start of the embedding. ``None`` until two
    reports some time apart exist."""
    if len(samples) < 2:
        return None
    last_time, last_done = samples[-1]
    earlier = [sample for sample in samples[:-1] if sample[0] >= last_time - window_s]
    base_time, base_done = earlier[0] if earlier else samples[-2]
    elapsed = last_time - base_time
    if elapsed <= 0:
        return None
    return max(last_done - base_done, 0) / elapsed


def seconds_left(done: int, total: int, rate: float | None) -> float | None:
    """The phase's time left at ``rate`` items per second; ``None`` while the rate is unknown or 0."""
    if rate is None or rate <= 0:
        return None
    return max(total - done, 0) / rate


def duration_words(seconds: float) -> str:
    """``under a minute``, ``about 31 min``, ``about 1 h 5 min``."""
    if seconds < 60:
        return "under a minute"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"about {minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes} min" if minutes else f"about {hours} h"


def rate_words(rate: float) -> str:
    """``8.1 texts/s``, ``1,234 texts/s``."""
    return f"{rate:,.0f} texts/s" if rate >= 10 else f"{rate:.1f} texts/s"


def phase_words(phase: str, done: int, total: int) -> str:
    """What the build is doing: ``embedding texts: 12,345 of 29,000``."""
    if phase == EMBED:
        return f"embedding texts: {done:,} of {total:,}"
    if phase == TERMS:
        return f"counting search terms: {done:,} of {total:,} texts"
    if phase == WRITE:
        return f"writing the index: {done:,} of {total:,} texts"
    return "starting: preparing the texts"


def percent_words(percent: float) -> str:
    """``42% done``: rounded down, so a build is never said to be done before it is."""
    return f"{math.floor(percent)}% done"


def progress_message(percent: float, phase: str, done: int, total: int, rate: float | None, left: float | None) -> str:
    """``index building, 42% done (embedding texts: 12,345 of 29,000; 8.1 texts/s; about 31 min left)``."""
    parts = [phase_words(phase, done, total)]
    parts.append(rate_words(rate) if rate is not None else "rate not measured yet")
    parts.append(f"{duration_words(left)} left" if left is not None else "time left not known yet")
    return f"index building, {percent_words(percent)} ({'; '.join(parts)})"


def failure_words(error: str | None) -> str:
    """The first line of a failed build's error: ``the index build failed: BuildError: ...``."""
    first = (error or "").strip().splitlines()
    return f"the index build failed: {first[0] if first else 'no error was recorded'}"


def retry_after_s(left: float | None) -> int:
    """``Retry-After`` seconds for a question refused while the index builds: the time left, kept
    between 5 s and 5 min (30 s while it is not known)."""
    if left is None:
        return RETRY_AFTER_UNKNOWN_S
    return min(max(math.ceil(left), RETRY_AFTER_MIN_S), RETRY_AFTER_MAX_S)
