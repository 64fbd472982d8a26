"""Provisions a question names, and whether their text for the income year is held (pure).

A tax agent who asks "which edition of the guidelines did s 815-135 refer to in 2018-19?" asks
about that section's text then. When the corpus does not hold that text (a gap between the
compilations held) or the section did not exist yet, the answer must say so, not quote the
neighbouring law that retrieval finds instead.

Only explicit references count: ``s 815-135``, ``section 8-1``, ``subsection 290-230(2)``,
``ss 109D``. A bare number ("$13,800", "2019-20") is never read as a provision.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from asat_corpus.provision import ProvisionTimeline
from asat_corpus.resolution import Status, resolve, resolve_as_known
from asat_corpus.then_stood import then_stood_stretches

_REFERENCE = re.compile(
    r"\b(?:s|ss|section|sections|subsection|sub-section)\.?\s+(\d{1,4}[A-Z]{0,4}(?:-\d{1,4}[A-Z]{0,3})?)\b"
    r"(?:\(\d+[A-Z]?\))?",
    re.IGNORECASE,
)


def named_provisions(question: str) -> tuple[str, ...]:
    """The provision numbers the question names explicitly, in order, without repeats."""
    return tuple(dict.fromkeys(m.group(1).upper() for m in _REFERENCE.finditer(question)))


@dataclass(frozen=True)
class UnheldProvision:
    label: str  # "itaa1997 815-135"
    status: Status  # GAP or NOT_YET_ENACTED
    message: str  # resolution's words, with the amending Acts


def unheld_named_provision_known(timelines: Iterable[ProvisionTimeline], day: date) -> UnheldProvision | None:
    """Known time: the first timeline of a named number whose text on the books on ``day`` no
    held compilation shows, when no Act shows a text of that number that day."""
    found = list(timelines)
    resolutions = [(t, resolve_as_known(t, day)) for t in found]
    if not found or any(r.version is not None for _, r in resolutions):
        return None
    timeline, resolution = resolutions[0]
    return UnheldProvision(f"{timeline.act} {timeline.number}", Status.GAP, resolution.message)


def unheld_named_provision(timelines: Iterable[ProvisionTimeline], income_year: int) -> UnheldProvision | None:
    """For the timelines of one named number (one per Act that has it): the first whose text for
    ``income_year`` is not held, when no Act holds a text of that number in force in the year."""
    found = list(timelines)
    if not found or any(income_year in v.income_years for t in found for v in t.versions):
        return None
    start_day, end_day = date(income_year - 1, 7, 1), date(income_year, 7, 1)
    if any(s.start < end_day and s.end > start_day for t in found for s in then_stood_stretches(t)):
        return None  # a text is served as it then stood, with its caveat
    start, end = date(income_year - 1, 7, 1), date(income_year, 6, 30)
    for timeline in found:
        for day in (end, start):
            resolution = resolve(timeline, day)
            if resolution.status in (Status.GAP, Status.NOT_YET_ENACTED):
                return UnheldProvision(f"{timeline.act} {timeline.number}", resolution.status, resolution.message)
    return None
