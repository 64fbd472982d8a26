"""The upsert steps both VectorIndex adapters share: vector naming and batched writes."""

from __future__ import annotations

from typing import Any

import pytest

from asat_ingest.index_errors import IndexSchemaError
from asat_ingest.index_point import IndexPoint
from asat_ingest.index_upsert import named_vectors, upsert_in_batches
from asat_ingest.sparse_vector import SparseVector

PAYLOAD = {"income_years": [2020], "act": "ITAA1997", "provision": "8-1", "kind": "provision"}


def _point(point_id: str, dense: list[float], sparse: SparseVector | None = None) -> IndexPoint:
    return IndexPoint(point_id, dense, sparse or SparseVector((), ()), PAYLOAD)


def _pair(indices: list[int], values: list[float]) -> tuple[list[int], list[float]]:
    return indices, values


def test_named_vectors_holds_dense_and_a_non_empty_sparse() -> None:
    vectors = named_vectors(_point("p", [1, 2], SparseVector((3, 7), (0.5, 1.5))), _pair)
    assert vectors == {"dense": [1.0, 2.0], "sparse": ([3, 7], [0.5, 1.5])}
    assert all(type(x) is float for x in vectors["dense"])


def test_named_vectors_leaves_out_an_empty_sparse() -> None:
    assert named_vectors(_point("p", [1.0]), _pair) == {"dense": [1.0]}


def test_points_are_written_in_batches_and_counted() -> None:
    batches: list[list[str]] = []
    written = upsert_in_batches(
        (_point(f"p{i}", [1.0, 0.0]) for i in range(7)), 2, "c", lambda p: p.id, batches.append, batch_size=3
    )
    assert written == 7
    assert batches == [["p0", "p1", "p2"], ["p3", "p4", "p5"], ["p6"]]


def test_nothing_is_written_for_no_points() -> None:
    batches: list[list[Any]] = []
    assert upsert_in_batches([], 2, "c", lambda p: p.id, batches.append) == 0
    assert batches == []


def test_a_point_of_the_wrong_dimension_stops_the_upsert_after_the_full_batches() -> None:
    batches: list[list[str]] = []
    points = [_point("p0", [1.0, 0.0]), _point("p1", [1.0, 0.0]), _point("bad", [1.0, 0.0, 0.0])]
    with pytest.raises(
        IndexSchemaError, match=r"point 'bad' has a 3-dimensional dense vector; the collection 'c' holds 2"
    ):
        upsert_in_batches(points, 2, "c", lambda p: p.id, batches.append, batch_size=2)
    assert batches == [["p0", "p1"]]
