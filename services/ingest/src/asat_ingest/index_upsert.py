"""What every VectorIndex adapter does on upsert: check each point, name its vectors, write in batches.

The adapters differ only in the record their client takes and the call that writes a batch;
both come in as functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from asat_ingest.index_errors import IndexSchemaError
from asat_ingest.index_point import IndexPoint
from asat_ingest.vector_index import DENSE, SPARSE

UPSERT_BATCH = 256

Record = TypeVar("Record")


def named_vectors(point: IndexPoint, sparse_vector: Callable[[list[int], list[float]], Any]) -> dict[str, Any]:
    """``point``'s vectors by name: ``dense`` always, ``sparse`` (built by ``sparse_vector``) unless empty."""
    vectors: dict[str, Any] = {DENSE: [float(x) for x in point.dense]}
    if not point.sparse.is_empty:
        vectors[SPARSE] = sparse_vector(list(point.sparse.indices), list(point.sparse.values))
    return vectors


def upsert_in_batches(
    points: Iterable[IndexPoint],
    dense_dim: int,
    collection: str,
    to_record: Callable[[IndexPoint], Record],
    write: Callable[[list[Record]], object],
    batch_size: int = UPSERT_BATCH,
) -> int:
    """Check each point's dense dimension, convert it with ``to_record`` and ``write`` batches.

    Returns how many points were written; raises :class:`IndexSchemaError` at the first point
    whose dense vector is not ``dense_dim`` long (the batches before it are already written).
    """
    written = 0
    batch: list[Record] = []
    for point in points:
        if len(point.dense) != dense_dim:
            raise IndexSchemaError(
                f"point {point.id!r} has a {len(point.dense)}-dimensional dense vector; the "
                f"collection {collection!r} holds {dense_dim}"
            )
        batch.append(to_record(point))
        if len(batch) >= batch_size:
            write(batch)
            written += len(batch)
            batch = []
    if batch:
        write(batch)
        written += len(batch)
    return written
