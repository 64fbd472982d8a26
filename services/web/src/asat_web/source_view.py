"""The source viewer's content: the version, its verified quote at its exact range, its
timeline (both time axes, gaps and retrospective amendments) and the difference from an adjacent
version (pure, over the research service's JSON)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asat_web.highlight import Highlight, QuoteMismatch, highlight


@dataclass(frozen=True)
class BoundView:
    """One end of an interval: the certain ``day`` and, where uncertain, the ``widest`` day it may
    reach, the candidate commencements and the amending Acts."""

    day: str | None
    widest: str | None = None
    candidates: tuple[str, ...] = ()
    acts: tuple[str, ...] = ()

    @property
    def uncertain(self) -> bool:
        return self.widest is not None and self.widest != self.day


@dataclass(frozen=True)
class TimelineItem:
    """A version, a gap or a retrospective amendment of the provision (research's timeline JSON).

    Versions: ``valid_from``/``valid_to`` are the certain days in force (the law as it now stands),
    ``valid_bounds`` their evidence; ``known_from``/``known_to`` when the text was on the books
    (the law as it then stood), ``known_bounds`` theirs. Gaps: ``held`` is ``"one_of_two"`` where
    the text is one of the two held texts and only the commencement of ``acts`` is uncertain (one
    of ``candidates``), else ``"not_held"``. Retrospective amendments: ``acts[0]`` assented on
    ``assent`` and reached back to ``commencement`` (``valid_from``).
    """

    kind: str  # "version" | "gap" | "retrospective"
    id: str | None
    valid_from: str
    valid_to: str | None
    register_ids: tuple[str, ...]
    reason: str
    current: bool
    valid_bounds: tuple[BoundView, BoundView] | None = None
    known_from: str | None = None
    known_to: str | None = None
    known_bounds: tuple[BoundView, BoundView] | None = None
    compilation_dates: tuple[str, ...] = ()
    held: str = ""
    acts: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    assent: str | None = None
    commencement: str | None = None


def timeline_items(source: Mapping[str, Any]) -> tuple[TimelineItem, ...]:
    """The provision's versions, gaps and retrospective amendments, sorted by start, the shown
    version marked current. Fields research did not send (an older research) are left empty."""
    items = []
    for raw in source.get("timeline") or []:
        kind = str(raw.get("type", "version"))
        items.append(
            TimelineItem(
                kind=kind,
                id=raw.get("id") if kind == "version" else None,
                valid_from=str(raw.get("valid_from")),
                valid_to=raw.get("valid_to"),
                register_ids=tuple(raw.get("register_ids") or ()),
                reason=str(raw.get("reason") or ""),
                current=kind == "version" and raw.get("id") == source.get("id"),
                valid_bounds=_bounds(raw, "valid_from_bound", "valid_to_bound"),
                known_from=raw.get("known_from"),
                known_to=raw.get("known_to"),
                known_bounds=_bounds(raw, "known_from_bound", "known_to_bound"),
                compilation_dates=_strings(raw.get("compilation_dates")),
                held=str(raw.get("held") or ("not_held" if kind == "gap" else "")),
                acts=(str(raw["act"]),) if kind == "retrospective" and raw.get("act") else _strings(raw.get("acts")),
                candidates=_strings(raw.get("candidates")),
                assent=raw.get("assent"),
                commencement=raw.get("commencement"),
            )
        )
    return tuple(sorted(items, key=lambda i: i.valid_from))


def _bounds(raw: Mapping[str, Any], start: str, end: str) -> tuple[BoundView, BoundView] | None:
    first, last = raw.get(start), raw.get(end)
    if not isinstance(first, Mapping) or not isinstance(last, Mapping):
        return None
    return _bound(first), _bound(last)


def _bound(raw: Mapping[str, Any]) -> BoundView:
    widest = raw.get("widest")
    return BoundView(
        day=raw.get("day"),
        widest=str(widest) if widest else None,
        candidates=_strings(raw.get("candidates")),
        acts=_strings(raw.get("acts")),
    )


def _strings(raw: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in raw) if isinstance(raw, list | tuple) else ()


def adjacent_versions(items: Sequence[TimelineItem]) -> tuple[str | None, str | None]:
    """The ids of the versions just before and just after the current one (gaps skipped)."""
    versions = [i for i in items if i.kind == "version"]
    at = next((n for n, i in enumerate(versions) if i.current), None)
    if at is None:
        return None, None
    before = versions[at - 1].id if at > 0 else None
    after = versions[at + 1].id if at + 1 < len(versions) else None
    return before, after


def verified_quote(entry: Mapping[str, Any], source_id: str, start: int, end: int) -> str | None:
    """The quote that audit row ``entry`` verified for ``source_id`` at ``[start, end)``, if any."""
    record = entry.get("record") or {}
    for field in ("citations", "verified_quotes"):
        for quote in record.get(field) or []:
            if quote.get("version_id") == source_id and quote.get("start") == start and quote.get("end") == end:
                text = quote.get("quote")
                return text if isinstance(text, str) else None
    return None


def quote_in_source(text: str, entry: Mapping[str, Any], source_id: str, start: int, end: int) -> Highlight:
    """The source text split around the audit row's verified quote; raises :class:`QuoteMismatch`."""
    quote = verified_quote(entry, source_id, start, end)
    if quote is None:
        raise QuoteMismatch(
            f"audit row {entry.get('id')} holds no verified quote of {source_id} at [{start}, {end}): "
            "nothing is highlighted"
        )
    return highlight(text, start, end, quote)
