"""The hash embedder (tests only): the Embedder contract and its identity."""

from __future__ import annotations

import pytest

from asat_ingest.embedder import EmbedderError
from asat_ingest.hash_embedder import HashEmbedder
from asat_ingest.testing.embedder_contract import EmbedderContract


class TestHashEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self) -> HashEmbedder:
        return HashEmbedder(dim=20)


def test_identity_says_it_is_for_tests_only() -> None:
    assert "tests-only" in HashEmbedder(8).identity
    assert HashEmbedder(8).identity != HashEmbedder(9).identity


def test_vectors_are_unit_length() -> None:
    (vector,) = HashEmbedder(33).embed(["x"])
    assert sum(v * v for v in vector) == pytest.approx(1.0)


def test_bad_dim() -> None:
    with pytest.raises(EmbedderError):
        HashEmbedder(0)
