"""The VectorIndex port: one collection of chunks with a dense and a sparse vector each.

Every adapter (Qdrant Edge in-process, ``qdrant-client`` for a server) runs the same contract
suite, :mod:`asat_ingest.testing.vector_index_contract`. The rules every adapter keeps:

- named vectors ``dense`` (cosine) and ``sparse`` (IDF modifier); payload indexes on
  ``income_years``, ``then_stood_years``, ``known_years`` (integer) and ``act``, ``provision``, ``kind`` (keyword);
- the income-year filter (on the in-force axis ``income_years`` or ``then_stood_years`` holds
  the year, on the on-the-books axis ``known_years``; see
  :data:`asat_ingest.index_point.AXIS_YEAR_KEYS`) and the optional act/kind filters sit on the dense
  prefetch, on the sparse prefetch and on the fused query: a point outside the income year is
  never scored, never ranked, never returned;
- the two prefetch lists are fused with reciprocal rank fusion, k = 60.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from asat_ingest.index_errors import IndexSchemaError
from asat_ingest.index_point import IN_FORCE, POINT_ID_KEY, YEAR_KEYS, IndexPoint, ScoredHit
from asat_ingest.index_stamp import IndexStamp
from asat_ingest.sparse_vector import SparseVector

DEFAULT_COLLECTION = "asat"
DENSE = "dense"
SPARSE = "sparse"
KEYWORD_FIELDS = ("act", "provision", "kind")
INTEGER_FIELDS = YEAR_KEYS


def new_stamp(collection: str, dense_dim: int, corpus_generation: str, embedder_identity: str) -> IndexStamp:
    """The stamp ``create`` writes: incomplete, no points; :class:`IndexSchemaError` for ``dense_dim`` < 1."""
    if dense_dim < 1:
        raise IndexSchemaError(f"dense_dim must be at least 1, got {dense_dim}")
    return IndexStamp(
        collection=collection,
        corpus_generation=corpus_generation,
        embedder_identity=embedder_identity,
        dense_dim=dense_dim,
        complete=False,
        points=0,
    )


def stored_hit(qdrant_id: object, score: float, payload: Mapping[str, Any] | None) -> ScoredHit:
    """A search hit as the caller sees it: the string id kept under ``POINT_ID_KEY``, taken out of the payload.

    ``qdrant_id`` stands in for a point stored without that key.
    """
    stored = dict(payload or {})
    point_id = str(stored.pop(POINT_ID_KEY, qdrant_id))
    return ScoredHit(id=point_id, score=float(score), payload=stored)


class VectorIndex(Protocol):
    """A hybrid (dense + sparse) index with a hard income-year filter."""

    @property
    def collection(self) -> str:
        """The collection this adapter reads and writes."""
        ...

    def create(self, collection: str, dense_dim: int, corpus_generation: str, embedder_identity: str) -> None:
        """(Re)create ``collection`` empty, bind the adapter to it, and stamp it incomplete."""
        ...

    def upsert(self, points: Iterable[IndexPoint]) -> int:
        """Insert or replace ``points``; returns how many were written."""
        ...

    def hybrid_search(
        self,
        dense: Sequence[float] | None,
        sparse: SparseVector | None,
        income_year: int,
        limit: int,
        prefetch_limit: int,
        acts: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        axis: str = IN_FORCE,
    ) -> list[ScoredHit]:
        """Dense and sparse prefetch, each filtered, fused with RRF (k=60), filtered again.

        ``dense`` or ``sparse`` may be None (or the sparse vector empty) to skip that prefetch;
        at least one must be given. ``axis`` picks the time axis whose year keys the filter reads
        (:data:`asat_ingest.index_point.AXIS_YEAR_KEYS`).
        """
        ...

    def stamp(self) -> IndexStamp:
        """Mark the collection complete with its current counts; returns the stamp written."""
        ...

    def read_stamp(self) -> IndexStamp | None:
        """The collection's stamp, or None when the collection does not exist."""
        ...

    def count(self) -> int:
        """Number of points in the collection (0 when it does not exist)."""
        ...

    def close(self) -> None:
        """Flush and release the index (and, for Edge, the directory lock)."""
        ...
