"""The Embedder contract: one suite that every adapter runs.

Subclass :class:`EmbedderContract` and provide an ``embedder`` fixture (class scope is fine)
returning the adapter under test; set ``tolerance`` for how far a vector embedded in a batch
may drift from the same text embedded alone (int8 models quantise per batch).
"""

from __future__ import annotations

import math

from asat_ingest.embedder import Embedder

TEXTS = [
    "You can deduct from your assessable income any loss or outgoing.",
    "A loss or outgoing of capital, or of a capital nature, is not deductible.",
    "The GST payable on a taxable supply is 10% of its value.",
    "Division 7A treats some payments and loans by private companies as dividends.",
    "short",
    "",
    "A much longer text. " * 60,
]


class EmbedderContract:
    tolerance = 1e-5

    def test_identity_is_a_non_empty_string(self, embedder: Embedder) -> None:
        assert isinstance(embedder.identity, str) and embedder.identity
        assert f"dim={embedder.dim}" in embedder.identity

    def test_every_vector_has_the_declared_dimension(self, embedder: Embedder) -> None:
        vectors = embedder.embed(TEXTS)
        assert len(vectors) == len(TEXTS)
        assert all(len(v) == embedder.dim for v in vectors)
        assert all(math.isfinite(x) for v in vectors for x in v)

    def test_deterministic(self, embedder: Embedder) -> None:
        assert embedder.embed(TEXTS[:3]) == embedder.embed(TEXTS[:3])

    def test_batch_equals_one_by_one(self, embedder: Embedder) -> None:
        batched = embedder.embed(TEXTS)
        for text, vector in zip(TEXTS, batched, strict=True):
            alone = embedder.embed([text])[0]
            assert max(abs(a - b) for a, b in zip(alone, vector, strict=True)) <= self.tolerance

    def test_empty_list(self, embedder: Embedder) -> None:
        assert embedder.embed([]) == []

    def test_different_texts_differ(self, embedder: Embedder) -> None:
        first, second = embedder.embed(TEXTS[:2])
        assert first != second

    def test_queries_have_the_declared_dimension_and_are_deterministic(self, embedder: Embedder) -> None:
        queries = embedder.embed_queries(TEXTS[:4])
        assert len(queries) == 4 and all(len(v) == embedder.dim for v in queries)
        assert all(math.isfinite(x) for v in queries for x in v)
        assert embedder.embed_queries(TEXTS[:4]) == queries
        assert embedder.embed_queries([]) == []

    def test_a_query_is_nearest_its_own_document(self, embedder: Embedder) -> None:
        """Questions and documents share one space: each of the first texts, as a query, is
        nearer its own document vector than the others' (cosine)."""
        documents = embedder.embed(TEXTS[:4])
        for position, query in enumerate(embedder.embed_queries(TEXTS[:4])):
            scores = [_cosine(query, document) for document in documents]
            assert max(range(4), key=scores.__getitem__) == position


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norms if norms else 0.0
