"""The payload each chunk carries into the index (pure), shared by ingest and the generation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from asat_corpus.chunk import Chunk
from asat_corpus.income_year import income_years_overlapping
from asat_corpus.provision import ProvisionTimeline, ProvisionVersion, VersionGap
from asat_corpus.ruling import Ruling
from asat_corpus.ruling_validity import RulingValidity
from asat_corpus.then_stood import ThenStood, then_stood_years


def provision_payload(
    chunk: Chunk, version: ProvisionVersion, then_stood: Sequence[ThenStood] = (), horizon: int | None = None
) -> dict[str, Any]:
    """``then_stood``: the stretches, where the law as it now stands is not held, in which this
    text was on the books (served as it then stood, with the caveat; ``then_stood_years`` are
    their income years, searched beside ``income_years``)."""
    years = then_stood_years(then_stood, horizon) if then_stood and horizon is not None else ()
    known = (
        income_years_overlapping(version.known_from, version.known_to, horizon)
        if version.known_from is not None and horizon is not None
        else ()
    )
    return {
        "kind": "provision",
        "chunk_id": chunk.id,
        "source_id": version.id,
        "parent_id": chunk.parent_id,
        "act": version.act,
        "provision": version.number,
        "heading": version.heading,
        "hierarchy": list(version.hierarchy),
        "label_path": list(chunk.label_path),
        "register_ids": list(version.register_ids),
        "authorised": version.authorised,
        "valid_from": version.valid_from.isoformat(),
        "valid_to": version.valid_to.isoformat() if version.valid_to else None,
        "income_years": list(version.income_years),
        "start": chunk.start,
        "end": chunk.end,
        "content_hash": version.content_hash,
        "then_stood_years": list(years),
        # Known time: the text on the books from its first held compilation until changed.
        "known_from": version.known_from.isoformat() if version.known_from else None,
        "known_to": version.known_to.isoformat() if version.known_to else None,
        "known_years": list(known),
        "then_stood": [{"from": s.start.isoformat(), "to": s.end.isoformat(), "caveat": s.caveat} for s in then_stood],
    }


def ruling_payload(chunk: Chunk, ruling: Ruling, validity: RulingValidity) -> dict[str, Any]:
    return {
        "kind": "ruling",
        "chunk_id": chunk.id,
        "source_id": ruling.id,
        "parent_id": chunk.parent_id,
        "act": None,
        "provision": None,
        "ruling": ruling.id,
        "doc_type": ruling.doc_type,
        "title": ruling.title,
        "status": ruling.status,
        "current_consolidated_only": ruling.current_consolidated_only,
        "issue_date": ruling.issue_date.isoformat() if ruling.issue_date else None,
        "valid_from": validity.valid_from.isoformat(),
        "valid_to": validity.valid_to.isoformat() if validity.valid_to else None,
        "validity_basis": validity.from_basis,
        "label_path": list(chunk.label_path),
        "income_years": list(validity.income_years),
        "start": chunk.start,
        "end": chunk.end,
    }


def gap_id(gap: VersionGap) -> str:
    return f"gap:{gap.act}:{gap.number}@{gap.start.isoformat()}"


def gap_description(timeline: ProvisionTimeline, gap: VersionGap, heading: str) -> str:
    acts = ", ".join(str(a) for a in gap.acts) or "no amending Act recorded"
    return (
        f"{gap.act} s {gap.number} {heading}: in force from {gap.start.isoformat()} to {gap.end.isoformat()}, "
        f"but its text for that period is not held ({gap.reason}; amended by {acts})"
    )


def gap_payload(timeline: ProvisionTimeline, gap: VersionGap, heading: str, income_years: list[int]) -> dict[str, Any]:
    """A marker that the provision was in force in these income years with its text not held."""
    return {
        "kind": "gap",
        "chunk_id": gap_id(gap),
        "source_id": gap_id(gap),
        "parent_id": gap_id(gap),
        "act": gap.act,
        "provision": gap.number,
        "heading": heading,
        "valid_from": gap.start.isoformat(),
        "valid_to": gap.end.isoformat(),
        "income_years": income_years,
        "amending_acts": [str(a) for a in gap.acts],
        "reason": gap.reason,
        "description": gap_description(timeline, gap, heading),
    }


def not_yet_enacted_payload(
    timeline: ProvisionTimeline, heading: str, start: date, income_years: list[int]
) -> dict[str, Any]:
    """A marker that the provision did not yet exist in these income years."""
    marker = f"nye:{timeline.act}:{timeline.number}"
    by = f" by {timeline.added_by}" if timeline.added_by else ""
    return {
        "kind": "not_yet_enacted",
        "chunk_id": marker,
        "source_id": marker,
        "parent_id": marker,
        "act": timeline.act,
        "provision": timeline.number,
        "heading": heading,
        "valid_from": None,
        "valid_to": start.isoformat(),
        "income_years": income_years,
        "description": (
            f"{timeline.act} s {timeline.number} {heading}: not yet enacted in this income year "
            f"(added{by}, in force from {start.isoformat()})"
        ),
    }
