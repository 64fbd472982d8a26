"""The stamp an index carries: which corpus and which embedder built it, and how far it got."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

STAMP_FORMAT = 1


@dataclass(frozen=True)
class IndexStamp:
    """Identity and counts of one collection.

    ``complete`` is False from ``create`` until ``stamp`` is called after the last upsert, so a
    reader can tell a finished index from one whose build stopped half way.
    """

    collection: str
    corpus_generation: str
    embedder_identity: str
    dense_dim: int
    complete: bool
    points: int
    by_kind: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": STAMP_FORMAT,
            "collection": self.collection,
            "corpus_generation": self.corpus_generation,
            "embedder_identity": self.embedder_identity,
            "dense_dim": self.dense_dim,
            "complete": self.complete,
            "points": self.points,
            "by_kind": dict(sorted(self.by_kind.items())),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> IndexStamp:
        if data.get("format") != STAMP_FORMAT:
            raise ValueError(f"index stamp format {data.get('format')!r} is not {STAMP_FORMAT}; rebuild the index")
        by_kind = data.get("by_kind", {})
        return IndexStamp(
            collection=str(data["collection"]),
            corpus_generation=str(data["corpus_generation"]),
            embedder_identity=str(data["embedder_identity"]),
            dense_dim=int(data["dense_dim"]),
            complete=bool(data["complete"]),
            points=int(data["points"]),
            by_kind={str(k): int(v) for k, v in by_kind.items()},
        )
