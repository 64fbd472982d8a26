"""The pure rules of the VectorIndex port that both adapters call: the new stamp and a stored hit."""

from __future__ import annotations

import pytest

from asat_ingest.index_errors import IndexSchemaError
from asat_ingest.index_point import POINT_ID_KEY
from asat_ingest.index_stamp import IndexStamp
from asat_ingest.vector_index import new_stamp, stored_hit


def test_a_new_stamp_is_incomplete_and_empty() -> None:
    assert new_stamp("c", 8, "gen", "emb") == IndexStamp(
        collection="c", corpus_generation="gen", embedder_identity="emb", dense_dim=8, complete=False, points=0
    )


@pytest.mark.parametrize("dense_dim", [0, -1])
def test_a_new_stamp_needs_a_positive_dimension(dense_dim: int) -> None:
    with pytest.raises(IndexSchemaError, match=f"dense_dim must be at least 1, got {dense_dim}"):
        new_stamp("c", dense_dim, "gen", "emb")


def test_a_stored_hit_takes_its_id_out_of_the_payload() -> None:
    payload = {POINT_ID_KEY: "ITAA1997/8-1@2020#0", "kind": "provision"}
    hit = stored_hit("5b0f7f0e-0000-0000-0000-000000000000", 1, payload)
    assert hit.id == "ITAA1997/8-1@2020#0"
    assert hit.payload == {"kind": "provision"}
    assert type(hit.score) is float and hit.score == 1.0
    assert POINT_ID_KEY in payload


def test_a_stored_hit_without_the_key_falls_back_to_the_qdrant_id() -> None:
    hit = stored_hit(42, 0.5, None)
    assert (hit.id, hit.score, dict(hit.payload)) == ("42", 0.5, {})
