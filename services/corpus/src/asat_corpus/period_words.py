"""A question's own words for its period, replaced by the words for another period (pure).

Two places ask a question again for a period other than the one its words name: the web's
period-conflict choice "ask for the chosen period" (``asat_web.outcome.conflict_view``) and
research's "how has this changed?" runs, one per income year (``asat_research.across_years``).
Both reword the question with :func:`reword_period`, so the question sent names the period it is
asked for and research does not refuse it as ``period_conflict``.

Which words of a question name a period is research's reading (``asat_research.temporal``); the
period conflict carries them (``matched``) to the web, and research passes its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date


def period_words(income_year: int | None = None, as_of: date | str | None = None) -> str:
    """``income year 2027``, or ``as at 2026-08-01`` for a day: words research reads back as that
    period. Give exactly one of the two."""
    if (income_year is None) == (as_of is None):
        raise ValueError("give one period: an income year or an as-at day")
    if as_of is not None:
        return f"as at {as_of.isoformat() if isinstance(as_of, date) else as_of}"
    return f"income year {income_year}"


def reword_period(question: str, matched: Iterable[str], words: str) -> str:
    """``question`` with each of ``matched`` (the question's words for its period, e.g. ``FY2024``
    or ``as at 1 July 2016``) replaced by ``words``, wherever it stands as whole words; the rest is
    unchanged. Words not in the question are ignored; the replacement is one pass, so ``words`` is
    never replaced again."""
    wanted = sorted({m for m in matched if m.strip()}, key=len, reverse=True)  # the longest first
    if not wanted:
        return question
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(m) for m in wanted) + r")(?!\w)")
    return pattern.sub(lambda _: words, question)
