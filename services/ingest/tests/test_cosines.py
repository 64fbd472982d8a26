"""The dense score of each hit: cosines of the query against the hits' vectors, in one product."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_ingest.search import cosines

finite = st.floats(min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


def _one(a: list[float], b: list[float]) -> float:
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(x * x for x in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / (na * nb) if na and nb else 0.0


@given(
    st.integers(1, 6).flatmap(
        lambda d: st.tuples(
            st.lists(finite, min_size=d, max_size=d), st.lists(st.lists(finite, min_size=d, max_size=d), max_size=5)
        )
    )
)
@settings(max_examples=200, deadline=None)
def test_each_cosine_is_the_cosine_of_its_pair(case: tuple[list[float], list[list[float]]]) -> None:
    query, vectors = case
    assert cosines(query, vectors) == pytest.approx([_one(query, v) for v in vectors], abs=1e-9)


def test_float32_arrays_from_the_cache_and_zero_vectors() -> None:
    stored = np.asarray([1.0, 0.0], dtype="<f4")
    assert cosines([1.0, 1.0], [stored, [0.0, 0.0]]) == pytest.approx([math.sqrt(0.5), 0.0])
    assert cosines([0.0, 0.0], [stored]) == [0.0]


def test_a_dimension_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot compare a 3-dimensional vector with 2-dimensional ones"):
        cosines([1.0, 0.0, 0.0], [[1.0, 0.0]])
