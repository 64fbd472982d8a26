"""The VectorIndex contract: one suite that every adapter runs.

Subclass :class:`VectorIndexContract` in a test module and implement :meth:`open_index`, which
opens the adapter on a location derived from ``tmp_path`` (opening the same location twice
after a close must see the same data)::

    class TestMyIndex(VectorIndexContract):
        def open_index(self, tmp_path: Path) -> VectorIndex:
            return MyIndex(tmp_path / "index")
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from asat_ingest.index_errors import IndexMissingError, IndexSchemaError
from asat_ingest.index_point import POINT_ID_KEY, IndexPoint
from asat_ingest.rrf import rrf_fuse
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.vector_index import VectorIndex

DIM = 8
COLLECTION = "contract"
GENERATION = "gen-contract-1"
IDENTITY = "hash-test-embedder|dim=8"


def unit(*pairs: tuple[int, float]) -> list[float]:
    """A DIM-dimensional vector with the given ``(axis, value)`` entries, others zero."""
    vector = [0.0] * DIM
    for axis, value in pairs:
        vector[axis] = value
    return vector


def sparse(*pairs: tuple[int, float]) -> SparseVector:
    return SparseVector.from_weights(dict(pairs))


def point(
    point_id: str,
    dense: Sequence[float],
    sparse_vector: SparseVector | None = None,
    years: Sequence[int] = (2020,),
    act: str | None = "ITAA1997",
    provision: str | None = "8-1",
    kind: str = "provision",
    **extra: Any,
) -> IndexPoint:
    return IndexPoint(
        id=point_id,
        dense=list(dense),
        sparse=sparse_vector if sparse_vector is not None else SparseVector((), ()),
        payload={"income_years": list(years), "act": act, "provision": provision, "kind": kind, **extra},
    )


class VectorIndexContract:
    """Behaviour every VectorIndex adapter must show."""

    def open_index(self, tmp_path: Path) -> VectorIndex:
        raise NotImplementedError("a contract test class implements open_index")

    @pytest.fixture
    def index(self, tmp_path: Path) -> Iterator[VectorIndex]:
        opened = self.open_index(tmp_path)
        opened.create(COLLECTION, DIM, GENERATION, IDENTITY)
        yield opened
        opened.close()

    # --- create, upsert, count, stamp ------------------------------------------------------

    def test_new_collection_is_empty_and_stamped_incomplete(self, index: VectorIndex) -> None:
        assert index.collection == COLLECTION
        assert index.count() == 0
        stamp = index.read_stamp()
        assert stamp is not None
        assert (stamp.corpus_generation, stamp.embedder_identity, stamp.dense_dim) == (GENERATION, IDENTITY, DIM)
        assert stamp.complete is False
        assert index.hybrid_search(unit((0, 1.0)), sparse((1, 1.0)), 2020, 10, 10) == []

    def test_upsert_then_count(self, index: VectorIndex) -> None:
        written = index.upsert(point(f"p{i}", unit((i % DIM, 1.0))) for i in range(20))
        assert written == 20
        assert index.count() == 20

    def test_upsert_same_id_replaces(self, index: VectorIndex) -> None:
        index.upsert([point("p", unit((0, 1.0)), provision="8-1")])
        index.upsert([point("p", unit((0, 1.0)), provision="8-5")])
        assert index.count() == 1
        hits = index.hybrid_search(unit((0, 1.0)), None, 2020, 5, 5)
        assert [(h.id, h.payload["provision"]) for h in hits] == [("p", "8-5")]

    def test_stamp_round_trip(self, index: VectorIndex, tmp_path: Path) -> None:
        index.upsert(
            [
                point("a", unit((0, 1.0)), kind="provision"),
                point("b", unit((1, 1.0)), kind="provision"),
                point("c", unit((2, 1.0)), kind="ruling", act=None, provision=None),
            ]
        )
        written = index.stamp()
        assert written.complete is True
        assert written.points == 3
        assert dict(written.by_kind) == {"provision": 2, "ruling": 1}
        assert index.read_stamp() == written
        index.close()
        reopened = self.open_index(tmp_path)
        try:
            assert reopened.read_stamp() == written
            assert reopened.count() == 3
            assert [h.id for h in reopened.hybrid_search(unit((2, 1.0)), None, 2020, 1, 5)] == ["c"]
        finally:
            reopened.close()

    def test_upsert_after_stamp_marks_the_index_incomplete(self, index: VectorIndex) -> None:
        index.upsert([point("a", unit((0, 1.0)))])
        index.stamp()
        index.upsert([point("b", unit((1, 1.0)))])
        stamp = index.read_stamp()
        assert stamp is not None and stamp.complete is False

    def test_create_again_empties_the_collection(self, index: VectorIndex) -> None:
        index.upsert([point("a", unit((0, 1.0)))])
        index.create(COLLECTION, DIM, "gen-2", IDENTITY)
        assert index.count() == 0
        stamp = index.read_stamp()
        assert stamp is not None and stamp.corpus_generation == "gen-2"

    def test_missing_collection(self, tmp_path: Path) -> None:
        fresh = self.open_index(tmp_path)
        try:
            assert fresh.read_stamp() is None
            assert fresh.count() == 0
            with pytest.raises(IndexMissingError, match="asat_ingest build"):
                fresh.hybrid_search(unit((0, 1.0)), None, 2020, 5, 5)
        finally:
            fresh.close()

    def test_wrong_dimension_is_refused(self, index: VectorIndex) -> None:
        with pytest.raises(IndexSchemaError, match="dense vector"):
            index.upsert([point("a", [1.0, 0.0])])
        with pytest.raises(IndexSchemaError, match="dimensions"):
            index.hybrid_search([1.0, 0.0], None, 2020, 5, 5)

    @pytest.mark.parametrize("year", [1899, 2101])
    def test_income_year_out_of_range_is_refused(self, index: VectorIndex, year: int) -> None:
        with pytest.raises(IndexSchemaError, match="income year"):
            index.hybrid_search(unit((0, 1.0)), None, year, 5, 5)

    def test_search_needs_a_vector(self, index: VectorIndex) -> None:
        with pytest.raises(IndexSchemaError, match="dense vector, a non-empty sparse vector"):
            index.hybrid_search(None, SparseVector((), ()), 2020, 5, 5)

    def test_an_empty_filter_list_is_refused(self, index: VectorIndex) -> None:
        with pytest.raises(IndexSchemaError, match="acts is an empty list"):
            index.hybrid_search(unit((0, 1.0)), None, 2020, 5, 5, acts=[])

    # --- ranking ---------------------------------------------------------------------------

    def test_hybrid_returns_the_best_match_first(self, index: VectorIndex) -> None:
        index.upsert(point(f"p{i}", unit((i, 1.0)), sparse((100 + i, 1.0))) for i in range(DIM))
        for i in range(DIM):
            hits = index.hybrid_search(unit((i, 1.0)), sparse((100 + i, 1.0)), 2020, 3, 10)
            assert hits[0].id == f"p{i}"
            assert POINT_ID_KEY not in hits[0].payload
            assert hits[0].payload["act"] == "ITAA1997"

    def test_rrf_fusion_order(self, index: VectorIndex) -> None:
        # Dense ranks a, b, c, d; sparse ranks b, d, a, c. RRF (k=60): b, a, d, c.
        index.upsert(
            [
                point("a", unit((0, 1.0)), sparse((7, 2.0))),
                point("b", unit((0, 1.0), (1, 0.2)), sparse((7, 4.0))),
                point("c", unit((0, 1.0), (1, 0.6)), sparse((7, 1.0))),
                point("d", unit((0, 1.0), (1, 0.9)), sparse((7, 3.0))),
            ]
        )
        query_dense, query_sparse = unit((0, 1.0)), sparse((7, 1.0))
        dense_only = [h.id for h in index.hybrid_search(query_dense, None, 2020, 10, 10)]
        sparse_only = [h.id for h in index.hybrid_search(None, query_sparse, 2020, 10, 10)]
        assert dense_only == ["a", "b", "c", "d"]
        assert sparse_only == ["b", "d", "a", "c"]
        fused = [h.id for h in index.hybrid_search(query_dense, query_sparse, 2020, 10, 10)]
        assert fused == ["b", "a", "d", "c"]
        assert fused == [item for item, _ in rrf_fuse([dense_only, sparse_only], limit=10)]
        scores = [h.score for h in index.hybrid_search(query_dense, query_sparse, 2020, 10, 10)]
        assert scores == sorted(scores, reverse=True)

    def test_limit_is_respected(self, index: VectorIndex) -> None:
        index.upsert(point(f"p{i}", unit((0, 1.0), (1, i / 10)), sparse((3, 1.0))) for i in range(10))
        assert len(index.hybrid_search(unit((0, 1.0)), sparse((3, 1.0)), 2020, 4, 10)) == 4

    # --- the temporal filter ---------------------------------------------------------------

    def _load_out_of_year_trap(self, index: VectorIndex) -> None:
        """``trap`` is the perfect match for the query but in force only in 2019 and 2021."""
        index.upsert(
            [
                point("trap", unit((0, 1.0)), sparse((1, 9.0), (2, 9.0)), years=(2019, 2021)),
                point("in-year", unit((0, 1.0), (1, 0.5)), sparse((1, 1.0)), years=(2020,)),
                point("other", unit((2, 1.0)), sparse((5, 1.0)), years=(2020,)),
            ]
        )

    def test_out_of_year_point_never_comes_through_the_dense_prefetch(self, index: VectorIndex) -> None:
        self._load_out_of_year_trap(index)
        # With prefetch_limit=1 an unfiltered prefetch would hold only the trap, which a filter
        # on the fused query alone would then drop: "in-year" first proves the prefetch filters.
        hits = index.hybrid_search(unit((0, 1.0)), None, 2020, 5, prefetch_limit=1)
        assert [h.id for h in hits] == ["in-year"]

    def test_out_of_year_point_never_comes_through_the_sparse_prefetch(self, index: VectorIndex) -> None:
        self._load_out_of_year_trap(index)
        hits = index.hybrid_search(None, sparse((1, 1.0), (2, 1.0)), 2020, 5, prefetch_limit=1)
        assert [h.id for h in hits] == ["in-year"]

    def test_out_of_year_point_never_comes_through_the_fused_result(self, index: VectorIndex) -> None:
        self._load_out_of_year_trap(index)
        for prefetch_limit in (1, 2, 10):
            hits = index.hybrid_search(unit((0, 1.0)), sparse((1, 1.0), (2, 1.0)), 2020, 10, prefetch_limit)
            assert "trap" not in [h.id for h in hits]
            assert hits[0].id == "in-year"
        hits_2019 = index.hybrid_search(unit((0, 1.0)), sparse((1, 1.0), (2, 1.0)), 2019, 10, 10)
        assert [h.id for h in hits_2019] == ["trap"]

    def test_a_point_covering_exactly_one_year(self, index: VectorIndex) -> None:
        index.upsert([point("only-2020", unit((0, 1.0)), sparse((1, 1.0)), years=(2020,))])
        query = (unit((0, 1.0)), sparse((1, 1.0)))
        assert [h.id for h in index.hybrid_search(*query, 2020, 5, 5)] == ["only-2020"]
        assert index.hybrid_search(*query, 2019, 5, 5) == []
        assert index.hybrid_search(*query, 2021, 5, 5) == []

    def test_a_point_served_as_it_then_stood_is_found_in_those_years_only(self, index: VectorIndex) -> None:
        index.upsert(
            [
                point("then-stood", unit((0, 1.0)), sparse((1, 1.0)), years=(2014,), then_stood_years=[2015, 2016]),
                point("in-force", unit((0, 1.0), (1, 0.2)), sparse((1, 1.0)), years=(2016,)),
            ]
        )
        query = (unit((0, 1.0)), sparse((1, 1.0)))
        for prefetch_limit in (1, 5):
            assert [h.id for h in index.hybrid_search(*query, 2015, 5, prefetch_limit)] == ["then-stood"]
            assert [h.id for h in index.hybrid_search(*query, 2014, 5, prefetch_limit)] == ["then-stood"]
        assert sorted(h.id for h in index.hybrid_search(*query, 2016, 5, 5)) == ["in-force", "then-stood"]
        assert index.hybrid_search(*query, 2017, 5, 5) == []
        assert [h.id for h in index.hybrid_search(*query, 2015, 5, 5, kinds=["provision"])] == ["then-stood"]
        assert index.hybrid_search(*query, 2015, 5, 5, kinds=["ruling"]) == []

    def test_the_on_the_books_axis_reads_known_years_only(self, index: VectorIndex) -> None:
        index.upsert(
            [
                point("old", unit((0, 1.0)), sparse((1, 1.0)), years=(2014,), known_years=[2014, 2015, 2016]),
                point("new", unit((0, 1.0), (1, 0.2)), sparse((1, 1.0)), years=(2015, 2016), known_years=[2017]),
            ]
        )
        query = (unit((0, 1.0)), sparse((1, 1.0)))
        assert [h.id for h in index.hybrid_search(*query, 2015, 5, 5)] == ["new"]
        for prefetch_limit in (1, 5):
            found = index.hybrid_search(*query, 2015, 5, prefetch_limit, axis="on_the_books")
            assert [h.id for h in found] == ["old"]
        assert [h.id for h in index.hybrid_search(*query, 2017, 5, 5, axis="on_the_books")] == ["new"]
        assert index.hybrid_search(*query, 2017, 5, 5) == []

    def test_an_unknown_axis_is_refused(self, index: VectorIndex) -> None:
        index.upsert([point("p", unit((0, 1.0)))])
        with pytest.raises(IndexSchemaError, match="unknown time axis"):
            index.hybrid_search(unit((0, 1.0)), None, 2020, 5, 5, axis="sideways")

    def test_then_stood_years_out_of_range_are_refused(self, index: VectorIndex) -> None:
        with pytest.raises(ValueError, match="then_stood_years"):
            index.upsert([point("bad", unit((0, 1.0)), years=(2020,), then_stood_years=[1800])])

    def test_every_hit_is_in_force_in_the_year_asked(self, index: VectorIndex) -> None:
        rng = random.Random(20240701)
        years = list(range(2014, 2027))
        points = []
        for i in range(120):
            first = rng.choice(years)
            span = rng.randint(1, 4)
            dense = [rng.uniform(-1, 1) for _ in range(DIM)]
            terms = {rng.randint(0, 30): rng.uniform(0.5, 3.0) for _ in range(4)}
            points.append(point(f"r{i}", dense, SparseVector.from_weights(terms), years=range(first, first + span)))
        index.upsert(points)
        by_id = {p.id: p for p in points}
        for _ in range(40):
            year = rng.choice(years)
            dense = [rng.uniform(-1, 1) for _ in range(DIM)]
            terms = {rng.randint(0, 30): 1.0 for _ in range(3)}
            hits = index.hybrid_search(dense, SparseVector.from_weights(terms), year, 20, rng.choice([1, 5, 50]))
            for hit in hits:
                assert year in by_id[hit.id].payload["income_years"]
                assert year in hit.payload["income_years"]

    # --- act and kind filters --------------------------------------------------------------

    def test_act_and_kind_filters(self, index: VectorIndex) -> None:
        index.upsert(
            [
                point("itaa97", unit((0, 1.0)), sparse((1, 1.0)), act="ITAA1997"),
                point("itaa36", unit((0, 1.0), (1, 0.1)), sparse((1, 1.0)), act="ITAA1936"),
                point("ruling", unit((0, 1.0), (1, 0.2)), sparse((1, 1.0)), act=None, kind="ruling"),
            ]
        )
        query = (unit((0, 1.0)), sparse((1, 1.0)))
        assert {h.id for h in index.hybrid_search(*query, 2020, 10, 10)} == {"itaa97", "itaa36", "ruling"}
        assert [h.id for h in index.hybrid_search(*query, 2020, 10, 1, acts=["ITAA1936"])] == ["itaa36"]
        assert {h.id for h in index.hybrid_search(*query, 2020, 10, 10, acts=["ITAA1936", "ITAA1997"])} == {
            "itaa97",
            "itaa36",
        }
        assert [h.id for h in index.hybrid_search(*query, 2020, 10, 1, kinds=["ruling"])] == ["ruling"]
        assert index.hybrid_search(*query, 2020, 10, 10, acts=["ITAA1997"], kinds=["ruling"]) == []
        assert index.hybrid_search(*query, 2020, 10, 10, acts=["GST1999"]) == []

    def test_a_point_without_sparse_terms_is_found_by_its_dense_vector(self, index: VectorIndex) -> None:
        index.upsert([point("dense-only", unit((3, 1.0)))])
        assert [h.id for h in index.hybrid_search(unit((3, 1.0)), sparse((9, 1.0)), 2020, 5, 5)] == ["dense-only"]
