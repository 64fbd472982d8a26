"""Qdrant Edge adapter: the shared VectorIndex contract, the directory lock, the query shape."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import qdrant_edge as qe

from asat_ingest.edge_index import QdrantEdgeIndex
from asat_ingest.edge_query import edge_hybrid_query
from asat_ingest.index_errors import IndexLockedError, IndexSchemaError
from asat_ingest.index_point import YEAR_KEYS
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.testing.vector_index_contract import DIM, IDENTITY, VectorIndexContract, point, sparse, unit
from asat_ingest.vector_index import VectorIndex


class TestQdrantEdgeIndex(VectorIndexContract):
    def open_index(self, tmp_path: Path) -> VectorIndex:
        return QdrantEdgeIndex(tmp_path / "edge", collection="contract")


def test_a_second_process_gets_a_clear_error_naming_the_directory_and_holder(tmp_path: Path) -> None:
    directory = tmp_path / "edge"
    owner = QdrantEdgeIndex(directory)
    try:
        script = textwrap.dedent(
            f"""
            from pathlib import Path
            from asat_ingest.edge_index import QdrantEdgeIndex
            from asat_ingest.index_errors import IndexLockedError
            try:
                QdrantEdgeIndex(Path({str(directory)!r}))
            except IndexLockedError as error:
                print("LOCKED", error.holder_pid, error)
            else:
                print("OPENED")
            """
        )
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("LOCKED")

        assert f"process {os.getpid()}" in result.stdout
        assert str(directory) in result.stdout
    finally:
        owner.close()


def test_the_lock_is_released_on_close(tmp_path: Path) -> None:
    first = QdrantEdgeIndex(tmp_path / "edge")
    with pytest.raises(IndexLockedError):
        QdrantEdgeIndex(tmp_path / "edge")
    first.close()
    second = QdrantEdgeIndex(tmp_path / "edge")
    second.close()


def test_the_lock_is_released_when_the_owner_dies(tmp_path: Path) -> None:
    directory = tmp_path / "edge"
    script = f"from pathlib import Path\nfrom asat_ingest.edge_index import QdrantEdgeIndex\nQdrantEdgeIndex(Path({str(directory)!r}))\nimport os; os._exit(0)\n"
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    QdrantEdgeIndex(directory).close()


def test_a_closed_index_refuses_work(tmp_path: Path) -> None:
    index = QdrantEdgeIndex(tmp_path / "edge")
    index.create("c", 4, "g", "e")
    index.close()
    with pytest.raises(IndexSchemaError, match="closed"):
        index.upsert([])


def test_bad_collection_name(tmp_path: Path) -> None:
    with pytest.raises(IndexSchemaError, match="collection name"):
        QdrantEdgeIndex(tmp_path / "edge", collection="../escape")


def _must_years(flt: qe.Filter | None) -> list[tuple[str, int]]:
    """The year conditions, of which one must hold: (key, year) for each."""
    assert flt is not None and flt.should is not None and flt.must is not None
    assert not any(isinstance(c, qe.FieldCondition) and c.key in YEAR_KEYS for c in flt.must)
    years = []
    for condition in flt.should:
        assert isinstance(condition, qe.FieldCondition)
        assert isinstance(condition.match, qe.MatchValue)
        years.append((condition.key, condition.match.value))
    return years


def test_the_income_year_filter_is_on_every_prefetch_and_on_the_fused_query() -> None:
    request = edge_hybrid_query([1.0, 0.0], SparseVector((3,), (1.0,)), 2020, 5, 50, ["ITAA1997"], None)
    assert len(request.prefetches) == 2
    for prefetch in request.prefetches:
        assert _must_years(prefetch.filter) == [("income_years", 2020), ("then_stood_years", 2020)]
        assert prefetch.limit == 50
    assert _must_years(request.filter) == [("income_years", 2020), ("then_stood_years", 2020)]
    assert request.limit == 5


def test_an_empty_sparse_query_skips_the_sparse_prefetch() -> None:
    request = edge_hybrid_query([1.0, 0.0], SparseVector((), ()), 2020, 5, 50, None, None)
    assert len(request.prefetches) == 1


def test_concurrent_first_searches_open_the_shard_once(tmp_path: Path) -> None:
    # Any caller that searches from several threads (the service serialises its own searches) must
    # not open the shard twice: a second open fails on its write-ahead log.
    directory = tmp_path / "edge"
    built = QdrantEdgeIndex(directory, collection="c")
    built.create("c", DIM, "g", IDENTITY)
    built.upsert(point(f"p{i}", unit((i, 1.0)), sparse((100 + i, 1.0))) for i in range(DIM))
    built.stamp()
    built.close()
    index = QdrantEdgeIndex(directory, collection="c")
    start = threading.Barrier(8, timeout=10)

    def search(i: int) -> str:
        start.wait()
        return index.hybrid_search(unit((i % DIM, 1.0)), None, 2020, 1, 10)[0].id

    try:
        with ThreadPoolExecutor(8) as pool:
            found = list(pool.map(search, range(8)))
    finally:
        index.close()
    assert found == [f"p{i % DIM}" for i in range(8)]


def test_the_stamp_is_read_again_only_when_its_file_changes(tmp_path: Path) -> None:
    index = QdrantEdgeIndex(tmp_path / "edge", collection="c")
    index.create("c", DIM, "g", IDENTITY)
    first = index.read_stamp()
    assert first is not None and not first.complete
    assert index.read_stamp() is first  # unchanged file: the record already read
    index.upsert([point("p0", unit((0, 1.0)))])
    done = index.stamp()
    again = index.read_stamp()
    assert again == done and again is not None and again.complete and again.points == 1
    index.close()
