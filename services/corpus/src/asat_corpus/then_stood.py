"""Where the law as it now stands is not held, the text as it then stood (issue 24 item 4; pure).

A gap is a stretch in which a provision was in force but the text the law now gives it is not
held: an amendment whose commencement is uncertain, or one that reached back before it was made
(retrospective). On many of those days a held compilation still shows the text that was on the
books (the known-time axis, :meth:`ProvisionVersion.known_on`). That text is served for those days
*as it then stood*, with a caveat naming the later Act, its possible commencement dates and what
is not held; days no held text covers on either axis stay gaps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from asat_corpus.income_year import income_year_end, income_year_start, income_years_overlapping
from asat_corpus.provision import ProvisionTimeline, ProvisionVersion, VersionGap
from asat_corpus.resolution import then_stood_caveat


@dataclass(frozen=True)
class ThenStood:
    """``version_id`` was the text on the books on every day of ``[start, end)``, a stretch of
    ``gap`` whose text as the law now stands is not held."""

    version_id: str
    start: date
    end: date  # exclusive
    caveat: str

    def covers(self, day: date) -> bool:
        return self.start <= day < self.end


def _gap_note(gap: VersionGap) -> str:
    acts = ", ".join(str(a) for a in gap.acts) or "no amending Act recorded"
    last = (gap.end - timedelta(days=1)).isoformat()
    if gap.between is not None:
        head = (
            f"as the law now stands, the text in force from {gap.start.isoformat()} to {last} is either "
            f"{gap.between[0]} or {gap.between[1]}, depending on when {acts} commenced ({gap.reason})"
        )
    else:
        head = (
            f"as the law now stands, the text in force from {gap.start.isoformat()} to {last} is not held "
            f"({gap.reason}; amended by {acts})"
        )
    if gap.candidates:
        head += "; the amendment commenced on one of " + ", ".join(d.isoformat() for d in gap.candidates)
    if gap.retrospective:
        head += "; the amendment is retrospective (it reaches back before the Act's assent)"
    return head


def then_stood_caveat_for(version: ProvisionVersion, gap: VersionGap) -> str:
    """The caveat an answer quoting ``version`` for a day of ``gap`` carries."""
    return f"{then_stood_caveat(version)}; {_gap_note(gap)}"


def then_stood_stretches(timeline: ProvisionTimeline) -> tuple[ThenStood, ...]:
    """Every stretch of every gap on which a held text was on the books (known time)."""
    stretches: list[ThenStood] = []
    for gap in timeline.gaps:
        for version in timeline.versions:
            if version.known_from is None:
                continue
            start = max(gap.start, version.known_from)
            end = gap.end if version.known_to is None else min(gap.end, version.known_to)
            if start < end:
                stretches.append(ThenStood(version.id, start, end, then_stood_caveat_for(version, gap)))
    return tuple(sorted(stretches, key=lambda s: (s.start, s.version_id)))


def stretches_of(stretches: Iterable[ThenStood], version_id: str) -> tuple[ThenStood, ...]:
    return tuple(s for s in stretches if s.version_id == version_id)


def then_stood_years(stretches: Iterable[ThenStood], horizon: int) -> tuple[int, ...]:
    """The income years with at least one day served as it then stood."""
    years: set[int] = set()
    for stretch in stretches:
        years.update(income_years_overlapping(stretch.start, stretch.end, horizon))
    return tuple(sorted(years))


def uncovered_years(gap: VersionGap, stretches: Iterable[ThenStood], horizon: int) -> tuple[int, ...]:
    """The income years in which some day of ``gap`` has no text on either axis: the years its
    "text not held" marker still stands for."""
    covering = sorted((s.start, s.end) for s in stretches if s.start < gap.end and s.end > gap.start)
    years = []
    for year in income_years_overlapping(gap.start, gap.end, horizon):
        day = max(gap.start, income_year_start(year))
        last = min(gap.end, income_year_end(year))  # exclusive
        for start, end in covering:
            if start <= day < end:
                day = end
        if day < last:
            years.append(year)
    return tuple(years)


def marker_years(gap: VersionGap, stretches: Iterable[ThenStood], horizon: int) -> tuple[int, ...]:
    """The income years the gap's "text not held" marker stands for.

    A gap whose text is not held keeps its marker in every year with a day no stretch covers. A
    gap between two held texts (only the commencement uncertain, ``gap.between``) keeps it only
    in the years no stretch reaches: in the others the text as it then stood is served, its caveat
    naming both texts and the candidate dates.
    """
    if gap.between is None:
        return uncovered_years(gap, stretches, horizon)
    reached = then_stood_years((s for s in stretches if s.start < gap.end and s.end > gap.start), horizon)
    return tuple(y for y in income_years_overlapping(gap.start, gap.end, horizon) if y not in reached)
