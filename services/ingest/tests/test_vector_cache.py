"""The on-disk vector cache and embedding through it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import pytest

from asat_ingest.cached_embedding import embed_with_cache
from asat_ingest.hash_embedder import HashEmbedder
from asat_ingest.vector_cache import VectorCache, cache_key


class CountingEmbedder(HashEmbedder):
    def __init__(self, dim: int, identity: str = "") -> None:
        super().__init__(dim)
        self.calls: list[list[str]] = []
        self._custom_identity = identity

    @property
    def identity(self) -> str:
        return self._custom_identity or super().identity

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return super().embed(texts)


def test_cache_key_is_sha256_of_identity_nul_text() -> None:
    assert cache_key("model-a", "text") == hashlib.sha256(b"model-a\0text").digest()
    assert cache_key("model-a", "text") != cache_key("model-ab", "text")


def test_round_trip_and_counters(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "cache" / "vectors.sqlite")
    assert cache.get_many("id", ["a", "b"]) == [None, None]
    cache.put_many("id", ["a"], [[0.5, -0.25, 1.0]])
    assert cache.get_many("id", ["a", "b"]) == [[0.5, -0.25, 1.0], None]
    assert (cache.hits, cache.misses) == (1, 3)
    assert len(cache) == 1
    cache.close()
    reopened = VectorCache(tmp_path / "cache" / "vectors.sqlite")
    assert reopened.get_many("id", ["a"]) == [[0.5, -0.25, 1.0]]
    reopened.close()


def test_changing_the_identity_misses(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    cache.put_many("model-a|dim=3", ["general deductions"], [[1.0, 0.0, 0.0]])
    assert cache.get_many("model-b|dim=3", ["general deductions"]) == [None]
    assert cache.get_many("model-a|dim=3", ["general deductions"]) == [[1.0, 0.0, 0.0]]
    cache.close()


def test_many_keys_are_looked_up_in_chunks(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    texts = [f"t{i}" for i in range(1234)]
    cache.put_many("id", texts, [[float(i)] for i in range(1234)])
    assert cache.get_many("id", texts) == [[float(i)] for i in range(1234)]
    cache.close()


def test_put_many_needs_one_vector_per_text(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    with pytest.raises(ValueError, match="2 texts but 1 vectors"):
        cache.put_many("id", ["a", "b"], [[1.0]])
    cache.close()


def test_embed_with_cache_embeds_each_new_text_once(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    embedder = CountingEmbedder(6)
    first = embed_with_cache(embedder, cache, ["a", "b", "a", "c"], flush_every=2)
    assert (first.hits, first.embedded) == (0, 3)
    assert embedder.calls == [["a", "b"], ["c"]]
    assert first.vectors[0] == first.vectors[2]
    second = embed_with_cache(embedder, cache, ["c", "a", "d"])
    assert (second.hits, second.embedded) == (2, 1)
    assert embedder.calls[-1] == ["d"]
    fresh = HashEmbedder(6).embed(["c", "a", "d"])
    for got, want in zip(second.vectors, fresh, strict=True):
        assert got == pytest.approx(want, abs=1e-6)
    cache.close()


def test_embed_with_cache_under_another_identity_reembeds(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    embed_with_cache(CountingEmbedder(6, "model-a"), cache, ["a"])
    other = CountingEmbedder(6, "model-b")
    result = embed_with_cache(other, cache, ["a"])
    assert (result.hits, result.embedded) == (0, 1)
    assert other.calls == [["a"]]
    cache.close()


def test_progress_is_reported(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "v.sqlite")
    seen: list[int] = []
    embed_with_cache(HashEmbedder(4), cache, ["a", "b", "c"], flush_every=2, on_progress=seen.append)
    assert seen == [2, 1]
    embed_with_cache(HashEmbedder(4), cache, ["a", "b", "c", "d"], on_progress=seen.append)
    assert seen[2:] == [3, 1]
    cache.close()
