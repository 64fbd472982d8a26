"""qdrant-client adapter (local mode): the shared VectorIndex contract and the query shape."""

from __future__ import annotations

from pathlib import Path

from qdrant_client import models

from asat_ingest.client_index import QdrantClientIndex
from asat_ingest.client_query import client_filter, client_hybrid_prefetches, client_rrf_query
from asat_ingest.index_point import YEAR_KEYS
from asat_ingest.rrf import RRF_K
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.testing.vector_index_contract import VectorIndexContract
from asat_ingest.vector_index import VectorIndex


class TestQdrantClientIndex(VectorIndexContract):
    def open_index(self, tmp_path: Path) -> VectorIndex:
        return QdrantClientIndex.local(str(tmp_path / "qdrant-local"), collection="contract")


def _must_years(flt: models.Filter | None) -> list[tuple[str, int]]:
    """The year conditions, of which one must hold: (key, year) for each."""
    assert flt is not None and isinstance(flt.should, list) and isinstance(flt.must, list)
    assert not any(isinstance(c, models.FieldCondition) and c.key in YEAR_KEYS for c in flt.must)
    years = []
    for condition in flt.should:
        assert isinstance(condition, models.FieldCondition)
        assert isinstance(condition.match, models.MatchValue)
        years.append((condition.key, int(condition.match.value)))
    return years


def test_the_income_year_filter_is_on_every_prefetch_and_on_the_fused_query() -> None:
    prefetches = client_hybrid_prefetches([1.0, 0.0], SparseVector((3,), (1.0,)), 2020, 50, None, ["ruling"])
    assert [p.using for p in prefetches] == ["dense", "sparse"]
    for prefetch in prefetches:
        assert _must_years(prefetch.filter) == [("income_years", 2020), ("then_stood_years", 2020)]
        assert prefetch.limit == 50
    assert _must_years(client_filter(2020, None, None)) == [("income_years", 2020), ("then_stood_years", 2020)]
    assert client_rrf_query().rrf.k == RRF_K


def test_in_memory_mode_works(tmp_path: Path) -> None:
    index = QdrantClientIndex.local(":memory:")
    index.create("mem", 2, "g", "e")
    assert index.count() == 0
    index.close()
