"""Where the law as it now stands is not held, the text as it then stood (issue 24 item 4; pure).

A gap is a stretch in which a provision was in force but the text the law now gives it is not
held: an amendment whose commencement is uncertain, or one that reached back before it was made
(retrospective). On many of those days a held compilation still shows the text that was on the
books (the known-time axis, :meth:`ProvisionVersion.known_on`). That text is served for those days
*as it then stood*, with a caveat naming the later Act, its possible commencement dates and what
is not held. A gap between two held texts (one amending Act changed the text once; only the day
it commenced is uncertain) is served on every day: the earlier text as it then stood until the
Act changed it on the books, then the text the Act made, "as amended by" it, the caveat naming
the earlier text. Other days no held text covers on either axis stay gaps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from asat_corpus.income_year import income_years_overlapping
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
    gap_start: date | None = None  # the gap it serves (a provision's gaps never overlap)

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


def as_amended_caveat(later: ProvisionVersion, earlier: ProvisionVersion, gap: VersionGap) -> str:
    """The caveat for a day of a gap between two held texts after the amending Act was made and
    could have commenced: the later text, as that Act made it, is quoted; until the Act commenced
    for this provision, the earlier text applied."""
    acts = ", ".join(str(a) for a in gap.acts) or "the amending Act"
    shown = ", ".join(later.register_ids)
    return (
        f"quoted as amended by {acts}, the text first held in {shown}; until {acts} commenced for this "
        f"provision the text was {earlier.id}; {_gap_note(gap)}"
    )


def _uncovered(start: date, end: date, covered: Iterable[tuple[date, date]]) -> list[tuple[date, date]]:
    spans = []
    day = start
    for a, b in sorted(covered):
        if a > day:
            spans.append((day, min(a, end)))
        day = max(day, b)
        if day >= end:
            break
    if day < end:
        spans.append((day, end))
    return [(a, b) for a, b in spans if a < b]


def _between_tail(timeline: ProvisionTimeline, gap: VersionGap, found: Sequence[ThenStood]) -> list[ThenStood]:
    """Days of a gap between two held texts no compilation shows: before the earlier text stopped
    being the text on the books (its ``known_to``: the amending Act's assent or earliest possible
    commencement) the earlier text as it then stood; from then on the later text as the Act made
    it. Either way the caveat names both texts and the candidate commencement dates."""
    if gap.between is None:
        return []
    versions = {v.id: v for v in timeline.versions}
    earlier, later = versions.get(gap.between[0]), versions.get(gap.between[1])
    if earlier is None or later is None:
        return []
    split = earlier.known_to or gap.start
    tail = []
    for start, end in _uncovered(gap.start, gap.end, ((s.start, s.end) for s in found)):
        if start < split:
            cut = min(end, split)
            tail.append(ThenStood(earlier.id, start, cut, then_stood_caveat_for(earlier, gap), gap.start))
            start = cut
        if start < end:
            tail.append(ThenStood(later.id, start, end, as_amended_caveat(later, earlier, gap), gap.start))
    return tail


def then_stood_stretches(timeline: ProvisionTimeline) -> tuple[ThenStood, ...]:
    """Every stretch of every gap on which a held text was on the books (known time), and for a
    gap between two held texts (only the commencement uncertain) the rest of it (:func:`_between_tail`)."""
    stretches: list[ThenStood] = []
    for gap in timeline.gaps:
        found: list[ThenStood] = []
        for version in timeline.versions:
            if version.known_from is None:
                continue
            start = max(gap.start, version.known_from)
            end = gap.end if version.known_to is None else min(gap.end, version.known_to)
            if start < end:
                found.append(ThenStood(version.id, start, end, then_stood_caveat_for(version, gap), gap.start))
        stretches.extend(found)
        stretches.extend(_between_tail(timeline, gap, found))
    return tuple(sorted(stretches, key=lambda s: (s.start, s.version_id)))


def texts_served(stretches: Iterable[ThenStood], in_force: Iterable[str], start: date, end: date) -> tuple[str, ...]:
    """The distinct texts an answer for ``[start, end)`` may quote: each version in force then, and
    for each gap reached, its texts as they then stood, counted once (one answer's caveat names
    the texts of its gap, so quoting either is one reading, not a change during the period)."""
    texts = list(dict.fromkeys(in_force))
    by_gap: dict[object, list[str]] = {}
    for s in stretches:
        if s.start < end and s.end > start:
            key: object = s.gap_start if s.gap_start is not None else (s.version_id, s.start)
            by_gap.setdefault(key, [])
            if s.version_id not in by_gap[key]:
                by_gap[key].append(s.version_id)
    for ids in by_gap.values():
        rest = [i for i in ids if i not in texts]
        if len(rest) == len(ids):
            texts.append(" or ".join(ids))
        else:  # a text in force for part of the period: every other text is a change within it
            texts.extend(rest)
    return tuple(texts)


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
    spans = _uncovered(gap.start, gap.end, ((s.start, s.end) for s in stretches))
    return tuple(sorted({y for start, end in spans for y in income_years_overlapping(start, end, horizon)}))


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
