"""Which text of a provision was in force on a day, or why none can be served."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from asat_corpus.provision import BoundMethod, ProvisionTimeline, ProvisionVersion, VersionGap


class Status(StrEnum):
    IN_FORCE = "in_force"
    GAP = "text_not_held"  # in force, but the text on that day is not in the corpus
    NOT_YET_ENACTED = "not_yet_enacted"
    NOT_IN_FORCE = "not_in_force"  # repealed by then
    NOT_HELD = "not_held"  # outside what the corpus can date (before the earliest or after the last text)


@dataclass(frozen=True)
class Resolution:
    status: Status
    day: date
    version: ProvisionVersion | None
    gap: VersionGap | None
    message: str


def _acts(gap: VersionGap) -> str:
    return ", ".join(str(a) for a in gap.acts) or "no amending Act recorded"


def resolve(timeline: ProvisionTimeline, day: date) -> Resolution:
    """The version in force on ``day``, or a reason (pure)."""
    label = f"{timeline.act} {timeline.number}"
    for version in timeline.versions:
        if version.in_force_on(day):
            return Resolution(Status.IN_FORCE, day, version, None, f"{label}: in force on {day}")
    for gap in timeline.gaps:
        if gap.start <= day < gap.end:
            return Resolution(
                Status.GAP,
                day,
                None,
                gap,
                f"{label}: text not held for {day} (gap {gap.start} to {gap.end}, {gap.reason}; "
                f"amended by {_acts(gap)})",
            )
    starts = [v.valid_from for v in timeline.versions] + [g.start for g in timeline.gaps]
    if starts and day < min(starts):
        if timeline.added_by is not None or any(g.start == min(starts) for g in timeline.gaps):
            by = f" (added by {timeline.added_by})" if timeline.added_by else ""
            return Resolution(
                Status.NOT_YET_ENACTED,
                day,
                None,
                None,
                f"{label}: not yet enacted on {day}{by}; in force from {min(starts)}",
            )
        first = min(timeline.versions, key=lambda v: v.valid_from) if timeline.versions else None
        if first is not None and first.from_bound.method is BoundMethod.ACT_COMMENCEMENT:
            return Resolution(Status.NOT_YET_ENACTED, day, None, None, f"{label}: the Act had not commenced on {day}")
        return Resolution(
            Status.NOT_HELD,
            day,
            None,
            None,
            f"{label}: text not held for {day}; the earliest text held is in force from {min(starts)}",
        )
    if timeline.repealed_by is not None:
        return Resolution(
            Status.NOT_IN_FORCE,
            day,
            None,
            None,
            f"{label}: not in force on {day} (repealed by {timeline.repealed_by})",
        )
    ends = [v.valid_to for v in timeline.versions if v.valid_to is not None]
    last = max(ends) if ends else None
    return Resolution(
        Status.NOT_HELD,
        day,
        None,
        None,
        f"{label}: text not held for {day}" + (f"; the last text held is in force until {last}" if last else ""),
    )
