"""Hard negatives for a training question (pure): what the first stage confuses with the answer.

Two kinds, as the issue asks: the best-retrieved hits that are not positives, and sections of the
same Division as an answering section (neighbours that share its vocabulary but do not answer).
Up to half of the negatives are same-Division ones (best retrieved first); the rest are the best
retrieved of the others. A section gives at most one negative.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from asat_research.relevance.division_summaries import unit_of


def division_of(payload: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(act, "Division N")`` of a provision hit's payload, None for a ruling or no Division."""
    act = payload.get("act")
    unit = unit_of([str(p) for p in payload.get("hierarchy") or ()], subdivision=False)
    return (str(act), unit) if act and unit else None


def hard_negatives(payloads: Sequence[Mapping[str, Any]], labels: Sequence[int], count: int) -> list[int]:
    """Indices into ``payloads`` (retrieval order) of up to ``count`` negatives (label 0)."""
    divisions = {d for p, lab in zip(payloads, labels, strict=True) if lab > 0 and (d := division_of(p)) is not None}
    seen: set[tuple[str, str]] = set()
    same: list[int] = []
    other: list[int] = []
    for i, (payload, label) in enumerate(zip(payloads, labels, strict=True)):
        section = (str(payload.get("act") or payload.get("source_id")), str(payload.get("provision") or ""))
        if label > 0 or section in seen:
            continue
        seen.add(section)
        (same if division_of(payload) in divisions else other).append(i)
    chosen = same[: count // 2]
    chosen += other[: count - len(chosen)]
    if len(chosen) < count:
        chosen += [i for i in same if i not in chosen][: count - len(chosen)]
    return sorted(chosen)
