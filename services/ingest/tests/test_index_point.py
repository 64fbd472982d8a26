"""IndexPoint, SparseVector and the RRF pure function."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_ingest.index_point import POINT_NAMESPACE, IndexPoint, point_uuid
from asat_ingest.index_stamp import IndexStamp
from asat_ingest.rrf import rrf_fuse
from asat_ingest.sparse_vector import SparseVector

PAYLOAD = {"income_years": [2020], "act": "ITAA1997", "provision": "8-1", "kind": "provision"}


def test_point_uuid_is_uuid5_of_the_id_and_stable() -> None:
    assert point_uuid("ITAA1997/8-1@2020#0") == str(uuid.uuid5(POINT_NAMESPACE, "ITAA1997/8-1@2020#0"))
    assert point_uuid("a") != point_uuid("b")


def test_stored_payload_carries_the_string_id() -> None:
    point = IndexPoint("p1", [1.0], SparseVector((), ()), PAYLOAD)
    assert point.stored_payload()["point_id"] == "p1"
    assert point.uuid == point_uuid("p1")


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"income_years": [2020], "act": "A", "kind": "provision"}, "lacks provision"),
        ({**PAYLOAD, "income_years": 2020}, "list of int"),
        ({**PAYLOAD, "income_years": [1899]}, "outside 1900..2100"),
        ({**PAYLOAD, "kind": ""}, "kind must be"),
        ({**PAYLOAD, "act": 7}, "act must be"),
        ({**PAYLOAD, "point_id": "other"}, "reserved"),
    ],
)
def test_bad_payloads_are_refused(payload: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        IndexPoint("p", [1.0], SparseVector((), ()), payload)


def test_empty_dense_is_refused() -> None:
    with pytest.raises(ValueError, match="dense vector is empty"):
        IndexPoint("p", [], SparseVector((), ()), PAYLOAD)


def test_sparse_vector_checks() -> None:
    with pytest.raises(ValueError, match="unique"):
        SparseVector((1, 1), (1.0, 2.0))
    with pytest.raises(ValueError, match="values"):
        SparseVector((1,), ())
    with pytest.raises(ValueError, match="outside"):
        SparseVector((2**31,), (1.0,))
    assert SparseVector.from_weights({5: 1.0, 2: 0.5}) == SparseVector((2, 5), (0.5, 1.0))


def test_stamp_json_round_trip() -> None:
    stamp = IndexStamp("c", "gen", "emb", 384, True, 10, {"provision": 7, "ruling": 3})
    assert IndexStamp.from_json(stamp.to_json()) == stamp
    with pytest.raises(ValueError, match="rebuild the index"):
        IndexStamp.from_json({**stamp.to_json(), "format": 99})


def test_rrf_known_order() -> None:
    fused = rrf_fuse([["a", "b", "c", "d"], ["b", "d", "a", "c"]], limit=10)
    assert [item for item, _ in fused] == ["b", "a", "d", "c"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_rrf_item_in_one_list_only_and_limit() -> None:
    fused = rrf_fuse([["a"], ["b", "a"]], limit=1)
    assert fused == [("a", pytest.approx(1 / 61 + 1 / 62))]


def test_rrf_bad_arguments() -> None:
    with pytest.raises(ValueError, match="k must be"):
        rrf_fuse([["a"]], limit=1, k=0)


@given(st.lists(st.lists(st.integers(0, 20), max_size=15), max_size=4), st.integers(0, 30))
def test_rrf_properties(rankings: list[list[int]], limit: int) -> None:
    fused = rrf_fuse(rankings, limit=limit)
    items = [item for item, _ in fused]
    assert len(items) == len(set(items)) <= limit
    assert set(items) <= {x for ranking in rankings for x in ranking}
    scores = [score for _, score in fused]
    assert scores == sorted(scores, reverse=True)
