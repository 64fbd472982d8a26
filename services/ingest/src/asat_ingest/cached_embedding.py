"""Embedding through the vector cache: only texts never seen under this identity reach the model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asat_ingest.embedder import Embedder, EmbedderError
from asat_ingest.vector_cache import VectorCache

DEFAULT_FLUSH_EVERY = 256


@dataclass(frozen=True)
class CachedEmbedding:
    """Vectors in input order.

    ``hits``: input texts served from the cache; ``embedded``: distinct texts that reached the
    model (a text repeated in the input is embedded once).
    """

    vectors: list[list[float]]
    hits: int
    embedded: int


def embed_with_cache(
    embedder: Embedder,
    cache: VectorCache,
    texts: Sequence[str],
    flush_every: int = DEFAULT_FLUSH_EVERY,
    on_progress: Callable[[int], None] | None = None,
) -> CachedEmbedding:
    """Vectors for ``texts``: cached ones read back, the rest embedded (each distinct text once)
    and written to the cache every ``flush_every`` texts so an interrupted build keeps its work.
    ``on_progress(n)`` is called with the number of texts newly done after each step.
    """
    distinct = list(dict.fromkeys(texts))
    cached = cache.get_many(embedder.identity, distinct)
    by_text: dict[str, list[float]] = {}
    missing: list[str] = []
    for text, vector in zip(distinct, cached, strict=True):
        if vector is None:
            missing.append(text)
        else:
            by_text[text] = vector
    missing_set = set(missing)
    hits = sum(1 for text in texts if text not in missing_set)
    if on_progress is not None and by_text:
        on_progress(len(by_text))
    for start in range(0, len(missing), flush_every):
        chunk = missing[start : start + flush_every]
        vectors = embedder.embed(chunk)
        if len(vectors) != len(chunk) or any(len(v) != embedder.dim for v in vectors):
            raise EmbedderError(
                f"embedder {embedder.identity} returned {len(vectors)} vectors for {len(chunk)} texts or a "
                f"vector not of dimension {embedder.dim}"
            )
        cache.put_many(embedder.identity, chunk, vectors)
        by_text.update(zip(chunk, vectors, strict=True))
        if on_progress is not None:
            on_progress(len(chunk))
    return CachedEmbedding(vectors=[by_text[text] for text in texts], hits=hits, embedded=len(missing))
