"""Pure builders of Qdrant Edge requests: the filter and the hybrid RRF query."""

from __future__ import annotations

from collections.abc import Sequence

import qdrant_edge as qe

from asat_ingest.index_point import AXIS_YEAR_KEYS, IN_FORCE
from asat_ingest.rrf import RRF_K
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.vector_index import DENSE, SPARSE


def edge_filter(
    income_year: int, acts: Sequence[str] | None, kinds: Sequence[str] | None, axis: str = IN_FORCE
) -> qe.Filter:
    """One of ``axis``'s year keys contains ``income_year`` (in force: ``income_years`` OR
    ``then_stood_years``) AND act in ``acts`` AND kind in ``kinds``."""
    must: list[qe.FieldCondition] = []
    if acts is not None:
        must.append(qe.FieldCondition(key="act", match=qe.MatchAny(list(acts))))
    if kinds is not None:
        must.append(qe.FieldCondition(key="kind", match=qe.MatchAny(list(kinds))))
    should = [qe.FieldCondition(key=key, match=qe.MatchValue(income_year)) for key in AXIS_YEAR_KEYS[axis]]
    return qe.Filter(must=list(must), should=list(should))


def edge_hybrid_query(
    dense: Sequence[float] | None,
    sparse: SparseVector | None,
    income_year: int,
    limit: int,
    prefetch_limit: int,
    acts: Sequence[str] | None,
    kinds: Sequence[str] | None,
    axis: str = IN_FORCE,
) -> qe.QueryRequest:
    """One request: a filtered prefetch per given vector, fused by RRF (k=60), filtered again."""
    prefetches: list[qe.Prefetch] = []
    if dense is not None:
        prefetches.append(
            qe.Prefetch(
                limit=prefetch_limit,
                query=qe.Query.Nearest([float(x) for x in dense], using=DENSE),
                filter=edge_filter(income_year, acts, kinds, axis),
            )
        )
    if sparse is not None and not sparse.is_empty:
        prefetches.append(
            qe.Prefetch(
                limit=prefetch_limit,
                query=qe.Query.Nearest(qe.SparseVector(list(sparse.indices), list(sparse.values)), using=SPARSE),
                filter=edge_filter(income_year, acts, kinds, axis),
            )
        )
    return qe.QueryRequest(
        limit=limit,
        query=qe.Fusion.Rrf(k=RRF_K),  # type: ignore[arg-type]  # the stub omits the nested class
        prefetches=prefetches,
        filter=edge_filter(income_year, acts, kinds, axis),
        with_payload=True,
        with_vector=False,
    )
