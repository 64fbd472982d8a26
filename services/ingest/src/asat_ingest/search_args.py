"""Validation of hybrid search arguments, shared by every VectorIndex adapter."""

from __future__ import annotations

from collections.abc import Sequence

from asat_corpus.income_year import MAX_INCOME_YEAR, MIN_INCOME_YEAR
from asat_ingest.index_errors import IndexSchemaError
from asat_ingest.index_point import AXIS_YEAR_KEYS, IN_FORCE
from asat_ingest.sparse_vector import SparseVector


def check_search_args(
    dense: Sequence[float] | None,
    sparse: SparseVector | None,
    income_year: int,
    limit: int,
    prefetch_limit: int,
    dense_dim: int,
    acts: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    axis: str = IN_FORCE,
) -> None:
    """Raise :class:`IndexSchemaError` naming the bad argument."""
    if axis not in AXIS_YEAR_KEYS:
        raise IndexSchemaError(f"unknown time axis {axis!r}; use one of {', '.join(AXIS_YEAR_KEYS)}")
    if not MIN_INCOME_YEAR <= income_year <= MAX_INCOME_YEAR:
        raise IndexSchemaError(
            f"income year {income_year} is outside {MIN_INCOME_YEAR}..{MAX_INCOME_YEAR}; pass a year "
            "such as 2020 for 1 July 2019 to 30 June 2020"
        )
    if limit < 1 or prefetch_limit < 1:
        raise IndexSchemaError(f"limit ({limit}) and prefetch_limit ({prefetch_limit}) must be at least 1")
    for name, values in (("acts", acts), ("kinds", kinds)):
        if values is not None and len(values) == 0:
            raise IndexSchemaError(f"{name} is an empty list, which would match nothing; pass None for no filter")
    if dense is None and (sparse is None or sparse.is_empty):
        raise IndexSchemaError("a hybrid search needs a dense vector, a non-empty sparse vector, or both")
    if dense is not None and len(dense) != dense_dim:
        raise IndexSchemaError(
            f"query dense vector has {len(dense)} dimensions but the collection holds {dense_dim}; "
            "embed the query with the embedder that built the index"
        )
