"""Which text of a provision was in force on a day, or why none can be served."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion, VersionGap


class Status(StrEnum):
    IN_FORCE = "in_force"
    GAP = "text_not_held"  # in force, but the text on that day is not in the corpus
    NOT_YET_ENACTED = "not_yet_enacted"
    NOT_IN_FORCE = "not_in_force"  # repealed by then
    NOT_HELD = "not_held"  # outside what the corpus can date (before the earliest or after the last text)
    AS_THEN_STOOD = "as_then_stood"  # known time only: the text on the books then, not the law as it now stands


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


def _when(bound: Bound | None) -> str:
    if bound is None or bound.day is None:
        return "a later date"
    if bound.widest is not None and bound.widest != bound.day:
        days = ", ".join(d.isoformat() for d in bound.candidates) or f"{bound.day} to {bound.widest}"
        return f"a date not certain (one of {days})"
    return bound.day.isoformat()


def then_stood_caveat(version: ProvisionVersion) -> str:
    """What a reader of ``version`` as it then stood must be told about the law as it now stands.

    For example: "as it then stood (C2015C00284, 2015-06-25); amended by Act No. 70, 2015 with
    effect from 2015-03-05 (retrospective; the amended text is not held)".
    """
    shown = ", ".join(version.register_ids)
    held = ", ".join(d.isoformat() for d in version.compilation_dates)
    head = f"as it then stood ({shown}{'; ' + held if held else ''})"
    bound = version.to_bound
    if version.valid_to is None or not bound.acts:
        return head
    acts = ", ".join(str(a) for a in bound.acts)
    retro = "retrospective; " if bound.retrospective else ""
    return f"{head}; amended by {acts} with effect from {_when(bound)} ({retro}the amended text is not held)"


def resolve_as_known(timeline: ProvisionTimeline, day: date) -> Resolution:
    """The text on the books on ``day``: as the latest held compilation on or before ``day`` shows
    it, unless an amending Act had already changed it (known time; pure).

    ``IN_FORCE`` where that text is also the law as it now stands for ``day``; ``AS_THEN_STOOD``
    where the law as it now stands differs or is uncertain (a retrospective amendment, an uncertain
    commencement; the message carries :func:`then_stood_caveat`); ``GAP`` where an amending Act
    changed the text before the next held compilation; ``NOT_HELD`` before the earliest held
    compilation or after the last known text.
    """
    label = f"{timeline.act} {timeline.number}"
    for version in timeline.versions:
        if version.known_on(day):
            if version.in_force_on(day):
                return Resolution(Status.IN_FORCE, day, version, None, f"{label}: in force on {day}")
            return Resolution(
                Status.AS_THEN_STOOD,
                day,
                version,
                None,
                f"{label}: the text on the books on {day}, {then_stood_caveat(version)}",
            )
    known = sorted((v for v in timeline.versions if v.known_from is not None), key=lambda v: v.known_from or day)
    before = [v for v in known if (v.known_to is not None and v.known_to <= day)]
    after = [v for v in known if v.known_from is not None and v.known_from > day]
    if before and after:
        changed = before[-1].known_to_bound
        acts = ", ".join(str(a) for a in changed.acts) if changed else ""
        by = f" by {acts}" if acts else ""
        return Resolution(
            Status.GAP,
            day,
            None,
            None,
            f"{label}: text on the books on {day} not held (changed{by} after {before[-1].id}; "
            f"the next held text is {after[0].id} from {after[0].known_from})",
        )
    return Resolution(
        Status.NOT_HELD,
        day,
        None,
        None,
        f"{label}: no held compilation shows the text on {day}; resolve() gives the law as it now stands for that day",
    )


def texts_between(timeline: ProvisionTimeline, gap: VersionGap) -> tuple[ProvisionVersion, ProvisionVersion] | None:
    """The two held texts one of which applied on each day of ``gap``, when only the day of a single
    amendment is uncertain (``gap.between``); ``None`` when the text in between is not held."""
    if gap.between is None:
        return None
    by_id = {v.id: v for v in timeline.versions}
    earlier, later = by_id.get(gap.between[0]), by_id.get(gap.between[1])
    if earlier is None or later is None:
        return None
    return earlier, later
