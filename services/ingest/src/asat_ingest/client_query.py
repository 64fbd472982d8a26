"""Pure builders of ``qdrant-client`` requests: the filter and the hybrid RRF query."""

from __future__ import annotations

from collections.abc import Sequence

from qdrant_client import models

from asat_ingest.index_point import AXIS_YEAR_KEYS, IN_FORCE
from asat_ingest.rrf import RRF_K
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.vector_index import DENSE, SPARSE


def client_filter(
    income_year: int, acts: Sequence[str] | None, kinds: Sequence[str] | None, axis: str = IN_FORCE
) -> models.Filter:
    """One of ``axis``'s year keys contains ``income_year`` (in force: ``income_years`` OR
    ``then_stood_years``) AND act in ``acts`` AND kind in ``kinds``."""
    must: list[models.Condition] = []
    if acts is not None:
        must.append(models.FieldCondition(key="act", match=models.MatchAny(any=list(acts))))
    if kinds is not None:
        must.append(models.FieldCondition(key="kind", match=models.MatchAny(any=list(kinds))))
    should: list[models.Condition] = [
        models.FieldCondition(key=key, match=models.MatchValue(value=income_year)) for key in AXIS_YEAR_KEYS[axis]
    ]
    return models.Filter(must=must, should=should)


def client_hybrid_prefetches(
    dense: Sequence[float] | None,
    sparse: SparseVector | None,
    income_year: int,
    prefetch_limit: int,
    acts: Sequence[str] | None,
    kinds: Sequence[str] | None,
    axis: str = IN_FORCE,
) -> list[models.Prefetch]:
    """A filtered prefetch per given vector."""
    prefetches: list[models.Prefetch] = []
    if dense is not None:
        prefetches.append(
            models.Prefetch(
                query=[float(x) for x in dense],
                using=DENSE,
                limit=prefetch_limit,
                filter=client_filter(income_year, acts, kinds, axis),
            )
        )
    if sparse is not None and not sparse.is_empty:
        prefetches.append(
            models.Prefetch(
                query=models.SparseVector(indices=list(sparse.indices), values=list(sparse.values)),
                using=SPARSE,
                limit=prefetch_limit,
                filter=client_filter(income_year, acts, kinds, axis),
            )
        )
    return prefetches


def client_rrf_query() -> models.RrfQuery:
    return models.RrfQuery(rrf=models.Rrf(k=RRF_K))
