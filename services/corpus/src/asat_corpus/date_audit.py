"""What the dating serves, per income year and cause, before and after issue 24's rules (pure).

Input: the timelines dated with the rules off (:data:`asat_corpus.versioning.BEFORE_ISSUE_24`)
and on. Output: :class:`DateAudit`, which ``python -m asat_corpus audit-dates`` prints.

A provision counts in an income year when a version or a gap of it touches the year; it has
*nothing servable* when no version is in force on any day of the year. Its cause is the reason of
a gap in that year (the gap that leaves the most unheld if there are several:
amended before the earliest compilation, amended more than once, no amendment recorded,
commencement uncertain). After the rules, a year
reached by a text as it then stood (:mod:`asat_corpus.then_stood`: a held compilation shows the
text on the books on some day of it) is *servable with a caveat*, as research serves it; what is left must
be a text genuinely not held or a pair kept apart with a stated reason, else the target is missed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from asat_corpus.income_year import income_years_overlapping
from asat_corpus.provision import ProvisionTimeline, TextComparison, VersionGap
from asat_corpus.resolution import resolve_as_known
from asat_corpus.then_stood import then_stood_stretches, then_stood_years
from asat_corpus.versioning import (
    REASON_AMENDED_BEFORE_EARLIEST,
    REASON_AMENDED_MORE_THAN_ONCE,
    REASON_COMMENCEMENT_UNCERTAIN,
    REASON_NO_AMENDMENT_RECORDED,
)

Timelines = Mapping[tuple[str, str], ProvisionTimeline]

CAUSES: tuple[tuple[str, str], ...] = (
    ("no_amendment_recorded", REASON_NO_AMENDMENT_RECORDED),
    ("commencement_uncertain", REASON_COMMENCEMENT_UNCERTAIN),
    ("amended_more_than_once", REASON_AMENDED_MORE_THAN_ONCE),
    ("amended_before_earliest", REASON_AMENDED_BEFORE_EARLIEST),
)
_PRECEDENCE = (
    REASON_AMENDED_BEFORE_EARLIEST,
    REASON_AMENDED_MORE_THAN_ONCE,
    REASON_NO_AMENDMENT_RECORDED,
    REASON_COMMENCEMENT_UNCERTAIN,
)
HONEST = frozenset({"amended_more_than_once", "amended_before_earliest", "no_amendment_recorded"})


@dataclass(frozen=True)
class YearRow:
    year: int
    provisions: int
    none_servable: int
    by_cause: dict[str, int]
    servable_with_caveat: int = 0  # one of two held texts, only the day of change uncertain
    unservable_by_cause: dict[str, int] = field(default_factory=dict)

    @property
    def unservable(self) -> int:
        return sum(self.unservable_by_cause.values())

    @property
    def unexplained(self) -> int:
        """Unservable provisions whose cause is not a text genuinely not held or a stated keep-apart."""
        return sum(n for cause, n in self.unservable_by_cause.items() if cause not in HONEST)


@dataclass(frozen=True)
class PairListing:
    act: str
    number: str
    comparison: TextComparison
    # For a pair kept apart: the amending Act a part of which, by item 2, changed the text between
    # the two compilations (the pair is then dated, not a gap); empty when none is known.
    dated_by: str = ""


def _dated_by(timeline: ProvisionTimeline, comparison: TextComparison) -> str:
    earlier = next((v for v in timeline.versions if comparison.earlier_register_id in v.register_ids), None)
    if earlier is None or not earlier.to_bound.acts or earlier.to_bound.day is None:
        return ""
    acts = ", ".join(str(a) for a in earlier.to_bound.acts)
    return f"{acts} (text changed from {earlier.to_bound.day})"


@dataclass(frozen=True)
class KnownTimeCounts:
    pairs: int  # version-in-compilation pairs
    outside_validity: int  # the compilation's date lies outside the version's valid interval
    servable_on_known_axis: int  # of those, served on that date by resolve_as_known


@dataclass(frozen=True)
class DateAudit:
    years: tuple[int, ...]
    before: tuple[YearRow, ...]
    after: tuple[YearRow, ...]
    gaps_before: dict[str, int]
    gaps_after: dict[str, int]
    merges: tuple[PairListing, ...]
    kept_apart: tuple[PairListing, ...]
    kept_apart_before: int
    narrowed_gaps: int  # uncertain or multi-amendment gaps before that are shorter or gone after
    known_before: KnownTimeCounts
    known_after: KnownTimeCounts

    @property
    def target_met(self) -> bool:
        return all(row.unexplained == 0 for row in self.after)


def _cause_key(reason: str) -> str:
    for key, text in CAUSES:
        if reason == text:
            return key
    return "other"


def _worst(gaps: Sequence[VersionGap]) -> str:
    reasons = {g.reason for g in gaps}
    for reason in _PRECEDENCE:
        if reason in reasons:
            return _cause_key(reason)
    return _cause_key(next(iter(reasons)))


def year_row(timelines: Iterable[ProvisionTimeline], year: int, horizon: int, caveats: bool) -> YearRow:
    """One row of the table: provisions touching ``year`` and those with nothing servable, by cause."""
    provisions = none = caveated = 0
    by_cause: dict[str, int] = {key: 0 for key, _ in CAUSES}
    unservable: dict[str, int] = {key: 0 for key, _ in CAUSES}
    for timeline in timelines:
        in_year = any(year in v.income_years for v in timeline.versions)
        gaps = [g for g in timeline.gaps if year in income_years_overlapping(g.start, g.end, horizon)]
        if not in_year and not gaps:
            continue
        provisions += 1
        if in_year:
            continue
        none += 1
        cause = _worst(gaps)
        by_cause[cause] = by_cause.get(cause, 0) + 1
        if caveats and year in then_stood_years(then_stood_stretches(timeline), horizon):
            caveated += 1
        else:
            unservable[cause] = unservable.get(cause, 0) + 1
    return YearRow(year, provisions, none, by_cause, caveated, unservable)


def known_time_counts(timelines: Iterable[ProvisionTimeline], with_known_axis: bool) -> KnownTimeCounts:
    pairs = outside = servable = 0
    for timeline in timelines:
        for version in timeline.versions:
            for day in version.compilation_dates:
                pairs += 1
                if version.in_force_on(day):
                    continue
                outside += 1
                if with_known_axis and resolve_as_known(timeline, day).version == version:
                    servable += 1
    return KnownTimeCounts(pairs, outside, servable)


def _gap_counts(timelines: Iterable[ProvisionTimeline]) -> dict[str, int]:
    counts: dict[str, int] = {key: 0 for key, _ in CAUSES}
    for timeline in timelines:
        for gap in timeline.gaps:
            key = _cause_key(gap.reason)
            counts[key] = counts.get(key, 0) + 1
    return counts


def _narrowed(before: Timelines, after: Timelines) -> int:
    narrowed = 0
    for key, timeline in before.items():
        later = after.get(key)
        spans = {(g.start, g.end) for g in later.gaps} if later else set()
        for gap in timeline.gaps:
            if gap.reason in (REASON_COMMENCEMENT_UNCERTAIN, REASON_AMENDED_MORE_THAN_ONCE) and (
                (gap.start, gap.end) not in spans
            ):
                narrowed += 1
    return narrowed


def audit(before: Timelines, after: Timelines, years: Sequence[int], horizon: int) -> DateAudit:
    """Compare the dating without and with issue 24's rules (see the module doc)."""
    merges = tuple(PairListing(t.act, t.number, c) for t in after.values() for c in t.comparisons if c.merged)
    kept = tuple(
        PairListing(t.act, t.number, c, _dated_by(t, c)) for t in after.values() for c in t.comparisons if not c.merged
    )
    kept_before = sum(1 for t in before.values() for g in t.gaps if g.reason == REASON_NO_AMENDMENT_RECORDED)
    return DateAudit(
        years=tuple(years),
        before=tuple(year_row(before.values(), y, horizon, caveats=False) for y in years),
        after=tuple(year_row(after.values(), y, horizon, caveats=True) for y in years),
        gaps_before=_gap_counts(before.values()),
        gaps_after=_gap_counts(after.values()),
        merges=merges,
        kept_apart=kept,
        kept_apart_before=kept_before,
        narrowed_gaps=_narrowed(before, after),
        known_before=known_time_counts(before.values(), with_known_axis=False),
        known_after=known_time_counts(after.values(), with_known_axis=True),
    )


def parse_years(text: str) -> tuple[int, ...]:
    """``2016-2026`` or ``2020`` or ``2016,2020,2025`` to income years; ValueError says the form."""
    years: list[int] = []
    try:
        for part in text.split(","):
            if "-" in part:
                first, last = (int(x) for x in part.split("-", 1))
                if last < first:
                    raise ValueError
                years.extend(range(first, last + 1))
            else:
                years.append(int(part))
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a list of income years: use 2016-2026 or 2016,2020") from exc
    return tuple(dict.fromkeys(years))
