"""The source viewer's content: the version, its verified quote at its exact range, its
timeline and the difference from an adjacent version (pure, over the research service's JSON)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asat_web.highlight import Highlight, QuoteMismatch, highlight


@dataclass(frozen=True)
class TimelineItem:
    kind: str  # "version" | "gap"
    id: str | None
    valid_from: str
    valid_to: str | None
    register_ids: tuple[str, ...]
    reason: str
    current: bool


def timeline_items(source: Mapping[str, Any]) -> tuple[TimelineItem, ...]:
    """The provision's versions and gaps, sorted by start, the shown version marked current."""
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
            )
        )
    return tuple(sorted(items, key=lambda i: i.valid_from))


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
